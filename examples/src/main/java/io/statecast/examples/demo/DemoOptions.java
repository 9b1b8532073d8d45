package io.statecast.examples.demo;

import io.statecast.examples.ttcp.TtcpPayload;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What the demo runs. Every field has a default in {@link DemoCommand}; this record checks ranges
 * and names the option on failure.
 *
 * @param nodes    overlay nodes, 2..32 (default 6); node 1 sends, every other one receives
 * @param messages data messages, 1..1,000,000 (default 10,000)
 * @param size     payload bytes, {@link TtcpPayload#MIN_DATA_SIZE}..60,000 (default 1,024)
 * @param loss     probability that a node's input drops a frame, 0..0.5 (default 0.05)
 * @param service  {@code h2h-ack} (default): a service name, a {@code .scxml} path, a URI, or
 *                 {@code none} for best-effort delivery
 * @param rate     send rate in messages per second, &gt; 0 (default 500)
 * @param seed     seeds loss and addresses
 * @param idleMs   a receiver that has heard no data this long gives up on the rest, 100..3,600,000
 *                 (default 20,000: longer than any repair of the services shipped)
 * @param json     where the JSON report goes
 * @param charts   the directory the charts go to
 */
public record DemoOptions(int nodes, int messages, int size, double loss, String service, double rate, long seed,
        long idleMs, Path json, Path charts) {

    /** Most nodes: one JVM runs them all. */
    public static final int MAX_NODES = 32;
    /** Most messages. */
    public static final int MAX_MESSAGES = 1_000_000;

    /** Checks ranges, naming the option. */
    public DemoOptions {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(charts, "charts");
        if (nodes < 2 || nodes > MAX_NODES) {
            throw new IllegalArgumentException("--nodes=" + nodes + " must be within 2.." + MAX_NODES);
        }
        if (messages < 1 || messages > MAX_MESSAGES) {
            throw new IllegalArgumentException("--messages=" + messages + " must be within 1.." + MAX_MESSAGES);
        }
        if (size < TtcpPayload.MIN_DATA_SIZE || size > TtcpPayload.MAX_DATA_SIZE) {
            throw new IllegalArgumentException("--size=" + size + " must be within " + TtcpPayload.MIN_DATA_SIZE + ".."
                    + TtcpPayload.MAX_DATA_SIZE);
        }
        if (!(loss >= 0 && loss <= 0.5)) {
            throw new IllegalArgumentException("--loss=" + loss + " must be within 0..0.5");
        }
        if (idleMs < 100 || idleMs > 3_600_000) {
            throw new IllegalArgumentException("--idle=" + idleMs / 1000.0 + " s must be within 0.1..3600 seconds");
        }
        if (!(rate > 0 && rate <= 1_000_000)) {
            throw new IllegalArgumentException("--rate=" + rate + " must be within (0, 1000000] messages per second");
        }
    }
}
