package io.statecast.overlay.socket;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.io.FileErrors;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads {@link OverlayConfig}s from JSON and YAML, strictly: unknown fields, duplicate keys,
 * strings where numbers belong, fractions where integers belong — all errors naming the field.
 * Input is bounded ({@value #MAX_DOCUMENT_BYTES} bytes, YAML aliases limited, nesting limited).
 */
final class OverlayConfigLoader {

    /** Largest configuration document read. */
    static final int MAX_DOCUMENT_BYTES = 1 << 20;

    private static final ObjectMapper JSON = configure(JsonMapper.builder()).build();
    private static final ObjectMapper YAML;

    static {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(10);
        options.setAllowDuplicateKeys(false);
        options.setCodePointLimit(MAX_DOCUMENT_BYTES);
        options.setNestingDepthLimit(32);
        YAML = configure(YAMLMapper.builder(YAMLFactory.builder().loaderOptions(options).build())).build();
    }

    private OverlayConfigLoader() {
    }

    private static <M extends ObjectMapper, B extends com.fasterxml.jackson.databind.cfg.MapperBuilder<M, B>> B configure(B b) {
        SimpleModule addresses = new SimpleModule("statecast-addresses");
        addresses.addDeserializer(SubstrateAddress.class, new SubstrateAddressDeserializer());
        return b.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
                .addModule(addresses);
    }

    static OverlayConfig load(Path file) throws OverlayConfigException {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean json = name.endsWith(".json");
        if (!json && !name.endsWith(".yaml") && !name.endsWith(".yml")) {
            throw new OverlayConfigException("", file + ": configuration files end in .json, .yaml or .yml");
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_DOCUMENT_BYTES + 1);
        } catch (IOException e) {
            throw new OverlayConfigException("", file + ": cannot read: " + FileErrors.describe(e), e);
        }
        if (bytes.length > MAX_DOCUMENT_BYTES) {
            throw new OverlayConfigException("", file + ": larger than " + MAX_DOCUMENT_BYTES + " bytes");
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        Path dir = file.toAbsolutePath().getParent();
        return json ? parse(JSON, "JSON", text, dir) : parse(YAML, "YAML", text, dir);
    }

    static OverlayConfig parseJson(String text) throws OverlayConfigException {
        return parse(JSON, "JSON", text, null);
    }

    static OverlayConfig parseYaml(String text) throws OverlayConfigException {
        return parse(YAML, "YAML", text, null);
    }

    /** @param dir what a relative key file is resolved against, or null for the working directory */
    private static OverlayConfig parse(ObjectMapper mapper, String syntax, String text, Path dir) throws OverlayConfigException {
        if (text.length() > MAX_DOCUMENT_BYTES) {
            throw new OverlayConfigException("", "configuration larger than " + MAX_DOCUMENT_BYTES + " characters");
        }
        Document doc;
        try {
            doc = mapper.readValue(text, Document.class);
        } catch (JsonMappingException e) {
            StreamReadException bad = syntaxError(e);
            throw bad != null ? notWellFormed(syntax, bad) : translate(e, "");
        } catch (JsonProcessingException e) {
            throw notWellFormed(syntax, e);
        } catch (RuntimeException e) {
            // e.g. snakeyaml limits surfacing as unchecked exceptions
            throw new OverlayConfigException("", "configuration is not well-formed: " + e.getMessage(), e);
        }
        if (doc == null || doc.overlay() == null) {
            throw new OverlayConfigException("overlay", "overlay: the configuration needs a top-level 'overlay' section");
        }
        OverlayConfig config = doc.overlay();
        return config.withSecurity(config.security().resolvedAgainst(dir)).validate();
    }

    /** {@link ConfigSections#bind}: the mapper of a JSON document, errors prefixed with {@code path}. */
    static <T> T bind(JsonNode section, Class<T> type, String path) throws OverlayConfigException {
        try {
            return JSON.treeToValue(section, type);
        } catch (JsonMappingException e) {
            throw translate(e, path);
        } catch (JsonProcessingException e) {
            // e.g. a number too large for its type: the parser knows no path, only the section
            throw new OverlayConfigException(path, path + ": " + firstLine(e.getOriginalMessage()), e);
        } catch (ConfigValueException e) {
            // thrown by a creator of the section's root record and not wrapped by Jackson
            String field = join(path, e.field());
            throw new OverlayConfigException(field, field + e.problem(), e);
        }
    }

    private static String join(String prefix, String field) {
        if (prefix.isEmpty() || field.isEmpty()) {
            return prefix + field;
        }
        return field.startsWith("[") ? prefix + field : prefix + "." + field;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int cut = s.indexOf('\n');
        return cut > 0 ? s.substring(0, cut) : s;
    }

    /** The parser's error a mapping exception wraps (a YAML parser fails inside databind), or null. */
    private static StreamReadException syntaxError(JsonMappingException e) {
        for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof StreamReadException s) {
                return s;
            }
        }
        return null;
    }

    private static OverlayConfigException notWellFormed(String syntax, JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        String what = e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage();
        int cut = what.indexOf('\n');
        String where = at == null || at.getLineNr() < 1 ? ""
                : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
        return new OverlayConfigException("", "configuration is not well-formed " + syntax + where + ": "
                + (cut > 0 ? what.substring(0, cut) : what), e);
    }

    /**
     * The value Jackson refused to coerce, as it quotes it ({@code Cannot coerce String value
     * ("soon") to `int` value}), or null: the exception carries no value of its own.
     */
    private static String scalarAt(JsonMappingException e) {
        java.util.regex.Matcher m = COERCED_VALUE.matcher(String.valueOf(e.getOriginalMessage()));
        if (!m.find()) {
            return null;
        }
        String text = m.group(1);
        return text.length() > 64 ? text.substring(0, 64) + "…" : text;
    }

    private static final java.util.regex.Pattern COERCED_VALUE = java.util.regex.Pattern.compile("value \\(\"(.*?)\"\\)");

    /** What a field of {@code type} holds, in a user's words. */
    private static String expected(Class<?> type) {
        if (type == null) {
            return null;
        }
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return "an integer";
        }
        if (type == double.class || type == Double.class || type == float.class || type == Float.class) {
            return "a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type.isEnum()) {
            StringBuilder b = new StringBuilder("one of ");
            Object[] values = type.getEnumConstants();
            for (int i = 0; i < values.length; i++) {
                b.append(i == 0 ? "" : ", ").append(values[i].toString().toLowerCase(Locale.ROOT));
            }
            return b.toString();
        }
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        if (type.isRecord() || java.util.Map.class.isAssignableFrom(type)) {
            return "a section of fields";
        }
        return null;
    }

    /** @param prefix the path of the node bound, {@code ""} for the document */
    private static OverlayConfigException translate(JsonMappingException e, String prefix) {
        String field = join(prefix, path(e));
        if (e instanceof ValueInstantiationException && e.getCause() instanceof ConfigValueException v) {
            String f = join(field, v.field());
            return new OverlayConfigException(f, f + v.problem(), e);
        }
        String what;
        if (e instanceof UnrecognizedPropertyException u) {
            String known = u.getKnownPropertyIds() == null ? "" : u.getKnownPropertyIds().stream()
                    .map(Object::toString).sorted().collect(Collectors.joining(", "));
            what = "unknown field" + (known.isEmpty() ? "" : " (known: " + known + ")");
        } else if (e instanceof MismatchedInputException m && expected(m.getTargetType()) != null) {
            Object value = e instanceof InvalidFormatException f ? f.getValue() : scalarAt(e);
            what = "expected " + expected(m.getTargetType()) + (value == null ? "" : ", got '" + value + "'");
        } else {
            what = e.getOriginalMessage();
            int cut = what.indexOf("\n");
            if (cut > 0) {
                what = what.substring(0, cut);
            }
        }
        return new OverlayConfigException(field, (field.isEmpty() ? "configuration" : field) + ": " + what, e);
    }

    private static String path(JsonMappingException e) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                if (b.length() > 0) {
                    b.append('.');
                }
                b.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.toString();
    }

    /** The document root: exactly one section, {@code overlay}. */
    record Document(OverlayConfig overlay) {
        @JsonCreator
        static Document fromJson(@JsonProperty("overlay") OverlayConfig overlay) {
            return new Document(overlay);
        }
    }

    /** Reads {@code udp://host:port}, {@code tcp://host:port} and {@code mem://name} strings. */
    private static final class SubstrateAddressDeserializer extends StdScalarDeserializer<SubstrateAddress> {
        private static final long serialVersionUID = 1L;

        SubstrateAddressDeserializer() {
            super(SubstrateAddress.class);
        }

        @Override
        public SubstrateAddress deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.hasToken(com.fasterxml.jackson.core.JsonToken.VALUE_STRING)) {
                return (SubstrateAddress) ctxt.handleUnexpectedToken(SubstrateAddress.class, p);
            }
            String text = p.getText();
            try {
                return SubstrateAddress.parse(text);
            } catch (IllegalArgumentException ex) {
                throw ctxt.weirdStringException(text, SubstrateAddress.class, ex.getMessage());
            }
        }
    }
}
