package io.statecast.messagestore;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.statecast.messagestore.deploy.TrustedKeys;
import io.statecast.messagestore.deploy.TlsTrust;
import io.statecast.messagestore.deploy.SpecServerSettings;
import io.statecast.messagestore.deploy.SigningKey;
import com.fasterxml.jackson.databind.JsonNode;
import io.statecast.messagestore.event.QueryLimits;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.SendBudget;
import io.statecast.messagestore.spec.SpecLimits;
import io.statecast.overlay.io.FileErrors;
import io.statecast.overlay.socket.ConfigSections;
import io.statecast.overlay.socket.ConfigValueException;
import io.statecast.overlay.socket.OverlayConfigException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The socket configuration's {@code overlay.messageStore} section, mapped by Jackson with the
 * strictness of the rest of the file ({@link ConfigSections}): an unknown field, a value of the
 * wrong type or out of range is an {@link OverlayConfigException} naming the field
 * ({@code overlay.messageStore.instances.maxLive=0 must be within 1..10000000}). Absent fields
 * take the defaults of {@link MessageStoreConfig}, {@link InstanceLimits}, {@link SendBudget} and
 * {@link SpecServerSettings}; {@code docs/config.md} lists them. The store's own part of the
 * section is {@link #config()}; the rest says what the node loads and whom it trusts.
 *
 * @param config   the store's settings
 * @param services   the specs to load when the store is created, in order
 * @param specServer where to download the specs of unknown services on demand; empty: nowhere
 *                   (held messages wait for a {@code loadService} and otherwise expire)
 * @param trustedKeys the keys whose signatures specs read from the network need
 *                   ({@link MessageStore#trust}); empty: no signature needed
 */
public record MessageStoreSettings(MessageStoreConfig config, List<ServiceSource> services,
        Optional<SpecServerSettings> specServer, Optional<TrustedKeys> trustedKeys) {

    /** Settings without a spec server. */
    public MessageStoreSettings(MessageStoreConfig config, List<ServiceSource> services) {
        this(config, services, Optional.empty(), Optional.empty());
    }

    /** Copies the list; checks for nulls. */
    public MessageStoreSettings {
        Objects.requireNonNull(config, "config");
        services = List.copyOf(services);
        Objects.requireNonNull(specServer, "specServer");
        Objects.requireNonNull(trustedKeys, "trustedKeys");
    }

    /** Prefix of every field path. */
    public static final String PREFIX = "overlay.messageStore";
    /** Most services a configuration may list. */
    public static final int MAX_SERVICES = 256;

    /**
     * One service to load: in the file a URI string, or {@code {uri, parameters}}.
     *
     * @param uri        where its spec is ({@code file:}, {@code classpath:})
     * @param parameters parameter overrides, possibly empty
     */
    public record ServiceSource(URI uri, Map<String, String> parameters) {
        /** Copies the parameters. */
        public ServiceSource {
            parameters = Map.copyOf(parameters);
        }

        /** A list entry that is a URI string. */
        @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
        static ServiceSource fromUri(String uri) {
            return new ServiceSource(ConfigValueException.uri("", uri), Map.of());
        }

        /** A list entry {@code {uri, parameters}}; a parameter value is a string, number or boolean. */
        @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
        static ServiceSource fromJson(@JsonProperty("uri") String uri,
                @JsonProperty("parameters") Map<String, JsonNode> parameters) {
            if (uri == null) {
                throw new ConfigValueException("uri", " is required and must be a string");
            }
            Map<String, String> values = new LinkedHashMap<>();
            if (parameters != null) {
                for (Map.Entry<String, JsonNode> e : parameters.entrySet()) {
                    JsonNode v = e.getValue();
                    if (v == null || !v.isValueNode() || v.isNull()) {
                        throw new ConfigValueException("parameters." + e.getKey(), " must be a string, number or boolean");
                    }
                    values.put(e.getKey(), v.asText());
                }
            }
            return new ServiceSource(ConfigValueException.uri("uri", uri), values);
        }
    }

    /**
     * Reads the section.
     *
     * @param section the {@code overlay.messageStore} object ({@code null}: all defaults)
     */
    public static MessageStoreSettings parse(JsonNode section) throws OverlayConfigException {
        if (section == null || section.isNull()) {
            return new MessageStoreSettings(MessageStoreConfig.defaults(), List.of());
        }
        return ConfigSections.bind(section, MessageStoreSettings.class, PREFIX);
    }

    /** The section's {@code unknownService} object. */
    record UnknownService(int holdMessages, Duration hold) {
        @JsonCreator
        static UnknownService fromJson(@JsonProperty("holdMessages") Long holdMessages,
                @JsonProperty("holdMs") Long holdMs) {
            MessageStoreConfig d = MessageStoreConfig.defaults();
            return new UnknownService(
                    ConfigValueException.within("holdMessages", holdMessages, d.unknownServiceMessages(), 0, 1_000_000),
                    Duration.ofMillis(ConfigValueException.within("holdMs", holdMs, d.unknownServiceHold().toMillis(),
                            1, 3_600_000)));
        }
    }

    /** Jackson's entry point: the section's fields, each optional; the nested sections bind themselves. */
    @JsonCreator
    static MessageStoreSettings fromJson(
            @JsonProperty("shards") Long shards,
            @JsonProperty("threading") MessageStoreConfig.Threading threading,
            @JsonProperty("dataQueueCapacity") Long dataQueueCapacity,
            @JsonProperty("controlQueueCapacity") Long controlQueueCapacity,
            @JsonProperty("warmStart") Boolean warmStart,
            @JsonProperty("warmStartTimeoutMs") Long warmStartTimeoutMs,
            @JsonProperty("warmStartRounds") Long warmStartRounds,
            @JsonProperty("timerTickMs") Long timerTickMs,
            @JsonProperty("evaluationLimitMs") Long evaluationLimitMs,
            @JsonProperty("maxSpecBytes") Long maxSpecBytes,
            @JsonProperty("unknownService") UnknownService unknownService,
            @JsonProperty("instances") InstanceLimits instances,
            @JsonProperty("sendBudget") SendBudget sendBudget,
            @JsonProperty("services") List<ServiceSource> services,
            @JsonProperty("specServer") SpecServerSettings specServer,
            @JsonProperty("trustedKeys") List<String> trustedKeys) {
        MessageStoreConfig d = MessageStoreConfig.defaults();
        QueryLimits q = d.specLimits().queries();
        SpecLimits specLimits = new SpecLimits(
                ConfigValueException.within("maxSpecBytes", maxSpecBytes, d.specLimits().maxBytes(), 1024, 16 * 1024 * 1024),
                d.specLimits().maxElements(), d.specLimits().maxDepth(), d.specLimits().loadTimeout(),
                new QueryLimits(q.maxQueryChars(), q.maxNestingDepth(), q.maxRangeSize(), q.compileTimeout(),
                        Duration.ofMillis(ConfigValueException.within("evaluationLimitMs", evaluationLimitMs,
                                q.evaluationTimeout().toMillis(), 1, 60_000)),
                        q.workerStackBytes()));
        UnknownService hold = unknownService != null ? unknownService
                : new UnknownService(d.unknownServiceMessages(), d.unknownServiceHold());
        MessageStoreConfig config = new MessageStoreConfig(
                ConfigValueException.within("shards", shards, d.shards(), 1, MessageStoreConfig.MAX_SHARDS),
                threading != null ? threading : d.threading(),
                ConfigValueException.within("dataQueueCapacity", dataQueueCapacity, d.dataQueueCapacity(), 1, 10_000_000),
                ConfigValueException.within("controlQueueCapacity", controlQueueCapacity, d.controlQueueCapacity(), 1,
                        10_000_000),
                instances != null ? instances : d.instances(),
                hold.holdMessages(), hold.hold(), specLimits,
                warmStart != null ? warmStart : d.warmStart(),
                Duration.ofMillis(ConfigValueException.within("warmStartTimeoutMs", warmStartTimeoutMs,
                        d.warmStartTimeout().toMillis(), 1, 600_000)),
                Duration.ofMillis(ConfigValueException.within("timerTickMs", timerTickMs, d.timerTick().toMillis(), 0,
                        MessageStoreConfig.MAX_TIMER_TICK.toMillis())),
                ConfigValueException.within("warmStartRounds", warmStartRounds, d.warmStartRounds(), 1,
                        MessageStoreConfig.MAX_WARM_START_ROUNDS),
                sendBudget != null ? sendBudget : d.sendBudget());
        List<ServiceSource> list = services == null ? List.of() : services;
        if (list.size() > MAX_SERVICES) {
            throw new ConfigValueException("services", " lists " + list.size() + " services, more than " + MAX_SERVICES);
        }
        for (int k = 0; k < list.size(); k++) {
            if (list.get(k) == null) {
                throw new ConfigValueException("services[" + k + "]", " must be a URI or an object {uri, parameters}");
            }
        }
        return new MessageStoreSettings(config, list, Optional.ofNullable(specServer),
                trustedKeys == null ? Optional.empty() : Optional.of(trustedKeys(trustedKeys)));
    }

    private static TrustedKeys trustedKeys(List<String> names) {
        if (names.isEmpty()) {
            throw new ConfigValueException("trustedKeys", " must be a non-empty array of public key files (.pub), "
                    + "got an empty array");
        }
        if (names.size() > TrustedKeys.MAX_KEYS) {
            throw new ConfigValueException("trustedKeys", " lists " + names.size() + " files, more than "
                    + TrustedKeys.MAX_KEYS);
        }
        List<Path> files = new ArrayList<>();
        for (int k = 0; k < names.size(); k++) {
            String field = "trustedKeys[" + k + "]";
            if (names.get(k) == null) {
                throw new ConfigValueException(field, " must be a file name");
            }
            try {
                Path f = Path.of(names.get(k));
                SigningKey.readPublic(f);
                files.add(f);
            } catch (IOException e) {
                throw new ConfigValueException(field, "=" + names.get(k) + ": " + FileErrors.describe(e));
            } catch (InvalidPathException e) {
                throw new ConfigValueException(field, "=" + names.get(k) + ": " + e.getMessage());
            }
        }
        try {
            return TrustedKeys.read(files);
        } catch (IOException e) {
            throw new ConfigValueException("trustedKeys", ": " + e.getMessage());
        }
    }
}
