package io.statecast.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fec-multicast service (ServiceID 13, {@code classpath:services/fec-multicast.scxml}) between
 * seven node processes of a Delaunay overlay (so receivers have neighbours besides the source, for
 * lateral repairs) over UDP on loopback, each dropping 2 % of the frames it receives
 * ({@code node --input-loss}): one source multicasts K checked payloads and each of the six
 * receivers' applications gets every one exactly once and intact, in whatever order lateral
 * repairs, rebuilt copies and NAK repairs bring them (the service promises no order).
 */
class FecMulticastAcrossProcessesTest {

    static final int SERVICE = 13;
    static final int NODES = 7;
    static final int K = 300;
    static final int SIZE = 512;
    static final String LOSS = "0.02";
    static final Duration START = Duration.ofSeconds(90);
    static final Duration FORM = Duration.ofSeconds(60);
    static final Duration DELIVER = Duration.ofSeconds(60);
    static final Duration REPLY = Duration.ofSeconds(20);

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    /**
     * The application sends all K at once, so the source keeps them all (Buffer 512 in a history
     * of 1,024) and the primitive budget takes the burst, as for nak-multicast's test; receivers
     * hold up to RecvWindow 512 numbers above a gap. Seven JVMs on a shared machine take seconds
     * to work through the burst: the source keeps each message 10 s (Hold) rather than 1 s, since a
     * receiver whose first message it has not yet processed has sent no digest and would find
     * the start of the burst gone, and receivers NAK after 100 ms rather than 20 ms (NakDelay;
     * RepairHold 50 ms), so that messages still queued behind a busy receiver are not asked for.
     */
    static final String STORE = """
            instances: { historyEntries: 1024, primitiveBurst: 4000, primitiveRatePerSecond: 100000 }
            services:
              - { uri: "classpath:services/fec-multicast.scxml",
                  parameters: { Buffer: 512, RecvWindow: 512, Hold: 10000, NakDelay: 100, RepairHold: 50 } }
            """;

    @TempDir
    Path dir;

    private NodeCluster cluster;

    @AfterEach
    void stopAll() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyReceiverShouldGetEveryMessageExactlyOnceDespiteLoss() {
        String context = "seed " + SEED;
        cluster = new NodeCluster(dir);
        Random random = new Random(SEED);
        List<String> addresses = OverlayAddresses.distinct("DT", NODES, random);
        List<NodeProcess> nodes = new ArrayList<>();
        NodeProcess source = start("n0", NodeConfig.of("it-fec", "DT", "udp", addresses.get(0)), random.nextLong());
        nodes.add(source);
        String buddy = source.awaitReady(START).substrate("udp");
        for (int i = 1; i < NODES; i++) {
            nodes.add(start("n" + i, NodeConfig.of("it-fec", "DT", "udp", addresses.get(i)).withBuddies(List.of(buddy)),
                    random.nextLong()));
        }
        for (NodeProcess p : nodes) {
            p.awaitPrefix(0, "JOINED", START);
        }
        cluster.awaitOverlay(nodes, FORM, () -> context);

        int mark = source.lineCount();
        source.send("send-all " + K + " " + SIZE + " " + SERVICE);
        String sent = source.awaitLine(mark, l -> NodeProcess.hasPrefix(l, "SENT") || NodeProcess.hasPrefix(l, "ERR"), REPLY, "SENT");
        assertTrue(sent.startsWith("SENT MULTICAST " + K + " 0 " + (K - 1)), () -> context + ": " + sent);
        List<NodeProcess> receivers = nodes.subList(1, NODES);
        try {
            Await.until(() -> receivers.stream().allMatch(p -> recv(p).size() >= K), DELIVER, () -> context);
        } catch (AssertionError e) {
            StringBuilder b = new StringBuilder(context).append(": not every message arrived");
            String sourceStats = source.request("stats", "STATS", REPLY);
            int at = Math.max(0, sourceStats.indexOf("\"messageStore\""));
            b.append("\nsource ").append(sourceStats, at, Math.min(sourceStats.length(), at + 1500));
            for (NodeProcess p : receivers) {
                List<String> got = recv(p);
                List<Long> missing = LongStream.range(0, K).filter(seq -> got.stream().noneMatch(l -> l.endsWith(" " + seq + " ok")))
                        .boxed().toList();
                b.append("\n").append(p.name()).append(": ").append(got.size()).append(" RECV, missing ").append(missing);
                if (!missing.isEmpty()) {
                    String stats = p.request("stats", "STATS", REPLY);
                    b.append("\n  ").append(stats, 0, Math.min(stats.length(), 6000));
                }
            }
            throw new AssertionError(b + "\n" + cluster.describe(), e);
        }
        List<String> expected = LongStream.range(0, K)
                .mapToObj(seq -> "RECV " + source.address() + " MULTICAST " + SIZE + " " + seq + " ok").sorted().toList();
        for (NodeProcess p : receivers) {
            p.request("ping done", "PONG", REPLY);
            assertEquals(expected, recv(p).stream().sorted().toList(), () -> context + ": " + p.name()
                    + " gets each of the source's messages exactly once, intact\n" + p.describe());
            assertTrue(p.matching(l -> l.startsWith("LOST-LINES")).isEmpty(), () -> context + ": " + p.describe());
        }
        // lateral repairs went between the receivers' processes (each receiver's store counts its data sends)
        long lateral = 0;
        for (NodeProcess p : receivers) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"SEND_DATA_MESSAGE\":(\\d+)")
                    .matcher(p.request("stats", "STATS", REPLY));
            lateral += m.find() ? Long.parseLong(m.group(1)) : 0;
        }
        assertTrue(lateral > 0, context + ": the receivers sent lateral repairs");
    }

    private static List<String> recv(NodeProcess p) {
        return p.matching(l -> l.startsWith("RECV "));
    }

    private NodeProcess start(String name, NodeConfig node, long lossSeed) {
        Path file = cluster.write(name + ".yaml", node.yaml() + "  messageStore:\n" + STORE.indent(4));
        return cluster.startRaw(name, List.of("node", "--config", file.toString(), "--control", "stdin",
                "--input-loss", LOSS, "--loss-seed", String.valueOf(lossSeed)));
    }
}
