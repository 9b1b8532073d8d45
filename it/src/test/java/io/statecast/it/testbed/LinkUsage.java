package io.statecast.it.testbed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * What one link's shaper passed: the byte and packet counters of a {@code tbf} qdisc, as
 * {@code tc -s -j qdisc show} reports them. tbf charges a packet's whole length with its Ethernet,
 * IP and UDP headers against the link rate, so these bytes, not the payload, are what fills a link.
 *
 * @param bytes   bytes passed, or -1 if unknown
 * @param packets packets passed, or -1 if unknown
 */
record LinkUsage(long bytes, long packets) {

    /** Counters that could not be read. */
    static final LinkUsage UNKNOWN = new LinkUsage(-1, -1);

    private static final ObjectMapper JSON = new ObjectMapper();

    boolean known() {
        return bytes >= 0 && packets >= 0;
    }

    /** What passed between {@code earlier} and this reading ({@link #UNKNOWN} if either is unknown or they went backwards). */
    LinkUsage since(LinkUsage earlier) {
        if (!known() || !earlier.known() || bytes < earlier.bytes || packets < earlier.packets) {
            return UNKNOWN;
        }
        return new LinkUsage(bytes - earlier.bytes, packets - earlier.packets);
    }

    /**
     * The tbf counters in the output of {@code tc -s -j qdisc show dev DEV}.
     *
     * @throws IOException if it is not JSON or holds no tbf qdisc with counters
     */
    static LinkUsage parseTc(String json) throws IOException {
        JsonNode root = JSON.readTree(json);
        if (root != null && root.isArray()) {
            for (JsonNode q : root) {
                if ("tbf".equals(q.path("kind").asText()) && q.path("bytes").canConvertToLong() && q.path("packets").canConvertToLong()) {
                    return new LinkUsage(q.path("bytes").asLong(), q.path("packets").asLong());
                }
            }
        }
        throw new IOException("no tbf qdisc with byte and packet counters in: "
                + (json.length() > 200 ? json.substring(0, 200) + "…" : json));
    }
}
