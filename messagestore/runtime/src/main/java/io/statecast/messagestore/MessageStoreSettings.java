package io.statecast.messagestore;

import io.statecast.messagestore.deploy.TrustedKeys;
import io.statecast.messagestore.deploy.TlsTrust;
import io.statecast.messagestore.deploy.SpecServerSettings;
import io.statecast.messagestore.deploy.SigningKey;
import com.fasterxml.jackson.databind.JsonNode;
import io.statecast.messagestore.event.QueryLimits;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.SendBudget;
import io.statecast.messagestore.spec.SpecLimits;
import io.statecast.overlay.socket.OverlayConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The socket configuration's {@code overlay.messageStore} section, read strictly: an unknown
 * field, a value of the wrong type or out of range is an {@link OverlayConfigException} naming
 * the field ({@code overlay.messageStore.instances.maxLive}). Absent fields take the defaults of
 * {@link MessageStoreConfig} and {@link InstanceLimits}; {@code docs/config.md} lists them.
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
     * One service to load.
     *
     * @param uri        where its spec is ({@code file:}, {@code classpath:})
     * @param parameters parameter overrides, possibly empty
     */
    public record ServiceSource(URI uri, Map<String, String> parameters) {
        /** Copies the parameters. */
        public ServiceSource {
            parameters = Map.copyOf(parameters);
        }
    }

    private static final Set<String> TOP = Set.of("shards", "threading", "dataQueueCapacity", "controlQueueCapacity",
            "warmStart", "warmStartTimeoutMs", "evaluationLimitMs", "maxSpecBytes", "unknownService", "instances",
            "services", "specServer", "timerTickMs", "warmStartRounds", "trustedKeys", "sendBudget");
    private static final Set<String> SEND_BUDGET = Set.of("perSecond", "burst");
    private static final Set<String> UNKNOWN = Set.of("holdMessages", "holdMs");
    private static final Set<String> INSTANCES = Set.of("maxLive", "historyEntries", "actionHistoryEntries",
            "timersPerInstance", "primitiveBurst", "primitiveRatePerSecond", "idleTimeoutMs", "tombstones",
            "tombstoneTtlMs");
    private static final Set<String> SERVICE = Set.of("uri", "parameters");
    private static final Set<String> SPEC_SERVER = Set.of("uri", "timeoutMs", "tokenFile", "tries", "retryIntervalMs",
            "retryMaxIntervalMs", "publishOnRequest", "publishOnLoad", "publishIntervalMs", "maxPublishesPerMinute", "caFile");
    /** Largest token file read. */
    private static final int MAX_TOKEN_FILE_BYTES = 4096;

    /**
     * Reads the section.
     *
     * @param section the {@code overlay.messageStore} object ({@code null}: all defaults)
     */
    public static MessageStoreSettings parse(JsonNode section) throws OverlayConfigException {
        MessageStoreConfig d = MessageStoreConfig.defaults();
        if (section == null || section.isNull()) {
            return new MessageStoreSettings(d, List.of());
        }
        requireObject(section, PREFIX);
        known(section, TOP, PREFIX);
        int shards = intField(section, "shards", d.shards(), 1, MessageStoreConfig.MAX_SHARDS, PREFIX);
        MessageStoreConfig.Threading threading = d.threading();
        JsonNode t = section.get("threading");
        if (t != null && !t.isNull()) {
            if (!t.isTextual()) {
                throw new OverlayConfigException(PREFIX + ".threading", PREFIX + ".threading must be a string "
                        + "(dedicated, clock or io), got " + t.getNodeType());
            }
            try {
                threading = MessageStoreConfig.Threading.valueOf(t.asText().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new OverlayConfigException(PREFIX + ".threading", PREFIX + ".threading=" + t.asText()
                        + " must be dedicated, clock or io");
            }
        }
        int data = intField(section, "dataQueueCapacity", d.dataQueueCapacity(), 1, 10_000_000, PREFIX);
        int control = intField(section, "controlQueueCapacity", d.controlQueueCapacity(), 1, 10_000_000, PREFIX);
        boolean warm = boolField(section, "warmStart", d.warmStart(), PREFIX);
        long tickMs = longField(section, "timerTickMs", d.timerTick().toMillis(), 0,
                MessageStoreConfig.MAX_TIMER_TICK.toMillis(), PREFIX);
        long warmMs = longField(section, "warmStartTimeoutMs", d.warmStartTimeout().toMillis(), 1, 600_000, PREFIX);
        int warmRounds = intField(section, "warmStartRounds", d.warmStartRounds(), 1,
                MessageStoreConfig.MAX_WARM_START_ROUNDS, PREFIX);
        QueryLimits q = d.specLimits().queries();
        long evalMs = longField(section, "evaluationLimitMs", q.evaluationTimeout().toMillis(), 1, 60_000, PREFIX);
        int maxBytes = intField(section, "maxSpecBytes", d.specLimits().maxBytes(), 1024, 16 * 1024 * 1024, PREFIX);
        SpecLimits specLimits = new SpecLimits(maxBytes, d.specLimits().maxElements(), d.specLimits().maxDepth(),
                d.specLimits().loadTimeout(), new QueryLimits(q.maxQueryChars(), q.maxNestingDepth(), q.maxRangeSize(),
                        q.compileTimeout(), Duration.ofMillis(evalMs), q.workerStackBytes()));

        int holdMessages = d.unknownServiceMessages();
        long holdMs = d.unknownServiceHold().toMillis();
        JsonNode u = section.get("unknownService");
        String up = PREFIX + ".unknownService";
        if (u != null && !u.isNull()) {
            requireObject(u, up);
            known(u, UNKNOWN, up);
            holdMessages = intField(u, "holdMessages", holdMessages, 0, 1_000_000, up);
            holdMs = longField(u, "holdMs", holdMs, 1, 3_600_000, up);
        }

        InstanceLimits il = d.instances();
        JsonNode i = section.get("instances");
        String ip = PREFIX + ".instances";
        if (i != null && !i.isNull()) {
            requireObject(i, ip);
            known(i, INSTANCES, ip);
            int tombstones = intField(i, "tombstones", il.tombstones(), 0, 10_000_000, ip);
            il = new InstanceLimits(
                    intField(i, "maxLive", il.maxLiveInstances(), 1, 10_000_000, ip),
                    intField(i, "historyEntries", il.historyEntries(), 1, 100_000, ip),
                    intField(i, "actionHistoryEntries", il.actionHistoryEntries(), 1, 10_000, ip),
                    intField(i, "timersPerInstance", il.timersPerInstance(), 1, 10_000, ip),
                    intField(i, "primitiveBurst", il.primitiveBurst(), 1, 1_000_000, ip),
                    doubleField(i, "primitiveRatePerSecond", il.primitiveRatePerSecond(), 0.001, 10_000_000, ip),
                    longField(i, "idleTimeoutMs", il.idleTimeoutMs(), 1, 86_400_000L * 30, ip),
                    tombstones,
                    longField(i, "tombstoneTtlMs", il.tombstoneTtlMs(), 1, 86_400_000L, ip));
        }

        SendBudget budget = d.sendBudget();
        JsonNode b = section.get("sendBudget");
        String bp = PREFIX + ".sendBudget";
        if (b != null && !b.isNull()) {
            requireObject(b, bp);
            known(b, SEND_BUDGET, bp);
            budget = new SendBudget(doubleField(b, "perSecond", budget.perSecond(), 0.001, 1e9, bp),
                    intField(b, "burst", budget.burst(), 1, 100_000_000, bp));
        }

        List<ServiceSource> services = new ArrayList<>();
        JsonNode s = section.get("services");
        String sp = PREFIX + ".services";
        if (s != null && !s.isNull()) {
            if (!s.isArray()) {
                throw new OverlayConfigException(sp, sp + " must be an array of URIs or {uri, parameters} objects, got "
                        + s.getNodeType());
            }
            if (s.size() > MAX_SERVICES) {
                throw new OverlayConfigException(sp, sp + " lists " + s.size() + " services, more than " + MAX_SERVICES);
            }
            for (int k = 0; k < s.size(); k++) {
                services.add(service(s.get(k), sp + "[" + k + "]"));
            }
        }
        MessageStoreConfig config = new MessageStoreConfig(shards, threading, data, control, il, holdMessages,
                Duration.ofMillis(holdMs), specLimits, warm, Duration.ofMillis(warmMs), Duration.ofMillis(tickMs), warmRounds,
                budget);
        return new MessageStoreSettings(config, services, specServer(section.get("specServer"), PREFIX + ".specServer"),
                trustedKeys(section.get("trustedKeys"), PREFIX + ".trustedKeys"));
    }

    private static Optional<TrustedKeys> trustedKeys(JsonNode n, String path) throws OverlayConfigException {
        if (n == null || n.isNull()) {
            return Optional.empty();
        }
        if (!n.isArray() || n.isEmpty()) {
            throw new OverlayConfigException(path, path + " must be a non-empty array of public key files (.pub), got "
                    + (n.isArray() ? "an empty array" : n.getNodeType()));
        }
        if (n.size() > TrustedKeys.MAX_KEYS) {
            throw new OverlayConfigException(path, path + " lists " + n.size() + " files, more than "
                    + TrustedKeys.MAX_KEYS);
        }
        List<Path> files = new ArrayList<>();
        for (int k = 0; k < n.size(); k++) {
            String p = path + "[" + k + "]";
            if (!n.get(k).isTextual()) {
                throw new OverlayConfigException(p, p + " must be a file name, got " + n.get(k).getNodeType());
            }
            try {
                Path f = Path.of(n.get(k).asText());
                SigningKey.readPublic(f);
                files.add(f);
            } catch (IOException | InvalidPathException e) {
                throw new OverlayConfigException(p, p + "=" + n.get(k).asText() + ": " + e.getMessage());
            }
        }
        try {
            return Optional.of(TrustedKeys.read(files));
        } catch (IOException e) {
            throw new OverlayConfigException(path, path + ": " + e.getMessage());
        }
    }

    private static Optional<SpecServerSettings> specServer(JsonNode n, String path) throws OverlayConfigException {
        if (n == null || n.isNull()) {
            return Optional.empty();
        }
        requireObject(n, path);
        known(n, SPEC_SERVER, path);
        JsonNode u = n.get("uri");
        if (u == null || !u.isTextual()) {
            throw new OverlayConfigException(path + ".uri", path + ".uri is required and must be a string");
        }
        URI uri = uri(u.asText(), path + ".uri");
        long timeoutMs = longField(n, "timeoutMs", SpecServerSettings.DEFAULT_TIMEOUT.toMillis(), 1, 600_000, path);
        SpecServerSettings.Retry r = SpecServerSettings.Retry.DEFAULTS;
        int tries = intField(n, "tries", r.tries(), 1, SpecServerSettings.Retry.MAX_TRIES, path);
        long intervalMs = longField(n, "retryIntervalMs", r.interval().toMillis(), 1, 600_000, path);
        long maxIntervalMs = longField(n, "retryMaxIntervalMs", Math.max(intervalMs, r.maxInterval().toMillis()), 1,
                600_000, path);
        if (maxIntervalMs < intervalMs) {
            throw new OverlayConfigException(path + ".retryMaxIntervalMs", path + ".retryMaxIntervalMs=" + maxIntervalMs
                    + " must be >= retryIntervalMs=" + intervalMs);
        }
        SpecServerSettings.Publish p = SpecServerSettings.Publish.NEVER;
        SpecServerSettings.Publish publish = new SpecServerSettings.Publish(
                boolField(n, "publishOnRequest", p.onRequest(), path),
                boolField(n, "publishOnLoad", p.onLoad(), path),
                Duration.ofMillis(longField(n, "publishIntervalMs", p.perService().toMillis(), 1, 86_400_000L, path)),
                intField(n, "maxPublishesPerMinute", p.maxPerMinute(), 1, 10_000, path));
        Optional<String> token = tokenFile(n.get("tokenFile"), path + ".tokenFile");
        Optional<javax.net.ssl.SSLContext> tls = Optional.empty();
        JsonNode ca = n.get("caFile");
        if (ca != null && !ca.isNull()) {
            if (!ca.isTextual()) {
                throw new OverlayConfigException(path + ".caFile", path + ".caFile must be a file name, got "
                        + ca.getNodeType());
            }
            try {
                tls = Optional.of(TlsTrust.trusting(Path.of(ca.asText())));
            } catch (IOException | InvalidPathException e) {
                throw new OverlayConfigException(path + ".caFile", path + ".caFile=" + ca.asText() + ": "
                        + e.getMessage());
            }
        }
        if (tls.isPresent() && !uri.getScheme().equalsIgnoreCase("https")) {
            throw new OverlayConfigException(path + ".caFile", path + ".caFile is for an https uri; " + path + ".uri is "
                    + u.asText());
        }
        try {
            return Optional.of(new SpecServerSettings(uri, Duration.ofMillis(timeoutMs), token,
                    new SpecServerSettings.Retry(tries, Duration.ofMillis(intervalMs), Duration.ofMillis(maxIntervalMs)),
                    publish, tls));
        } catch (IllegalArgumentException e) {
            throw new OverlayConfigException(path + ".uri", path + ".uri=" + u.asText() + ": " + e.getMessage());
        }
    }

    /** The token in the file (whitespace-trimmed), checked like the spec server checks its own. */
    private static Optional<String> tokenFile(JsonNode n, String path) throws OverlayConfigException {
        if (n == null || n.isNull()) {
            return Optional.empty();
        }
        if (!n.isTextual()) {
            throw new OverlayConfigException(path, path + " must be a file name, got " + n.getNodeType());
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(Path.of(n.asText()))) {
            bytes = in.readNBytes(MAX_TOKEN_FILE_BYTES + 1);
        } catch (IOException | InvalidPathException e) {
            throw new OverlayConfigException(path, path + "=" + n.asText() + " cannot be read: " + e.getMessage());
        }
        if (bytes.length > MAX_TOKEN_FILE_BYTES) {
            throw new OverlayConfigException(path, path + "=" + n.asText() + " is larger than " + MAX_TOKEN_FILE_BYTES
                    + " bytes");
        }
        String token = new String(bytes, StandardCharsets.US_ASCII).strip();
        try {
            SpecServerSettings.checkToken(token);
        } catch (IllegalArgumentException e) {
            // the message never contains the token itself
            throw new OverlayConfigException(path, path + "=" + n.asText() + ": " + e.getMessage());
        }
        return Optional.of(token);
    }

    private static ServiceSource service(JsonNode n, String path) throws OverlayConfigException {
        if (n.isTextual()) {
            return new ServiceSource(uri(n.asText(), path), Map.of());
        }
        if (!n.isObject()) {
            throw new OverlayConfigException(path, path + " must be a URI or an object {uri, parameters}, got "
                    + n.getNodeType());
        }
        known(n, SERVICE, path);
        JsonNode u = n.get("uri");
        if (u == null || !u.isTextual()) {
            throw new OverlayConfigException(path + ".uri", path + ".uri is required and must be a string");
        }
        Map<String, String> params = new LinkedHashMap<>();
        JsonNode p = n.get("parameters");
        if (p != null && !p.isNull()) {
            requireObject(p, path + ".parameters");
            Iterator<Map.Entry<String, JsonNode>> it = p.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = e.getValue();
                if (!v.isValueNode() || v.isNull()) {
                    throw new OverlayConfigException(path + ".parameters." + e.getKey(), path + ".parameters."
                            + e.getKey() + " must be a string, number or boolean");
                }
                params.put(e.getKey(), v.asText());
            }
        }
        return new ServiceSource(uri(u.asText(), path + ".uri"), params);
    }

    private static URI uri(String text, String path) throws OverlayConfigException {
        try {
            URI u = new URI(text);
            if (u.getScheme() == null) {
                throw new OverlayConfigException(path, path + "=" + text + " needs a scheme (file: or classpath:)");
            }
            return u;
        } catch (URISyntaxException e) {
            throw new OverlayConfigException(path, path + "=" + text + " is not a URI: " + e.getMessage());
        }
    }

    private static void requireObject(JsonNode n, String path) throws OverlayConfigException {
        if (!n.isObject()) {
            throw new OverlayConfigException(path, path + " must be an object, got " + n.getNodeType());
        }
    }

    private static void known(JsonNode n, Set<String> fields, String path) throws OverlayConfigException {
        Iterator<String> it = n.fieldNames();
        while (it.hasNext()) {
            String f = it.next();
            if (!fields.contains(f)) {
                throw new OverlayConfigException(path + "." + f, path + "." + f + " is not a known field (known: "
                        + new TreeSet<>(fields) + ")");
            }
        }
    }

    private static long longField(JsonNode n, String name, long def, long min, long max, String path)
            throws OverlayConfigException {
        JsonNode v = n.get(name);
        String p = path + "." + name;
        if (v == null || v.isNull()) {
            return def;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new OverlayConfigException(p, p + " must be a whole number, got " + v);
        }
        long x = v.asLong();
        if (x < min || x > max) {
            throw new OverlayConfigException(p, p + "=" + x + " must be within " + min + ".." + max);
        }
        return x;
    }

    private static int intField(JsonNode n, String name, int def, int min, int max, String path)
            throws OverlayConfigException {
        return (int) longField(n, name, def, min, max, path);
    }

    private static double doubleField(JsonNode n, String name, double def, double min, double max, String path)
            throws OverlayConfigException {
        JsonNode v = n.get(name);
        String p = path + "." + name;
        if (v == null || v.isNull()) {
            return def;
        }
        if (!v.isNumber()) {
            throw new OverlayConfigException(p, p + " must be a number, got " + v);
        }
        double x = v.asDouble();
        if (!(x >= min && x <= max)) {
            throw new OverlayConfigException(p, p + "=" + x + " must be within " + min + ".." + max);
        }
        return x;
    }

    private static boolean boolField(JsonNode n, String name, boolean def, String path) throws OverlayConfigException {
        JsonNode v = n.get(name);
        String p = path + "." + name;
        if (v == null || v.isNull()) {
            return def;
        }
        if (!v.isBoolean()) {
            throw new OverlayConfigException(p, p + " must be true or false, got " + v);
        }
        return v.asBoolean();
    }
}
