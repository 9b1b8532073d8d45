package io.statecast.overlay.socket;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.statecast.overlay.address.SubstrateAddress;
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
            throw new OverlayConfigException("", file + ": cannot read: " + e.getMessage(), e);
        }
        if (bytes.length > MAX_DOCUMENT_BYTES) {
            throw new OverlayConfigException("", file + ": larger than " + MAX_DOCUMENT_BYTES + " bytes");
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        return json ? parseJson(text) : parseYaml(text);
    }

    static OverlayConfig parseJson(String text) throws OverlayConfigException {
        return parse(JSON, text);
    }

    static OverlayConfig parseYaml(String text) throws OverlayConfigException {
        return parse(YAML, text);
    }

    private static OverlayConfig parse(ObjectMapper mapper, String text) throws OverlayConfigException {
        if (text.length() > MAX_DOCUMENT_BYTES) {
            throw new OverlayConfigException("", "configuration larger than " + MAX_DOCUMENT_BYTES + " characters");
        }
        Document doc;
        try {
            doc = mapper.readValue(text, Document.class);
        } catch (JsonMappingException e) {
            throw translate(e);
        } catch (JsonProcessingException e) {
            throw new OverlayConfigException("", "configuration is not well-formed: " + e.getOriginalMessage(), e);
        } catch (RuntimeException e) {
            // e.g. snakeyaml limits surfacing as unchecked exceptions
            throw new OverlayConfigException("", "configuration is not well-formed: " + e.getMessage(), e);
        }
        if (doc == null || doc.overlay() == null) {
            throw new OverlayConfigException("overlay", "overlay: the configuration needs a top-level 'overlay' section");
        }
        return doc.overlay().validate();
    }

    private static OverlayConfigException translate(JsonMappingException e) {
        String field = path(e);
        String what;
        if (e instanceof UnrecognizedPropertyException u) {
            String known = u.getKnownPropertyIds() == null ? "" : u.getKnownPropertyIds().stream()
                    .map(Object::toString).sorted().collect(Collectors.joining(", "));
            what = "unknown field" + (known.isEmpty() ? "" : " (known: " + known + ")");
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
