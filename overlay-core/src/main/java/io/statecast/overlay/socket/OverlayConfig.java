package io.statecast.overlay.socket;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.node.dt.DtSettings;
import io.statecast.overlay.node.tree.TreeSettings;
import io.statecast.overlay.security.KeyFileException;
import io.statecast.overlay.security.OverlayKeys;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Everything an {@link OverlaySocket} is built from: which overlay, which kind of node, its
 * logical address, its substrate interfaces and buddies, every protocol timer, buffer sizes and
 * the optional MessageStore section.
 *
 * <p>Mapped by Jackson from JSON or YAML ({@link OverlayConfigLoader}); the document's root has a
 * single key {@code overlay} holding this record. Unknown fields, duplicate keys, wrong types and
 * every out-of-range value are errors naming the field. A field that is absent (or {@code null})
 * takes its default. Configurations built in code are checked by {@link #validate()} when a socket
 * is created.
 *
 * <p>Defaults (also in {@code docs/config.md}):
 * <table>
 *   <caption>top-level fields</caption>
 *   <tr><th>field</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code id}</td><td>(required)</td><td>overlay ID; its SHA-256 prefix is in every frame and
 *       frames of other overlays are dropped. 1..255 characters, no control characters.</td></tr>
 *   <tr><td>{@code node}</td><td>{@code DT}</td><td>{@code DT} or {@code TREE}</td></tr>
 *   <tr><td>{@code address}</td><td>{@code RANDOM}</td><td>{@code RANDOM}; a decimal id for TREE;
 *       {@code x,y} for DT</td></tr>
 *   <tr><td>{@code addressFrame}</td><td>{@code 0,0 .. 10000,10000}</td><td>where a RANDOM DT
 *       address is drawn (inclusive), and drawn again if taken</td></tr>
 *   <tr><td>{@code interfaces}</td><td>{@code [udp://127.0.0.1:0]}</td><td>substrate interfaces, 1..8,
 *       at most one per scheme; port 0 picks a free port</td></tr>
 *   <tr><td>{@code buddies}</td><td>{@code []}</td><td>substrate addresses of nodes that may be in
 *       the overlay (at most 1024); a node with none founds an overlay alone</td></tr>
 *   <tr><td>{@code messageStore}</td><td>absent</td><td>opaque section for the MessageStore
 *       module; its presence asks for a store</td></tr>
 *   <tr><td>{@code sendWindow}</td><td>{@code {window: 1024, maxWaitMs: 10000, aimd: true}}</td><td>how many
 *       own messages of a windowed service may await acknowledgement ({@link SendWindow})</td></tr>
 *   <tr><td>{@code security}</td><td>{@code {mode: none}}</td><td>frame authentication with an
 *       overlay key ({@link Security})</td></tr>
 *   <tr><td>{@code metrics}</td><td>{@code {http: null}}</td><td>where to serve Prometheus text at
 *       {@code /metrics} (off by default; JMX is always on) ({@link Metrics})</td></tr>
 * </table>
 * Nested sections and their defaults are documented on {@link Heartbeat}, {@link Rendezvous},
 * {@link Tree}, {@link Forwarding}, {@link Buffers}, {@link Join}, {@link SendWindow}, {@link Security} and {@link Metrics}.
 *
 * @param id           overlay ID
 * @param node         kind of overlay node
 * @param address      {@code RANDOM}, a tree id, or DT coordinates {@code x,y}
 * @param addressFrame frame for RANDOM DT addresses
 * @param interfaces   substrate interfaces to open, 1..8, at most one per scheme: a beacon
 *                     advertises at most 8 addresses, and the adapter routes by scheme. A UDP
 *                     interface packs small frames that wait together for one destination
 *                     (acknowledgements, heartbeats) into one datagram of at most
 *                     {@code UdpConfig.bundleBytes} (default 1,472: an Ethernet MTU less the IP
 *                     and UDP headers, so never fragmented) and splits such bundles on receipt;
 *                     a malformed bundle is dropped whole and counted ({@code BAD_BUNDLE}), and
 *                     each destination's frames keep their order. With {@code bundleBytes} 0 a
 *                     node sends one frame per datagram, as nodes without bundling do; those
 *                     cannot read bundles
 * @param buddies      rendezvous addresses
 * @param heartbeat    heartbeat timers
 * @param rendezvous   buddy-list rendezvous
 * @param tree         spanning-tree protocol bounds
 * @param forwarding   forwarding engine settings
 * @param buffers      queue and message sizes
 * @param join         join behaviour
 * @param messageStore the MessageStore section, or {@code null} for none
 * @param sendWindow   how many own messages of a windowed service may be in flight
 * @param security     frame authentication
 * @param metrics      how the socket's meters are exported beyond JMX
 */
public record OverlayConfig(
        String id,
        NodeType node,
        String address,
        Frame addressFrame,
        List<SubstrateAddress> interfaces,
        List<SubstrateAddress> buddies,
        Heartbeat heartbeat,
        Rendezvous rendezvous,
        Tree tree,
        Forwarding forwarding,
        Buffers buffers,
        Join join,
        JsonNode messageStore,
        SendWindow sendWindow,
        Security security,
        Metrics metrics) {

    /** Default {@link #node()}. */
    public static final NodeType DEFAULT_NODE = NodeType.DT;
    /** The {@link #address()} value that asks for a random address. */
    public static final String RANDOM = "RANDOM";
    /** Default {@link #interfaces()}. */
    public static final String DEFAULT_INTERFACE = "udp://127.0.0.1:0";
    /** Most interfaces (a beacon advertises at most this many addresses). */
    public static final int MAX_INTERFACES = 8;
    /** Most buddies. */
    public static final int MAX_BUDDIES = 1024;
    /** Longest overlay ID. */
    public static final int MAX_ID_LENGTH = 255;

    /** Fills in defaults for absent parts (no range checks: see {@link #validate()}). */
    public OverlayConfig {
        node = node == null ? DEFAULT_NODE : node;
        address = address == null ? RANDOM : address.trim();
        addressFrame = addressFrame == null ? Frame.defaults() : addressFrame;
        interfaces = interfaces == null ? List.of(SubstrateAddress.parse(DEFAULT_INTERFACE)) : List.copyOf(interfaces);
        buddies = buddies == null ? List.of() : List.copyOf(buddies);
        heartbeat = heartbeat == null ? Heartbeat.defaults() : heartbeat;
        rendezvous = rendezvous == null ? Rendezvous.defaults() : rendezvous;
        tree = tree == null ? Tree.defaults() : tree;
        forwarding = forwarding == null ? Forwarding.defaults() : forwarding;
        buffers = buffers == null ? Buffers.defaults() : buffers;
        join = join == null ? Join.defaults() : join;
        sendWindow = sendWindow == null ? SendWindow.defaults() : sendWindow;
        security = security == null ? Security.defaults() : security;
        metrics = metrics == null ? Metrics.defaults() : metrics;
        if (messageStore != null && messageStore.isNull()) {
            messageStore = null;
        }
    }

    /** Jackson's entry point: every field optional but {@code id}. */
    @JsonCreator
    static OverlayConfig fromJson(
            @JsonProperty("id") String id,
            @JsonProperty("node") NodeType node,
            @JsonProperty("address") String address,
            @JsonProperty("addressFrame") Frame addressFrame,
            @JsonProperty("interfaces") List<SubstrateAddress> interfaces,
            @JsonProperty("buddies") List<SubstrateAddress> buddies,
            @JsonProperty("heartbeat") Heartbeat heartbeat,
            @JsonProperty("rendezvous") Rendezvous rendezvous,
            @JsonProperty("tree") Tree tree,
            @JsonProperty("forwarding") Forwarding forwarding,
            @JsonProperty("buffers") Buffers buffers,
            @JsonProperty("join") Join join,
            @JsonProperty("messageStore") JsonNode messageStore,
            @JsonProperty("sendWindow") SendWindow sendWindow,
            @JsonProperty("security") Security security,
            @JsonProperty("metrics") Metrics metrics) {
        return new OverlayConfig(id, node, address, addressFrame, interfaces, buddies, heartbeat, rendezvous, tree,
                forwarding, buffers, join, messageStore, sendWindow, security, metrics);
    }

    /** A configuration with the default {@link Metrics} (the fields before it was added). */
    public OverlayConfig(String id, NodeType node, String address, Frame addressFrame, List<SubstrateAddress> interfaces,
            List<SubstrateAddress> buddies, Heartbeat heartbeat, Rendezvous rendezvous, Tree tree, Forwarding forwarding,
            Buffers buffers, Join join, JsonNode messageStore, SendWindow sendWindow, Security security) {
        this(id, node, address, addressFrame, interfaces, buddies, heartbeat, rendezvous, tree, forwarding, buffers, join,
                messageStore, sendWindow, security, null);
    }

    /** A configuration without frame authentication (the fields before {@link Security} was added). */
    public OverlayConfig(String id, NodeType node, String address, Frame addressFrame, List<SubstrateAddress> interfaces,
            List<SubstrateAddress> buddies, Heartbeat heartbeat, Rendezvous rendezvous, Tree tree, Forwarding forwarding,
            Buffers buffers, Join join, JsonNode messageStore, SendWindow sendWindow) {
        this(id, node, address, addressFrame, interfaces, buddies, heartbeat, rendezvous, tree, forwarding, buffers, join,
                messageStore, sendWindow, (Security) null);
    }

    /** A configuration with the default {@link SendWindow} (the fields before it was added). */
    public OverlayConfig(String id, NodeType node, String address, Frame addressFrame, List<SubstrateAddress> interfaces,
            List<SubstrateAddress> buddies, Heartbeat heartbeat, Rendezvous rendezvous, Tree tree, Forwarding forwarding,
            Buffers buffers, Join join, JsonNode messageStore) {
        this(id, node, address, addressFrame, interfaces, buddies, heartbeat, rendezvous, tree, forwarding, buffers, join,
                messageStore, null, (Security) null);
    }

    /** A configuration with every default, for overlay {@code id}, node type {@code node}. */
    public static OverlayConfig defaults(String id, NodeType node) {
        return new OverlayConfig(id, node, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    /** Loads and validates a {@code .json}, {@code .yaml} or {@code .yml} file. */
    public static OverlayConfig load(Path file) throws OverlayConfigException {
        return OverlayConfigLoader.load(file);
    }

    /** Parses and validates a YAML (or JSON, which is YAML) document. */
    public static OverlayConfig parse(String text) throws OverlayConfigException {
        return OverlayConfigLoader.parseYaml(text);
    }

    // ---------------------------------------------------------------------------------- withers

    /** This configuration with another logical address ({@code RANDOM}, an id, or {@code x,y}). */
    public OverlayConfig withAddress(String newAddress) {
        return new OverlayConfig(id, node, newAddress, addressFrame, interfaces, buddies, heartbeat, rendezvous, tree,
                forwarding, buffers, join, messageStore, sendWindow, security, metrics);
    }

    /** This configuration with other interfaces. */
    public OverlayConfig withInterfaces(List<SubstrateAddress> newInterfaces) {
        return new OverlayConfig(id, node, address, addressFrame, newInterfaces, buddies, heartbeat, rendezvous, tree,
                forwarding, buffers, join, messageStore, sendWindow, security, metrics);
    }

    /** This configuration with other buddies. */
    public OverlayConfig withBuddies(List<SubstrateAddress> newBuddies) {
        return new OverlayConfig(id, node, address, addressFrame, interfaces, newBuddies, heartbeat, rendezvous, tree,
                forwarding, buffers, join, messageStore, sendWindow, security, metrics);
    }

    /** This configuration with another MessageStore section ({@code null}: none). */
    public OverlayConfig withMessageStore(JsonNode section) {
        return new OverlayConfig(id, node, address, addressFrame, interfaces, buddies, heartbeat, rendezvous, tree,
                forwarding, buffers, join, section, sendWindow, security, metrics);
    }

    /** This configuration with other metrics settings. */
    public OverlayConfig withMetrics(Metrics newMetrics) {
        return new OverlayConfig(id, node, address, addressFrame, interfaces, buddies, heartbeat, rendezvous, tree,
                forwarding, buffers, join, messageStore, sendWindow, security, newMetrics);
    }

    /** This configuration with other frame-authentication settings. */
    public OverlayConfig withSecurity(Security newSecurity) {
        return new OverlayConfig(id, node, address, addressFrame, interfaces, buddies, heartbeat, rendezvous, tree,
                forwarding, buffers, join, messageStore, sendWindow, newSecurity, metrics);
    }

    /** This configuration with another send window. */
    public OverlayConfig withSendWindow(SendWindow newSendWindow) {
        return new OverlayConfig(id, node, address, addressFrame, interfaces, buddies, heartbeat, rendezvous, tree,
                forwarding, buffers, join, messageStore, newSendWindow, security, metrics);
    }

    // ---------------------------------------------------------------------------------- derived

    /**
     * The logical address this configuration asks for: the explicit one, or a random one drawn
     * from {@code random} (a positive id for TREE; a point of {@link #addressFrame()} for DT).
     */
    public LogicalAddress resolveAddress(RandomGenerator random) {
        if (!address.equalsIgnoreCase(RANDOM)) {
            return parseAddress(address);
        }
        return switch (node) {
            case TREE -> new TreeAddress(1 + random.nextLong(Long.MAX_VALUE - 1));
            case DT -> new DtAddress(
                    (int) random.nextLong(addressFrame.minX(), (long) addressFrame.maxX() + 1),
                    (int) random.nextLong(addressFrame.minY(), (long) addressFrame.maxY() + 1));
        };
    }

    /**
     * Parses a logical address of this configuration's node type: a decimal id for TREE,
     * {@code x,y} for DT (how applications read addresses typed by users).
     *
     * @throws IllegalArgumentException if {@code text} is not such an address
     */
    public LogicalAddress parseAddress(String text) {
        try {
            return switch (node) {
                case TREE -> new TreeAddress(Long.parseLong(text.trim()));
                case DT -> {
                    String[] xy = text.split(",", -1);
                    if (xy.length != 2) {
                        throw new NumberFormatException("not x,y");
                    }
                    yield new DtAddress(Integer.parseInt(xy[0].trim()), Integer.parseInt(xy[1].trim()));
                }
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a " + node + " address ("
                    + (node == NodeType.TREE ? "a decimal id" : "integer coordinates x,y") + ")", e);
        }
    }

    /** The spanning-tree protocol's settings from this configuration. */
    public TreeSettings treeSettings() {
        return new TreeSettings(heartbeat.fastMs(), heartbeat.slowMs(), heartbeat.timeoutMs(), rendezvous.iAmHereMs(),
                heartbeat.stableAfter(), tree.maxHops(), tree.maxLinks(), tree.maxSubtreeIds(), rendezvous.buddyCacheSize(),
                buddies);
    }

    /**
     * The DT protocol's settings from this configuration: the heartbeat and rendezvous timers,
     * the buddies, and — for a RANDOM address — the frame new coordinates are drawn from if the
     * drawn ones turn out to be taken (a fixed address fails instead).
     */
    public DtSettings dtSettings() {
        DtSettings.Frame redraw = address.equalsIgnoreCase(RANDOM)
                ? new DtSettings.Frame(addressFrame.minX(), addressFrame.minY(), addressFrame.maxX(), addressFrame.maxY())
                : null;
        return DtSettings.withDefaults(heartbeat.fastMs(), heartbeat.slowMs(), heartbeat.timeoutMs(), rendezvous.iAmHereMs(),
                heartbeat.stableAfter(), rendezvous.buddyCacheSize(), buddies, redraw);
    }

    // ---------------------------------------------------------------------------------- validation

    /**
     * Checks every field and every combination.
     *
     * @throws OverlayConfigException naming the first offending field
     */
    public OverlayConfig validate() throws OverlayConfigException {
        String p = "overlay.";
        if (id == null) {
            throw new OverlayConfigException(p + "id", p + "id is required");
        }
        if (id.isEmpty() || id.length() > MAX_ID_LENGTH || id.chars().anyMatch(Character::isISOControl)) {
            throw new OverlayConfigException(p + "id", p + "id='" + printable(id) + "' must be 1.." + MAX_ID_LENGTH
                    + " characters without control characters");
        }
        addressFrame.validate(p + "addressFrame");
        validateAddress(p + "address");
        if (interfaces.isEmpty() || interfaces.size() > MAX_INTERFACES) {
            throw new OverlayConfigException(p + "interfaces", p + "interfaces has " + interfaces.size()
                    + " entries; must be 1.." + MAX_INTERFACES);
        }
        Set<SubstrateAddress.Scheme> schemes = EnumSet.noneOf(SubstrateAddress.Scheme.class);
        for (int i = 0; i < interfaces.size(); i++) {
            if (interfaces.get(i) == null) {
                throw new OverlayConfigException(p + "interfaces[" + i + "]", p + "interfaces[" + i + "] is null");
            }
            if (!schemes.add(interfaces.get(i).scheme())) {
                throw new OverlayConfigException(p + "interfaces[" + i + "]", p + "interfaces[" + i + "]=" + interfaces.get(i)
                        + ": at most one interface per scheme (" + interfaces.get(i).scheme().uriScheme() + ")");
            }
        }
        if (buddies.size() > MAX_BUDDIES) {
            throw new OverlayConfigException(p + "buddies", p + "buddies has " + buddies.size() + " entries; at most " + MAX_BUDDIES);
        }
        for (int i = 0; i < buddies.size(); i++) {
            if (buddies.get(i) == null) {
                throw new OverlayConfigException(p + "buddies[" + i + "]", p + "buddies[" + i + "] is null");
            }
        }
        heartbeat.validate(p + "heartbeat");
        rendezvous.validate(p + "rendezvous");
        buffers.validate(p + "buffers");
        tree.validate(p + "tree", buffers);
        forwarding.validate(p + "forwarding");
        join.validate(p + "join");
        sendWindow.validate(p + "sendWindow");
        security.validate(p + "security");
        metrics.validate(p + "metrics");
        // the trailer always fits: tree.validate already asks for at least 2 KiB per frame
        if (messageStore != null && !messageStore.isObject()) {
            throw new OverlayConfigException(p + "messageStore", p + "messageStore must be an object, got " + messageStore.getNodeType());
        }
        return this;
    }

    private void validateAddress(String f) throws OverlayConfigException {
        if (address.equalsIgnoreCase(RANDOM)) {
            return;
        }
        try {
            parseAddress(address);
        } catch (IllegalArgumentException e) {
            throw new OverlayConfigException(f, f + "='" + printable(address) + "' must be RANDOM or "
                    + (node == NodeType.TREE ? "a decimal node id for node TREE" : "integer coordinates x,y for node DT"));
        }
    }

    private static String printable(String s) {
        String t = s.length() > 40 ? s.substring(0, 40) + "…" : s;
        StringBuilder b = new StringBuilder();
        t.codePoints().forEach(c -> {
            if (Character.isISOControl(c)) {
                b.append(String.format(Locale.ROOT, "\\u%04x", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return b.toString();
    }

    static void range(String field, long value, long min, long max) throws OverlayConfigException {
        if (value < min || value > max) {
            throw new OverlayConfigException(field, field + "=" + value + " must be within " + min + ".." + max);
        }
    }

    // ---------------------------------------------------------------------------------- sections

    /**
     * The rectangle a RANDOM DT address is drawn from, bounds inclusive; a drawn point that
     * another node holds is drawn again while the node joins. Default
     * {@code 0,0 .. 10000,10000}. The geometric predicates are exact for any {@code int}
     * coordinates; a frame at most 2<sup>30</sup> wide keeps them in allocation-free 128-bit
     * arithmetic.
     *
     * @param minX smallest x, default 0
     * @param minY smallest y, default 0
     * @param maxX largest x, default 10000
     * @param maxY largest y, default 10000
     */
    public record Frame(int minX, int minY, int maxX, int maxY) {
        /** Default of {@link #maxX()} and {@link #maxY()}. */
        public static final int DEFAULT_MAX = 10_000;

        @JsonCreator
        static Frame fromJson(@JsonProperty("minX") Integer minX, @JsonProperty("minY") Integer minY,
                              @JsonProperty("maxX") Integer maxX, @JsonProperty("maxY") Integer maxY) {
            return new Frame(or(minX, 0), or(minY, 0), or(maxX, DEFAULT_MAX), or(maxY, DEFAULT_MAX));
        }

        /** The documented defaults. */
        public static Frame defaults() {
            return new Frame(0, 0, DEFAULT_MAX, DEFAULT_MAX);
        }

        void validate(String p) throws OverlayConfigException {
            if (minX >= maxX) {
                throw new OverlayConfigException(p + ".maxX", p + ".maxX=" + maxX + " must be > minX=" + minX);
            }
            if (minY >= maxY) {
                throw new OverlayConfigException(p + ".maxY", p + ".maxY=" + maxY + " must be > minY=" + minY);
            }
        }
    }

    /**
     * Heartbeat timers of the overlay protocol (HyperCast's sample configuration).
     *
     * @param fastMs      beacon/Hello interval while the node's view is changing; default 250 ms
     * @param slowMs      interval once stable; default 250 ms; must be >= fastMs
     * @param timeoutMs   a neighbour silent this long is dropped; default 10,000 ms; must be
     *                    >= 5 x slowMs so one lost heartbeat never removes a neighbour
     * @param stableAfter heartbeats without a change before the node counts as STABLE; default 4
     */
    public record Heartbeat(long fastMs, long slowMs, long timeoutMs, int stableAfter) {
        /** Default {@link #fastMs()}. */
        public static final long DEFAULT_FAST_MS = 250;
        /** Default {@link #slowMs()}. */
        public static final long DEFAULT_SLOW_MS = 250;
        /** Default {@link #timeoutMs()}. */
        public static final long DEFAULT_TIMEOUT_MS = 10_000;
        /** Default {@link #stableAfter()}. */
        public static final int DEFAULT_STABLE_AFTER = 4;

        @JsonCreator
        static Heartbeat fromJson(@JsonProperty("fastMs") Long fastMs, @JsonProperty("slowMs") Long slowMs,
                                  @JsonProperty("timeoutMs") Long timeoutMs, @JsonProperty("stableAfter") Integer stableAfter) {
            return new Heartbeat(or(fastMs, DEFAULT_FAST_MS), or(slowMs, DEFAULT_SLOW_MS), or(timeoutMs, DEFAULT_TIMEOUT_MS),
                    or(stableAfter, DEFAULT_STABLE_AFTER));
        }

        /** The documented defaults. */
        public static Heartbeat defaults() {
            return new Heartbeat(DEFAULT_FAST_MS, DEFAULT_SLOW_MS, DEFAULT_TIMEOUT_MS, DEFAULT_STABLE_AFTER);
        }

        void validate(String p) throws OverlayConfigException {
            range(p + ".fastMs", fastMs, 1, 3_600_000);
            range(p + ".slowMs", slowMs, 1, 3_600_000);
            if (slowMs < fastMs) {
                throw new OverlayConfigException(p + ".slowMs", p + ".slowMs=" + slowMs + " must be >= fastMs=" + fastMs);
            }
            range(p + ".timeoutMs", timeoutMs, 1, 86_400_000);
            if (timeoutMs < 5 * slowMs) {
                throw new OverlayConfigException(p + ".timeoutMs", p + ".timeoutMs=" + timeoutMs + " must be >= 5 x slowMs=" + slowMs);
            }
            range(p + ".stableAfter", stableAfter, 1, 1000);
        }
    }

    /**
     * Buddy-list rendezvous.
     *
     * @param iAmHereMs      interval at which a node contacts a buddy it is not linked to (all of
     *                       them while it has no neighbour); default 2,000 ms. This is how a
     *                       joining node finds the overlay and how separately started overlays
     *                       merge. DT: a node without neighbours sends NewNode to every buddy; a
     *                       leader sends IAmLeader down its tree and NewNode to one buddy; any
     *                       other node sends IAmHere to one buddy ({@code docs/dt-overlay.md})
     * @param buddyCacheSize addresses of lost neighbours remembered as extra buddies, so a healed
     *                       partition is found again; default 10
     */
    public record Rendezvous(long iAmHereMs, int buddyCacheSize) {
        /** Default {@link #iAmHereMs()}. */
        public static final long DEFAULT_I_AM_HERE_MS = 2_000;
        /** Default {@link #buddyCacheSize()}. */
        public static final int DEFAULT_BUDDY_CACHE_SIZE = 10;

        @JsonCreator
        static Rendezvous fromJson(@JsonProperty("iAmHereMs") Long iAmHereMs, @JsonProperty("buddyCacheSize") Integer buddyCacheSize) {
            return new Rendezvous(or(iAmHereMs, DEFAULT_I_AM_HERE_MS), or(buddyCacheSize, DEFAULT_BUDDY_CACHE_SIZE));
        }

        /** The documented defaults. */
        public static Rendezvous defaults() {
            return new Rendezvous(DEFAULT_I_AM_HERE_MS, DEFAULT_BUDDY_CACHE_SIZE);
        }

        void validate(String p) throws OverlayConfigException {
            range(p + ".iAmHereMs", iAmHereMs, 1, 3_600_000);
            range(p + ".buddyCacheSize", buddyCacheSize, 0, 1024);
        }
    }

    /**
     * Bounds of the spanning-tree protocol (node TREE only).
     *
     * @param maxHops       offers of a root further than this are ignored, which ends
     *                      count-to-infinity after a root fails; default 64 (buddy meshes are
     *                      shallow, and root freshness usually ends it sooner)
     * @param maxLinks      most peers a node exchanges beacons with; beyond it newcomers are
     *                      refused with Goodbye; default 64
     * @param maxSubtreeIds longest subtree list sent or accepted, i.e. the largest tree overlay
     *                      whose unicast routing is complete; default 4096; 8 bytes each must
     *                      fit in maxMessageBytes
     */
    public record Tree(int maxHops, int maxLinks, int maxSubtreeIds) {
        /** Default {@link #maxHops()}. */
        public static final int DEFAULT_MAX_HOPS = 64;
        /** Default {@link #maxLinks()}. */
        public static final int DEFAULT_MAX_LINKS = 64;
        /** Default {@link #maxSubtreeIds()}. */
        public static final int DEFAULT_MAX_SUBTREE_IDS = 4096;

        @JsonCreator
        static Tree fromJson(@JsonProperty("maxHops") Integer maxHops, @JsonProperty("maxLinks") Integer maxLinks,
                             @JsonProperty("maxSubtreeIds") Integer maxSubtreeIds) {
            return new Tree(or(maxHops, DEFAULT_MAX_HOPS), or(maxLinks, DEFAULT_MAX_LINKS), or(maxSubtreeIds, DEFAULT_MAX_SUBTREE_IDS));
        }

        /** The documented defaults. */
        public static Tree defaults() {
            return new Tree(DEFAULT_MAX_HOPS, DEFAULT_MAX_LINKS, DEFAULT_MAX_SUBTREE_IDS);
        }

        void validate(String p, Buffers buffers) throws OverlayConfigException {
            range(p + ".maxHops", maxHops, 1, 65_535);
            range(p + ".maxLinks", maxLinks, 1, 4096);
            range(p + ".maxSubtreeIds", maxSubtreeIds, 1, 65_535);
            long need = 8L * maxSubtreeIds + 2 * 1024;
            if (need > buffers.maxMessageBytes()) {
                throw new OverlayConfigException(p + ".maxSubtreeIds", p + ".maxSubtreeIds=" + maxSubtreeIds
                        + " needs 8 x ids + 2048 = " + need + " bytes > buffers.maxMessageBytes=" + buffers.maxMessageBytes());
            }
        }
    }

    /**
     * The forwarding engine.
     *
     * @param hopLimit          hop limit of messages this node originates; default 255, the most
     *                          the header holds: DT trees grow about as the square root of N
     *                          deep, so any smaller default would cut legitimate paths in a
     *                          large overlay, while transient loops are already cut by previous-hop
     *                          checks and duplicate suppression — the limit is only a backstop
     * @param floodCacheEntries flood identifiers remembered for duplicate suppression; default
     *                          4096 (at 1,000 floods a second, four seconds of history — far
     *                          longer than a flood takes to cross an overlay)
     */
    public record Forwarding(int hopLimit, int floodCacheEntries) {
        /** Default {@link #hopLimit()}. */
        public static final int DEFAULT_HOP_LIMIT = 255;
        /** Default {@link #floodCacheEntries()}. */
        public static final int DEFAULT_FLOOD_CACHE_ENTRIES = 4096;

        @JsonCreator
        static Forwarding fromJson(@JsonProperty("hopLimit") Integer hopLimit, @JsonProperty("floodCacheEntries") Integer floodCacheEntries) {
            return new Forwarding(or(hopLimit, DEFAULT_HOP_LIMIT), or(floodCacheEntries, DEFAULT_FLOOD_CACHE_ENTRIES));
        }

        /** The documented defaults. */
        public static Forwarding defaults() {
            return new Forwarding(DEFAULT_HOP_LIMIT, DEFAULT_FLOOD_CACHE_ENTRIES);
        }

        void validate(String p) throws OverlayConfigException {
            range(p + ".hopLimit", hopLimit, 1, 255);
            range(p + ".floodCacheEntries", floodCacheEntries, 1, 1_000_000);
        }
    }

    /**
     * Queue and message sizes.
     *
     * @param receiveQueueMessages messages waiting for the application (blocking receive or the
     *                             callback thread); beyond it deliveries are dropped and counted;
     *                             default 1024
     * @param maxMessageBytes      largest frame sent or accepted; default 65,536 (64 KiB; UDP's
     *                             limit is just below it, and the codec's own default); 64..16 MiB
     * @param deliveryWaitMs       how long a MessageStore's delivery waits for room in a full
     *                             receive queue before the message is dropped; default
     *                             {@value #DEFAULT_DELIVERY_WAIT_MS} ms, within 0..60,000 (0: never
     *                             wait). A store delivers messages its service may already have
     *                             acknowledged; waiting holds the store back instead, so that its
     *                             queues refuse new messages before anything acknowledges them, and
     *                             the service's retransmissions bring them again. While the queue
     *                             is full the store's shards first hold their data messages back
     *                             (counted as data held for the application); control messages and
     *                             timers go on, so acknowledgements still complete this node's own
     *                             messages and retransmissions and give-ups run on time. If the
     *                             queue stays full this long, data flows again and each delivery
     *                             that finds no room waits up to this long on the store's thread
     *                             before the message is dropped ({@code APPLICATION_QUEUE_FULL}).
     *                             Messages without a service never wait (they are delivered on an
     *                             I/O thread), nor does a delivery on a virtual clock, on the
     *                             socket's timer thread (a store on clock threading runs there; see
     *                             {@code RealTimerService.mayWait}) or on its receive thread (io
     *                             threading)
     * @param wakeIntervalMicros   least time between two wake-ups of the application's receiving
     *                             thread for a MessageStore's deliveries; default
     *                             {@value #DEFAULT_WAKE_INTERVAL_MICROS} µs, within
     *                             0..{@value #MAX_WAKE_INTERVAL_MICROS} (0: wake it for every
     *                             batch at once). A message that finds the thread asleep for longer
     *                             wakes it at once; within the interval the thread is woken when the
     *                             interval ends, for everything delivered meanwhile, or at once when
     *                             the receive queue is half full, so an occasional message gains no
     *                             latency and a steady stream up to this much. At a forwarding node
     *                             of the 100 Mbit/s testbed chain, messages arrive one at a time about
     *                             100 µs apart; waking the thread for each (a futex call and a context
     *                             switch at each end) took 15–22 % of the node's CPU. Deliveries
     *                             without a service wake it at once, and so does everything on a
     *                             socket with injected timers (simulations), with several interfaces,
     *                             or with one that has no receive thread of its own (the deferred
     *                             wake-up runs on that thread)
     */
    public record Buffers(int receiveQueueMessages, int maxMessageBytes, long deliveryWaitMs, long wakeIntervalMicros) {
        /** Default {@link #receiveQueueMessages()}. */
        public static final int DEFAULT_RECEIVE_QUEUE_MESSAGES = 1024;
        /** Default {@link #maxMessageBytes()}. */
        public static final int DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024;
        /** Default {@link #deliveryWaitMs()}. */
        public static final long DEFAULT_DELIVERY_WAIT_MS = 1000;
        /** Default {@link #wakeIntervalMicros()}. */
        public static final long DEFAULT_WAKE_INTERVAL_MICROS = 500;
        /** Largest {@link #wakeIntervalMicros()}: the latency it may add stays below a frame of video. */
        public static final long MAX_WAKE_INTERVAL_MICROS = 10_000;

        /** Buffers with the default {@link #deliveryWaitMs()} and wake interval (the fields before they were added). */
        public Buffers(int receiveQueueMessages, int maxMessageBytes) {
            this(receiveQueueMessages, maxMessageBytes, DEFAULT_DELIVERY_WAIT_MS);
        }

        /** Buffers with the default {@link #wakeIntervalMicros()} (the fields before it was added). */
        public Buffers(int receiveQueueMessages, int maxMessageBytes, long deliveryWaitMs) {
            this(receiveQueueMessages, maxMessageBytes, deliveryWaitMs, DEFAULT_WAKE_INTERVAL_MICROS);
        }

        @JsonCreator
        static Buffers fromJson(@JsonProperty("receiveQueueMessages") Integer receiveQueueMessages,
                                @JsonProperty("maxMessageBytes") Integer maxMessageBytes,
                                @JsonProperty("deliveryWaitMs") Long deliveryWaitMs,
                                @JsonProperty("wakeIntervalMicros") Long wakeIntervalMicros) {
            return new Buffers(or(receiveQueueMessages, DEFAULT_RECEIVE_QUEUE_MESSAGES), or(maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES),
                    or(deliveryWaitMs, DEFAULT_DELIVERY_WAIT_MS), or(wakeIntervalMicros, DEFAULT_WAKE_INTERVAL_MICROS));
        }

        /** The documented defaults. */
        public static Buffers defaults() {
            return new Buffers(DEFAULT_RECEIVE_QUEUE_MESSAGES, DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_DELIVERY_WAIT_MS,
                    DEFAULT_WAKE_INTERVAL_MICROS);
        }

        void validate(String p) throws OverlayConfigException {
            range(p + ".receiveQueueMessages", receiveQueueMessages, 1, 1_000_000);
            range(p + ".maxMessageBytes", maxMessageBytes, 64, 16 * 1024 * 1024);
            range(p + ".deliveryWaitMs", deliveryWaitMs, 0, 60_000);
            range(p + ".wakeIntervalMicros", wakeIntervalMicros, 0, MAX_WAKE_INTERVAL_MICROS);
        }
    }

    /**
     * Joining.
     *
     * @param timeoutMs    how long {@link OverlaySocket#join()} waits for the node to become part
     *                     of an overlay before it fails; default 30,000 ms (three neighbour
     *                     timeouts: enough for many rendezvous rounds of 2 s even under heavy loss)
     * @param warmUpMs     longest the receive-path warm-up may take before the protocol starts;
     *                     default {@value #DEFAULT_WARM_UP_MS} ms, within 0..{@value #MAX_WARM_UP_MS}.
     *                     The warm-up runs synthetic frames of the loaded services through a
     *                     scratch copy of the receive path (decode, forwarding engine, a scratch
     *                     twin of the MessageStore, encode of the answers), so the first real
     *                     messages after join do not run cold code (class loading, call-site
     *                     linking, the interpreter). The scratch path is an adapter over an
     *                     interface that discards what it is sent, a forwarding engine over a fixed
     *                     topology (a parent the frames come from, a child it forwards to) and,
     *                     with a MessageStore, its scratch twin: the same configuration and loaded
     *                     specs, its own instances, counters, queues and shard threads (named
     *                     {@code statecast-ms-scratch-*}), fed one message per message event of
     *                     every loaded spec. It sends nothing, delivers nothing, counts nothing.
     *                     The time is checked between rounds; building and closing the scratch
     *                     path come on top. Only the first {@code join()} / {@code joinAsync()} of
     *                     a socket on its own (system) clock runs it; one built with injected
     *                     timers (simulations, tests) skips it
     * @param warmUpRounds rounds of the warm-up (each round: one frame per sample message,
     *                     payloads first, then control messages, and one send per own message;
     *                     rounds alternate between a node that forwards to a child and a leaf);
     *                     it stops earlier at {@code warmUpMs}. Default {@value #DEFAULT_WARM_UP_ROUNDS},
     *                     within 0..{@value #MAX_WARM_UP_ROUNDS}; 0 turns the warm-up off. Why 300:
     *                     like the MessageStore's {@code warmStartRounds}, it gets the path compiled
     *                     at tier 3 (C1) without handing many methods to C2 with a profile of
     *                     synthetic messages only. In {@code ttcp} join runs (h2h-ack, 500 msgs/s,
     *                     2 shared cores at load 3–10) the first data reached the receiving
     *                     application a median 6.6 ms after {@code join()} returned with the
     *                     warm-up and 31 ms without (5 runs each), and {@code join()} took
     *                     0.3–0.5 s longer; 2,000 rounds ran into {@code warmUpMs} under load and
     *                     were no faster than 300
     */
    public record Join(long timeoutMs, long warmUpMs, int warmUpRounds) {
        /** Default {@link #timeoutMs()}. */
        public static final long DEFAULT_TIMEOUT_MS = 30_000;
        /** Default {@link #warmUpMs()}. */
        public static final long DEFAULT_WARM_UP_MS = 1_000;
        /** Largest {@link #warmUpMs()}. */
        public static final long MAX_WARM_UP_MS = 60_000;
        /** Default {@link #warmUpRounds()}. */
        public static final int DEFAULT_WARM_UP_ROUNDS = 300;
        /** Most {@link #warmUpRounds()}. */
        public static final int MAX_WARM_UP_ROUNDS = 1_000_000;

        /** Joining with {@code timeoutMs} and the default warm-up. */
        public Join(long timeoutMs) {
            this(timeoutMs, DEFAULT_WARM_UP_MS, DEFAULT_WARM_UP_ROUNDS);
        }

        @JsonCreator
        static Join fromJson(@JsonProperty("timeoutMs") Long timeoutMs, @JsonProperty("warmUpMs") Long warmUpMs,
                @JsonProperty("warmUpRounds") Integer warmUpRounds) {
            return new Join(or(timeoutMs, DEFAULT_TIMEOUT_MS), or(warmUpMs, DEFAULT_WARM_UP_MS),
                    or(warmUpRounds, DEFAULT_WARM_UP_ROUNDS));
        }

        /** The documented defaults. */
        public static Join defaults() {
            return new Join(DEFAULT_TIMEOUT_MS);
        }

        /** This setting without the receive-path warm-up. */
        public Join withoutWarmUp() {
            return new Join(timeoutMs, warmUpMs, 0);
        }

        /** Whether a warm-up runs at all. */
        public boolean warmUpEnabled() {
            return warmUpRounds > 0 && warmUpMs > 0;
        }

        void validate(String p) throws OverlayConfigException {
            range(p + ".timeoutMs", timeoutMs, 1, 86_400_000);
            range(p + ".warmUpMs", warmUpMs, 0, MAX_WARM_UP_MS);
            range(p + ".warmUpRounds", warmUpRounds, 0, MAX_WARM_UP_ROUNDS);
        }
    }

    /**
     * The send window: TCP-like self-clocking at the source. A service whose spec declares its
     * in-flight states ({@code <InFlight>}, e.g. h2h-ack and e2e-ack) has its messages counted by
     * the MessageStore from the moment it accepts one from this node's application until the
     * instance leaves those states (acknowledged, reset, or ended); {@link OverlaySocket#send}
     * of a further message of that service waits while {@code window} of them are in flight (or
     * the store has no room for another instance), so a sender goes as fast as acknowledgements
     * come back instead of overrunning queues and setting off a retransmission storm. Services
     * without the declaration, and messages without a ServiceID, never wait.
     *
     * @param window    most own messages of one windowed service in flight; default 1024 (enough
     *                  to keep a loopback pair busy for tens of milliseconds, and well inside
     *                  the default data queue of 10,000 and instance limit of 50,000); 0 turns the
     *                  window off; 0..1,000,000
     * @param maxWaitMs longest one send waits for room; then it throws
     *                  {@link SendWindowException} (the message was not sent), naming service,
     *                  window and in-flight count; an interrupt ends the wait with the same
     *                  exception ({@code interrupted()} true, the thread's flag set again);
     *                  default 10,000 ms (twice the longest give-up timer of the shipped
     *                  services, 5 s: a send fails only when the service made no progress at all);
     *                  1..3,600,000
     * @param aimd      adapt the effective window within {@code window}, additive increase and
     *                  multiplicative decrease (TCP's congestion avoidance; the GRDP sliding
     *                  window of our source 000). It starts at {@code window} and halves on
     *                  congestion, not on isolated random loss: the signal is an own message in
     *                  flight reaching its service's timers a second time (h2h-ack's
     *                  {@code TimeoutACK} ran out again: the retransmission or the repeated
     *                  request went unanswered too), and the window halves once such signals
     *                  since the start of the current window's worth of completed messages exceed
     *                  a quarter of the window. Random loss p per datagram repeats a round trip
     *                  with probability about (2p)², 1 % at 5 % and 13 % at 20 %, while a path
     *                  over its capacity drops most of what exceeds it; halving on every first
     *                  timeout kept h2h-ack at 20 % loss at the floor. It halves only while at
     *                  least half the window is in flight: a source its application paces well
     *                  below the window does not congest the path, and halving on its random
     *                  losses throttled the demo's 500 msgs/s sender at 5 % loss to 86 msgs/s. It
     *                  halves at most once until the messages in flight at that moment have left
     *                  the in-flight states, so one burst of losses halves it once. It grows back
     *                  by BIC's binary search (Xu, Harfoush and Rhee, 2004), counted in messages
     *                  that leave the in-flight states: toward the window it had when it last
     *                  halved, each window's worth of them closes half the remaining distance;
     *                  from there it probes upward by 1 per window's worth, doubling the step each
     *                  time; every step is at least 1 per window's worth (congestion avoidance)
     *                  and at most 1 per message (slow start, the growth of source 000's sliding
     *                  window), and a halving before it is back lowers that point to midway (fast
     *                  convergence, so sources sharing a path give way to each other). Additive
     *                  increase alone needs about 470,000 messages to climb from 262 back to 1,024
     *                  after halvings that a stall of the receivers caused; this takes a few
     *                  windows. Never below {@link #MIN_AIMD_WINDOW} (or {@code window}, if
     *                  smaller) or above {@code window}; {@link OverlaySocket#sendWindowStatistics()}
     *                  reports the halvings and the current smallest window; default true
     */
    public record SendWindow(int window, long maxWaitMs, boolean aimd) {
        /** Default {@link #window()}. */
        public static final int DEFAULT_WINDOW = 1024;
        /** Default {@link #maxWaitMs()}. */
        public static final long DEFAULT_MAX_WAIT_MS = 10_000;
        /** Default {@link #aimd()}. */
        public static final boolean DEFAULT_AIMD = true;
        /**
         * The smallest effective window AIMD goes down to (or {@code window}, if smaller): below
         * a handful of messages in flight, one lost message holds the sender for a whole
         * retransmission timeout, and a few spurious timeouts (a GC pause, a starved thread)
         * would leave it there.
         */
        public static final int MIN_AIMD_WINDOW = 16;

        /** A fixed window (no AIMD). */
        public SendWindow(int window, long maxWaitMs) {
            this(window, maxWaitMs, false);
        }

        @JsonCreator
        static SendWindow fromJson(@JsonProperty("window") Integer window, @JsonProperty("maxWaitMs") Long maxWaitMs,
                                   @JsonProperty("aimd") Boolean aimd) {
            return new SendWindow(or(window, DEFAULT_WINDOW), or(maxWaitMs, DEFAULT_MAX_WAIT_MS), or(aimd, DEFAULT_AIMD));
        }

        /** The documented defaults. */
        public static SendWindow defaults() {
            return new SendWindow(DEFAULT_WINDOW, DEFAULT_MAX_WAIT_MS, DEFAULT_AIMD);
        }

        /** Whether sends wait at all ({@code window > 0}). */
        public boolean enabled() {
            return window > 0;
        }

        void validate(String p) throws OverlayConfigException {
            range(p + ".window", window, 0, 1_000_000);
            range(p + ".maxWaitMs", maxWaitMs, 1, 3_600_000);
        }
    }

    /**
     * Frame authentication ({@code docs/security.md}): with a key, every frame this node sends
     * carries a MAC trailer, and every frame it receives must carry a valid one under a key of
     * the file and must not be a replay — a node without the key cannot join, nor disturb the
     * overlay with forged frames.
     *
     * @param keyFile  the overlay key file ({@link OverlayKeys} documents the format); a relative
     *                 path is resolved against the directory of the configuration file (or the
     *                 working directory for a configuration given as text); default none. A file
     *                 that is missing, unreadable, larger than 4 KiB or malformed, or holds a key
     *                 shorter than 32 bytes, is an error naming {@code overlay.security.keyFile},
     *                 the file and the line
     * @param mode     {@code mac} (authenticate every frame), {@code aead} (authenticate and
     *                 encrypt every frame) or {@code none}; default {@code mac} when a key file
     *                 is given, else {@code none}; a key file with {@code none} is an error.
     *                 {@code mac}: HMAC-SHA256 truncated to 16 bytes, with a per-sender replay
     *                 window; {@code aead}: the same trailer, with the frame after its 7-byte
     *                 common header encrypted with AES-256-GCM (its tag in the MAC's place), so
     *                 payloads and addresses are confidential too. Every node of an overlay
     *                 needs the same mode: {@code mac} and {@code aead} nodes refuse each other's frames.
     * @param reloadMs how often the key file's modification time is checked; a changed file is
     *                 read again and its keys take effect at once (a file that no longer reads
     *                 keeps the old keys and logs why). Default {@value #DEFAULT_RELOAD_MS} ms,
     *                 within 0..3,600,000; 0 checks never ({@link OverlaySocket#reloadKeys()} still works)
     */
    public record Security(Path keyFile, Mode mode, long reloadMs) {
        /** Default {@link #reloadMs()}. */
        public static final long DEFAULT_RELOAD_MS = 5_000;

        /** What is done to frames. */
        public enum Mode {
            /** Frames are neither authenticated nor checked (the default without a key file). */
            NONE,
            /** Every frame carries an HMAC-SHA256 trailer with a replay counter (the default with a key file). */
            MAC,
            /**
             * As {@link #MAC}, and the frame after its common header is encrypted (AES-256-GCM,
             * its tag in the MAC's place): payloads and addresses are confidential too.
             */
            AEAD
        }

        /** Fills in the mode from the presence of a key file. */
        public Security {
            mode = mode != null ? mode : keyFile != null ? Mode.MAC : Mode.NONE;
        }

        @JsonCreator
        static Security fromJson(@JsonProperty("keyFile") String keyFile, @JsonProperty("mode") Mode mode,
                                 @JsonProperty("reloadMs") Long reloadMs) {
            return new Security(keyFile == null ? null : Path.of(keyFile), mode, or(reloadMs, DEFAULT_RELOAD_MS));
        }

        /** No authentication. */
        public static Security defaults() {
            return new Security(null, Mode.NONE, DEFAULT_RELOAD_MS);
        }

        /** Authentication with the keys of {@code keyFile}, other settings default. */
        public static Security mac(Path keyFile) {
            return new Security(keyFile, Mode.MAC, DEFAULT_RELOAD_MS);
        }

        /** This section with a relative key file resolved against {@code dir}. */
        Security resolvedAgainst(Path dir) {
            return keyFile == null || keyFile.isAbsolute() || dir == null ? this
                    : new Security(dir.resolve(keyFile), mode, reloadMs);
        }

        /**
         * Reads the key file.
         *
         * @throws OverlayConfigException naming {@code overlay.security.keyFile} and what is wrong
         */
        public OverlayKeys loadKeys() throws OverlayConfigException {
            String f = "overlay.security.keyFile";
            if (keyFile == null) {
                throw new OverlayConfigException(f, f + " is required for security.mode="
                        + mode.name().toLowerCase(Locale.ROOT));
            }
            try {
                return OverlayKeys.read(keyFile);
            } catch (KeyFileException e) {
                throw new OverlayConfigException(f, f + ": " + e.getMessage(), e);
            }
        }

        void validate(String p) throws OverlayConfigException {
            range(p + ".reloadMs", reloadMs, 0, 3_600_000);
            if (mode == Mode.NONE && keyFile != null) {
                throw new OverlayConfigException(p + ".mode", p + ".mode=none but " + p
                        + ".keyFile is set; remove the key file or use mode mac");
            }
            if (mode != Mode.NONE) {
                loadKeys();
            }
        }
    }

    /**
     * How the socket's meters ({@code docs/metrics.md}) are exported. JMX MBeans (domain
     * {@code statecast}) are always registered; Prometheus text is served only when {@link #http()}
     * is set.
     *
     * <table>
     *   <caption>{@code overlay.metrics}</caption>
     *   <tr><th>field</th><th>default</th><th>meaning</th></tr>
     *   <tr><td>{@code http}</td><td>absent (off)</td><td>{@code HOST:PORT} to serve {@code GET /metrics}
     *       at (Prometheus text format 0.0.4); {@code [v6addr]:PORT} for IPv6; port 0 picks a free
     *       one. Bind a loopback address (e.g. {@code 127.0.0.1:9464}) unless the metrics may be
     *       read from elsewhere: the endpoint has no authentication.</td></tr>
     * </table>
     *
     * @param http {@code HOST:PORT} of the metrics endpoint, or {@code null} for none; at most 300
     *             characters. {@code OverlaySocket.metrics().httpAddress()} tells which port 0
     *             picked. A malformed value is refused naming {@code overlay.metrics.http}; an
     *             address that cannot be bound stops the socket from starting
     */
    public record Metrics(String http) {
        /** Longest {@link #http()} value accepted. */
        public static final int MAX_HTTP_LENGTH = 300;

        @JsonCreator
        static Metrics fromJson(@JsonProperty("http") String http) {
            return new Metrics(http);
        }

        /** The documented defaults: no HTTP endpoint. */
        public static Metrics defaults() {
            return new Metrics(null);
        }

        /** Serves {@code /metrics} at {@code hostPort} ({@code HOST:PORT}). */
        public static Metrics http(String hostPort) {
            return new Metrics(hostPort);
        }

        /**
         * The endpoint's address, unresolved, or {@code null} when off.
         *
         * @throws IllegalArgumentException if {@link #http()} is not {@code HOST:PORT}
         */
        public InetSocketAddress httpAddress() {
            if (http == null) {
                return null;
            }
            String v = http.trim();
            int colon = v.lastIndexOf(':');
            if (colon <= 0 || colon == v.length() - 1) {
                throw new IllegalArgumentException("expected HOST:PORT");
            }
            String host = v.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            } else if (host.indexOf(':') >= 0) {
                throw new IllegalArgumentException("an IPv6 host must be in brackets: [ADDRESS]:PORT");
            }
            if (host.isEmpty() || host.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
                throw new IllegalArgumentException("the host is empty or has spaces");
            }
            String portText = v.substring(colon + 1);
            if (portText.length() > 5 || !portText.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("the port '" + printable(portText) + "' is not a number");
            }
            int port = Integer.parseInt(portText);
            if (port > 65_535) {
                throw new IllegalArgumentException("the port " + port + " is not in 0..65535");
            }
            return InetSocketAddress.createUnresolved(host, port);
        }

        void validate(String p) throws OverlayConfigException {
            if (http == null) {
                return;
            }
            String f = p + ".http";
            if (http.length() > MAX_HTTP_LENGTH) {
                throw new OverlayConfigException(f, f + " has " + http.length() + " characters; at most " + MAX_HTTP_LENGTH);
            }
            try {
                httpAddress();
            } catch (IllegalArgumentException e) {
                throw new OverlayConfigException(f, f + "='" + printable(http) + "': " + e.getMessage()
                        + " (expected HOST:PORT, e.g. 127.0.0.1:9464)");
            }
        }
    }

    private static <T> T or(T value, T fallback) {
        return Objects.requireNonNullElse(value, fallback);
    }
}
