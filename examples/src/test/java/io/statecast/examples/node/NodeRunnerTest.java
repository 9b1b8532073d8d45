package io.statecast.examples.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The node in this JVM: exit statuses and the control loop end to end (processes are the it module's). */
class NodeRunnerTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String config, String input, boolean control) throws Exception {
        Path file = dir.resolve("node.yaml");
        Files.writeString(file, config);
        NodeRunner r = new NodeRunner(new NodeRunner.Options(file, null, control),
                new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out,
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return r.run();
    }

    @Test
    void shouldReturnTwoNamingTheFieldOfABadConfiguration() throws Exception {
        assertEquals(NodeRunner.EXIT_CONFIG, run("overlay: {id: x, node: TREE, join: {timeoutMs: 0}}", "", true));

        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("statecast node: overlay.join.timeoutMs"), err::toString);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void inputLossShouldOpenLossyUdpInterfacesAndRefuseOthers() throws Exception {
        Path file = dir.resolve("lossy.yaml");
        Files.writeString(file, "overlay: {id: x, node: TREE, address: 9, interfaces: ['udp://127.0.0.1:0']}");
        int status = new NodeRunner(new NodeRunner.Options(file, null, true, 0.3, 7),
                new ByteArrayInputStream("ping lossy\n".getBytes(StandardCharsets.UTF_8)), out,
                new PrintStream(err, true, StandardCharsets.UTF_8)).run();
        assertEquals(NodeRunner.EXIT_OK, status, err::toString);
        assertTrue(out.toString(StandardCharsets.UTF_8).lines().anyMatch("PONG lossy"::equals), out::toString);

        Files.writeString(file, "overlay: {id: x, node: TREE, address: 9, interfaces: ['tcp://127.0.0.1:0']}");
        status = new NodeRunner(new NodeRunner.Options(file, null, true, 0.3, 7), new ByteArrayInputStream(new byte[0]), out,
                new PrintStream(err, true, StandardCharsets.UTF_8)).run();
        assertEquals(NodeRunner.EXIT_FAILURE, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--input-loss needs UDP interfaces"), err::toString);

        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new NodeRunner.Options(file, null, true, 0.9, 7));
        assertTrue(e.getMessage().contains("0..0.5"), e.getMessage());
    }

    @Test
    void shouldAnswerCommandsThenStopAtTheEndOfItsInput() throws Exception {
        int status = run("overlay: {id: x, node: TREE, address: 9, interfaces: ['udp://127.0.0.1:0']}",
                "ping one\nsend-all 2 32\nnonsense\n", true);

        assertEquals(NodeRunner.EXIT_OK, status);
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(lines.get(0).matches("READY 9 udp://127\\.0\\.0\\.1:\\d+"), lines::toString);
        assertTrue(lines.contains("PONG one"), lines::toString);
        assertTrue(lines.contains("SENT MULTICAST 2 0 1 0"), lines::toString);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("ERR unknown command 'nonsense'")), lines::toString);
        assertEquals("BYE eof", lines.get(lines.size() - 1));
    }

    @Test
    void statsShouldCarryTheMessageStoreMetricsWhenAStoreIsConfigured() throws Exception {
        Path spec = Path.of("../messagestore/runtime/src/test/resources/specs/blueprint-h2h.scxml").toAbsolutePath().normalize();
        int status = run("overlay: {id: x, node: TREE, address: 9, interfaces: ['udp://127.0.0.1:0'],"
                + " messageStore: {shards: 1, services: ['" + spec.toUri() + "']}}", "stats\n", true);

        assertEquals(NodeRunner.EXIT_OK, status, err::toString);
        String stats = out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("STATS ")).findFirst()
                .orElseThrow(() -> new AssertionError(out.toString(StandardCharsets.UTF_8)));
        com.fasterxml.jackson.databind.JsonNode store = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(stats.substring("STATS ".length())).get("messageStore");
        assertTrue(store != null && store.has("dataBacklog"), stats);
        assertEquals(1, store.get("services").get(0).get("serviceId").asInt(), stats);
    }

    @Test
    void statsShouldShowFramesTheCodecRefused() throws Exception {
        Path file = dir.resolve("node.yaml");
        Files.writeString(file, "overlay: {id: x, node: TREE, address: 9, interfaces: ['udp://127.0.0.1:0']}");
        java.io.PipedOutputStream commands = new java.io.PipedOutputStream();
        java.io.PipedInputStream input = new java.io.PipedInputStream(commands);
        NodeRunner r = new NodeRunner(new NodeRunner.Options(file, null, true), input, out,
                new PrintStream(err, true, StandardCharsets.UTF_8));
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            java.util.concurrent.Future<Integer> status = pool.submit(r::run);
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
            String ready;
            while ((ready = out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("READY "))
                    .findFirst().orElse(null)) == null) {
                assertTrue(System.nanoTime() < deadline, "no READY line: " + err);
                java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
            }
            int port = Integer.parseInt(ready.substring(ready.lastIndexOf(':') + 1));
            byte[] junk = "not a statecast frame".getBytes(StandardCharsets.US_ASCII);
            int sent = 3;
            try (java.net.DatagramSocket udp = new java.net.DatagramSocket()) {
                for (int i = 0; i < sent; i++) {
                    udp.send(new java.net.DatagramPacket(junk, junk.length, java.net.InetAddress.getLoopbackAddress(), port));
                }
            }
            // the datagrams are counted on the node's I/O thread: ask until they show (bounded)
            com.fasterxml.jackson.databind.JsonNode drops = null;
            long total = 0;
            int asked = 0;
            while (total < sent) {
                assertTrue(System.nanoTime() < deadline, "decode drops never reached " + sent + ": " + drops);
                commands.write("stats\n".getBytes(StandardCharsets.UTF_8));
                commands.flush();
                asked++;
                int want = asked;
                while (out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("STATS ")).count() < want) {
                    assertTrue(System.nanoTime() < deadline, "no STATS line: " + out);
                    java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
                }
                List<String> all = out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("STATS ")).toList();
                drops = new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(all.get(all.size() - 1).substring("STATS ".length())).get("adapter");
                total = 0;
                for (var e : (Iterable<java.util.Map.Entry<String, com.fasterxml.jackson.databind.JsonNode>>) drops::fields) {
                    total += e.getKey().startsWith("rx.dropped.") ? e.getValue().asLong() : 0;
                }
            }
            assertTrue(drops.has("rx.dropped.bad_magic") && drops.has("rx.dropped.foreign_overlay")
                    && drops.has("rx.dropped.codec_failure"),
                    "every cause is listed, zero or not: " + drops);
            commands.close();
            assertEquals(NodeRunner.EXIT_OK, status.get(20, java.util.concurrent.TimeUnit.SECONDS), err::toString);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void tokensShouldBeWhatTheConfigurationParses() {
        assertEquals("17", NodeRunner.token(new io.statecast.overlay.address.TreeAddress(17)));
        assertEquals("3,-4", NodeRunner.token(new io.statecast.overlay.address.DtAddress(3, -4)));
    }
}
