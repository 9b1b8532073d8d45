package io.statecast.it;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The overlay configuration of one test node, written as YAML for {@code statecast node}. Timers
 * are short so overlays form in a second or two, except the neighbour timeout, which is long so
 * that a node starved of CPU while eight JVMs start on two cores is not dropped.
 *
 * @param overlayId   overlay ID
 * @param nodeType    {@code TREE} or {@code DT}
 * @param scheme      {@code udp} or {@code tcp}: the one interface, on 127.0.0.1, port 0
 * @param address     the logical address ({@code RANDOM}, an id, or {@code x,y})
 * @param buddies     substrate addresses of buddies
 * @param timeoutMs   neighbour timeout
 */
record NodeConfig(String overlayId, String nodeType, String scheme, String address, List<String> buddies, int timeoutMs) {

    /** Neighbour timeout unless a test says otherwise. */
    static final int DEFAULT_TIMEOUT_MS = 15_000;

    NodeConfig {
        buddies = List.copyOf(buddies);
    }

    /** A founder (no buddies) with the default timeout. */
    static NodeConfig of(String overlayId, String nodeType, String scheme, String address) {
        return new NodeConfig(overlayId, nodeType, scheme, address, List.of(), DEFAULT_TIMEOUT_MS);
    }

    NodeConfig withBuddies(List<String> list) {
        return new NodeConfig(overlayId, nodeType, scheme, address, list, timeoutMs);
    }

    NodeConfig withTimeoutMs(int ms) {
        return new NodeConfig(overlayId, nodeType, scheme, address, buddies, ms);
    }

    String yaml() {
        return "overlay:\n"
                + "  id: " + quote(overlayId) + "\n"
                + "  node: " + nodeType + "\n"
                + "  address: " + quote(address) + "\n"
                + "  interfaces: [ " + quote(scheme + "://127.0.0.1:0") + " ]\n"
                + "  buddies: [ " + buddies.stream().map(NodeConfig::quote).collect(Collectors.joining(", ")) + " ]\n"
                + "  heartbeat: { fastMs: 100, slowMs: 250, timeoutMs: " + timeoutMs + ", stableAfter: 4 }\n"
                + "  rendezvous: { iAmHereMs: 250 }\n"
                + "  join: { timeoutMs: 60000 }\n";
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}
