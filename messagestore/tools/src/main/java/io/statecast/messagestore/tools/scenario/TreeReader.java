package io.statecast.messagestore.tools.scenario;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads a YAML or JSON document into {@link DocNode}s with positions, bounded: at most
 * {@link ScenarioLimits#maxBytes()} characters, {@link ScenarioLimits#maxNodes()} nodes, nested at
 * most {@value #MAX_DEPTH} deep, no YAML aliases of collections beyond a handful, no duplicate
 * keys. Jackson's streaming parser is used rather than data binding because data binding loses
 * the line of a value once it is converted, and every message here names its line.
 */
final class TreeReader {

    static final int MAX_DEPTH = 24;

    private final JsonFactory factory;
    private final ScenarioLimits limits;
    private int nodes;

    private TreeReader(JsonFactory factory, ScenarioLimits limits) {
        this.factory = factory;
        this.limits = limits;
    }

    /** Parses {@code text}; {@code json} chooses the syntax. */
    static DocNode read(String text, boolean json, String source, ScenarioLimits limits) throws ScenarioException {
        if (text.length() > limits.maxBytes()) {
            throw new ScenarioException(source + ": larger than " + limits.maxBytes() + " characters", 0);
        }
        StreamReadConstraints constraints = StreamReadConstraints.builder()
                .maxNestingDepth(MAX_DEPTH + 2).maxStringLength(limits.maxBytes()).maxNumberLength(40).build();
        JsonFactory f;
        if (json) {
            f = JsonFactory.builder().streamReadConstraints(constraints)
                    .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
        } else {
            LoaderOptions options = new LoaderOptions();
            options.setMaxAliasesForCollections(10);
            options.setAllowDuplicateKeys(false);
            options.setCodePointLimit(limits.maxBytes() + 1);
            options.setNestingDepthLimit(MAX_DEPTH + 2);
            f = YAMLFactory.builder().loaderOptions(options).streamReadConstraints(constraints).build();
        }
        TreeReader r = new TreeReader(f, limits);
        try (JsonParser p = f.createParser(text)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw new ScenarioException(source + ": the document is empty", 0);
            }
            DocNode root = r.value(p, new DocNode.Where(source, line(p), column(p), ""), 0);
            if (p.nextToken() != null) {
                throw new ScenarioException(source + ":" + line(p) + ": only one document is allowed", line(p));
            }
            return root;
        } catch (JsonProcessingException e) {
            JsonLocation l = e.getLocation();
            int line = l == null ? 0 : l.getLineNr();
            // Jackson appends where an enclosing structure started, with a redacted source: noise here
            String msg = e.getOriginalMessage().replaceAll("\\s*\\(for [A-Za-z]+ starting at \\[Source:.*", "");
            int cut = msg.indexOf('\n');
            throw new ScenarioException(source + (line > 0 ? ":" + line + ":" + l.getColumnNr() : "")
                    + ": not well-formed " + (json ? "JSON" : "YAML") + ": " + (cut > 0 ? msg.substring(0, cut) : msg),
                    line);
        } catch (IOException | RuntimeException e) {
            // snakeyaml reports its limits and some syntax errors as unchecked exceptions
            String msg = String.valueOf(e.getMessage());
            int cut = msg.indexOf('\n');
            throw new ScenarioException(source + ": not well-formed " + (json ? "JSON" : "YAML") + ": "
                    + (cut > 0 ? msg.substring(0, cut) : msg), 0);
        }
    }

    private DocNode value(JsonParser p, DocNode.Where where, int depth) throws IOException, ScenarioException {
        if (++nodes > limits.maxNodes()) {
            throw where.error("the document has more than " + limits.maxNodes() + " values");
        }
        if (depth > MAX_DEPTH) {
            throw where.error("nested more than " + MAX_DEPTH + " deep");
        }
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT -> {
                Map<String, DocNode> entries = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    DocNode.Where kw = where.child(key, line(p), column(p));
                    if (entries.containsKey(key)) {
                        throw kw.error("duplicate key");
                    }
                    p.nextToken();
                    entries.put(key, value(p, kw, depth + 1));
                }
                return new DocNode.Mapping(where, entries);
            }
            case START_ARRAY -> {
                List<DocNode> items = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    items.add(value(p, where.element(items.size(), line(p), column(p)), depth + 1));
                }
                return new DocNode.Sequence(where, items);
            }
            case VALUE_NULL -> {
                return new DocNode.Scalar(where, null);
            }
            case VALUE_STRING, VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT, VALUE_TRUE, VALUE_FALSE -> {
                return new DocNode.Scalar(where, p.getText());
            }
            default -> throw where.error("unexpected " + t);
        }
    }

    private static int line(JsonParser p) {
        return p.currentTokenLocation().getLineNr();
    }

    private static int column(JsonParser p) {
        return p.currentTokenLocation().getColumnNr();
    }
}
