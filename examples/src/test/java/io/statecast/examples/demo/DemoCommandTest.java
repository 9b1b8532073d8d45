package io.statecast.examples.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.statecast.examples.cli.StatecastCommand;
import io.statecast.examples.ttcp.TtcpFormatException;
import io.statecast.examples.ttcp.TtcpPayload;
import io.statecast.examples.ttcp.TtcpReport;
import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code statecast demo} end to end on UDP loopback, small: four nodes, a few hundred messages,
 * an embedded spec server, loss at every input.
 */
class DemoCommandTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime() & Long.MAX_VALUE);
    private static final String DELIVER_ONLY = "classpath:io/statecast/examples/demo/deliver-only.scxml";

    @TempDir
    Path dir;

    private record Run(int status, String out, String err, JsonNode report) {
        String context() {
            return "seed " + SEED + " (rerun with -Dstatecast.seed=" + SEED + ")\n" + out + "\n" + err;
        }
    }

    private Run demo(String... extra) throws Exception {
        Path json = dir.resolve("report.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = StatecastCommand.newCommandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> args = new java.util.ArrayList<>(List.of("demo", "--nodes", "4", "--messages", "300", "--rate", "300",
                "--seed", String.valueOf(SEED), "--json", json.toString(), "--charts", dir.resolve("charts").toString()));
        args.addAll(List.of(extra));
        int status = cl.execute(args.toArray(String[]::new));
        JsonNode report = Files.exists(json) ? TtcpReport.JSON.readTree(json.toFile()) : null;
        return new Run(status, out.toString(), err.toString(), report);
    }

    @Test
    void onlyTheDemoWithoutVerboseAsksForQuietLogs() {
        assertTrue(DemoCommand.wantsQuietLogs(new String[] {"demo", "--rate", "9"}));
        assertFalse(DemoCommand.wantsQuietLogs(new String[] {"demo", "--verbose"}));
        assertFalse(DemoCommand.wantsQuietLogs(new String[] {"node", "--config", "x"}));
        assertFalse(DemoCommand.wantsQuietLogs(new String[0]));
    }

    @Test
    void theDefaultServiceRunShouldReportEveryNodeAndDrawTheCharts() throws Exception {
        Run run = demo("--loss", "0.05", "--idle", "10");
        String ctx = run.context();
        JsonNode r = run.report();
        assertNotNull(r, ctx);

        assertEquals("h2h-ack", r.get("service").asText(), ctx);
        assertEquals(300, r.get("messages").asInt(), ctx);
        assertEquals(0.05, r.get("lossRate").asDouble(), 1e-9, ctx);
        assertTrue(r.get("elapsedMs").asLong() > 0, ctx);
        assertTrue(r.get("promisesEveryMessage").asBoolean(), ctx);
        JsonNode nodes = r.get("nodes");
        assertEquals(4, nodes.size(), ctx);
        long missing = 0;
        for (JsonNode n : nodes) {
            for (String k : List.of("address", "received", "duplicates", "missing", "delayMsP50", "delayMsP99", "throughputMbps",
                    "liveInstances")) {
                assertTrue(n.has(k), "node " + n.get("node") + " lacks " + k + "\n" + ctx);
            }
            assertTrue(n.get("address").asText().matches("\\(\\d+,\\d+\\)"), n.get("address") + "\n" + ctx);
            // every node ended with the service: node 1 loaded it, the others downloaded it from the spec server
            assertEquals("loaded", n.get("service").asText(), "node " + n.get("node") + "\n" + ctx);
            assertTrue(n.get("liveInstances").asLong() >= 0, ctx);
            // 5 % of well over a thousand frames: a node that lost none would mean the loss was not injected
            assertTrue(n.get("inputLoss").get("dropped").asLong() > 0, "node " + n.get("node") + " lost nothing\n" + ctx);
            if (n.get("node").asInt() == 1) {
                assertEquals("sender", n.get("role").asText());
                assertEquals(300, n.get("sent").asInt(), ctx);
                continue;
            }
            int received = n.get("received").asInt();
            assertEquals(300, received + n.get("missing").asInt(), ctx);
            assertTrue(received > 0, ctx);
            assertTrue(n.get("duplicates").asLong() >= 0, ctx);
            assertEquals(0, n.get("corrupt").asInt(), ctx);
            assertTrue(n.get("delayMsP50").asDouble() >= 0, ctx);
            assertTrue(n.get("delayMsP50").asDouble() <= n.get("delayMsP99").asDouble(), ctx);
            assertTrue(n.get("throughputMbps").asDouble() > 0, ctx);
            missing += n.get("missing").asInt();
        }
        assertEquals(missing, r.get("totals").get("missing").asLong(), ctx);
        // h2h-ack promises every message: the status says whether it kept the promise
        assertEquals(missing == 0 ? 0 : Demo.EXIT_FAILED, run.status(), ctx);
        assertEquals(run.status(), r.get("exitCode").asInt(), ctx);

        for (String chart : List.of(DemoCharts.SEQUENCE, DemoCharts.DELAY, DemoCharts.THROUGHPUT)) {
            Path png = dir.resolve("charts").resolve(chart);
            assertTrue(Files.isRegularFile(png), chart + " missing\n" + ctx);
            byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(png), 8);
            assertTrue(java.util.Arrays.equals(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, head),
                    chart + " lacks the PNG signature");
            BufferedImage img = ImageIO.read(png.toFile());
            assertNotNull(img, chart + " does not decode");
            assertTrue(img.getWidth() >= 800 && img.getHeight() >= 400, chart);
        }
        assertTrue(Files.isRegularFile(dir.resolve("node-2.json")), "every node's ttcp report is kept");
        assertTrue(run.out().contains("delay p50"), "the table is printed\n" + ctx);
        assertTrue(run.out().contains(dir.resolve("report.json").toAbsolutePath().toString()), ctx);
    }

    @Test
    void aServiceThatLosesMessagesItPromisesShouldFailTheRun() throws Exception {
        Run run = demo("--service", DELIVER_ONLY, "--loss", "0.2", "--idle", "2");
        String ctx = run.context();
        assertNotNull(run.report(), ctx);
        // three receivers, 300 messages, a fifth of every node's input dropped and nothing repaired
        assertTrue(run.report().get("totals").get("missing").asLong() > 0, ctx);
        assertEquals(Demo.EXIT_FAILED, run.status(), ctx);
        assertEquals(77, run.report().get("serviceId").asInt(), ctx);
        assertTrue(run.out().contains("FAILED"), ctx);
    }

    @Test
    void bestEffortPromisesNothingSoMissingMessagesDoNotFailTheRun() throws Exception {
        Run run = demo("--service", "none", "--loss", "0.2", "--idle", "2");
        String ctx = run.context();
        assertNotNull(run.report(), ctx);
        assertTrue(run.report().get("totals").get("missing").asLong() > 0, ctx);
        assertFalse(run.report().get("promisesEveryMessage").asBoolean(), ctx);
        assertEquals(0, run.status(), ctx);
        for (JsonNode n : run.report().get("nodes")) {
            assertTrue(n.get("liveInstances").isNull(), "no MessageStore, no instances: " + n);
        }
    }

    @Test
    void badArgumentsShouldBeRefusedNamingThem() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = StatecastCommand.newCommandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        assertEquals(2, cl.execute("demo", "--nodes", "1"));
        assertTrue(err.toString().contains("--nodes=1 must be within 2..32"), err.toString());
        assertEquals(2, cl.execute("demo", "--loss", "0.9"));
        assertTrue(err.toString().contains("--loss=0.9 must be within 0..0.5"), err.toString());
        assertEquals(Demo.EXIT_FAILED, cl.execute("demo", "--service", "no-such-service", "--json",
                dir.resolve("x.json").toString()));
        assertTrue(err.toString().contains("classpath:services/no-such-service.scxml"), err.toString());
    }

    @Test
    void everyServiceProbeShouldDecodeAsAWarmUpMessageThatIsNotTheLast() throws TtcpFormatException {
        // the distribution sends a probe a second until every node has the service: the second
        // one, seq 1 of a count of 1, was refused by receivers as corrupt and failed the demo
        for (int seq : new int[] {0, 1, 2, 59, 1_000_000}) {
            TtcpPayload.Message m = TtcpPayload.decode(Demo.serviceProbe(seq, 1_024));
            TtcpPayload.Data w = (TtcpPayload.Data) m;
            assertTrue(w.warmup(), "probe " + seq);
            assertEquals(seq, w.seq());
            assertFalse(w.last(), "probe " + seq);
        }
    }
}
