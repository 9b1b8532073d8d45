package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.statecast.overlay.socket.OverlayConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * ttcp end to end over UDP loopback, in one process: a receiver through the API, the sender
 * through the command line with a configuration file, both writing JSON.
 */
class TtcpLoopbackTest {

    private static final int COUNT = 2_000;

    @TempDir
    Path dir;

    private static String config(String address, String buddy) {
        return "overlay:\n"
                + "  id: ttcp-loopback-test\n"
                + "  node: TREE\n"
                + "  address: \"" + address + "\"\n"
                + "  interfaces: [ \"udp://127.0.0.1:0\" ]\n"
                + (buddy == null ? "" : "  buddies: [ \"" + buddy + "\" ]\n")
                + "  heartbeat: { fastMs: 50, slowMs: 50, timeoutMs: 2000 }\n"
                + "  buffers: { receiveQueueMessages: 65536 }\n";
    }

    /** Runs {@code args} ("ttcp", "send", ...) as the launcher would, from its ttcp subcommand. */
    private static int run(StringWriter out, StringWriter err, String... args) {
        assertEquals("ttcp", args[0]);
        CommandLine cl = new CommandLine(new TtcpCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(Arrays.copyOfRange(args, 1, args.length));
    }

    @Test
    void senderAndReceiverShouldAgreeAndReportEveryMetric() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        StringWriter recvOut = new StringWriter();
        try {
            TtcpSockets.Opened receiver = TtcpSockets.open(OverlayConfig.parse(config("2", null)));
            String receiverAddress = receiver.socket().substrateAddresses().get(0).toString();
            Future<TtcpReceiver.Result> received = pool.submit(() -> {
                try (var s = receiver.socket()) {
                    return new TtcpReceiver(s, new TtcpReceiver.Options(0, 5_000, 60_000, 20_000, 100, 50), receiver.probe(),
                            new PrintWriter(recvOut, true)).run();
                }
            });
            Path senderConfig = dir.resolve("sender.yaml");
            Files.writeString(senderConfig, config("1", receiverAddress));
            Path senderJson = dir.resolve("send.json");
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();

            int status = run(out, err, "ttcp", "send", "--config", senderConfig.toString(), "--count", String.valueOf(COUNT),
                    "--size", "1024", "--rate", "4000", "--warmup-messages", "200", "--warmup-wait", "20", "--warmup-ms", "100", "--linger", "20",
                    "--wait-timeout", "30",
                    "--json", senderJson.toString());

            TtcpReceiver.Result r = received.get(60, TimeUnit.SECONDS);
            Path recvJson = dir.resolve("recv.json");
            TtcpReport.write(r.report(), recvJson);
            String context = out + "\n" + err + "\n" + recvOut;
            JsonNode send = TtcpReport.JSON.readTree(senderJson.toFile());
            JsonNode recv = TtcpReport.JSON.readTree(recvJson.toFile());

            JsonNode ss = send.get("summary");
            assertEquals(COUNT, ss.get("sent").asInt(), context);
            assertEquals(0, ss.get("missing").asInt(), context);
            for (String k : List.of("duplicates", "messagesPerSecond", "throughputMbps", "delayMsP50", "delayMsP99")) {
                assertTrue(ss.has(k), "sender summary lacks " + k);
            }
            assertTrue(ss.get("messagesPerSecond").asDouble() > 0, context);
            assertEquals(COUNT, send.get("messages").get("sentMicros").size());

            JsonNode rs = recv.get("summary");
            int got = rs.get("received").asInt();
            int missing = rs.get("missing").asInt();
            assertEquals(COUNT, got + missing, context);
            assertTrue(got > 0, context);
            assertEquals(0, rs.get("duplicates").asInt(), context);
            assertEquals(0, rs.get("corrupt").asInt(), context);
            assertEquals(missing == 0 ? 0 : 1, r.exitCode(), context);
            assertEquals(missing == 0 ? 0 : 1, status, context);
            for (String k : List.of("messagesPerSecond", "throughputMbps", "delayMsP50", "delayMsP99", "delaySlopeMsPerS")) {
                assertTrue(rs.get(k).isNumber(), "receiver summary " + k + " = " + rs.get(k));
            }
            assertTrue(rs.get("delayMsP50").asDouble() >= 0, context);
            assertTrue(rs.get("delayMsP50").asDouble() <= rs.get("delayMsP99").asDouble(), context);
            for (String k : List.of("canaryMicrosInRun", "canaryMicrosBefore")) {
                // a number, or null where no reading fell in the (short) window
                assertTrue(rs.has(k) && (rs.get(k).isNull() || rs.get(k).asDouble() > 0), "receiver summary " + k + " = " + rs.get(k));
                assertTrue(send.get("summary").has(k), "sender summary " + k);
            }

            // the sender heard the receiver's DONE with the same numbers
            JsonNode peer = send.get("receivers").get(0);
            assertEquals(got, peer.get("received").asInt(), context);
            assertEquals(missing, peer.get("missing").asInt(), context);

            // per-message columns, the 500-message throughput window, samples, T_msg, drops
            JsonNode msgs = recv.get("messages");
            assertEquals(got, msgs.get("seq").size());
            assertEquals(got, msgs.get("delayMs").size());
            assertEquals(got, msgs.get("receivedMicros").size());
            assertEquals(Math.max(0, got - 499), recv.get("throughput").get("kbps").size());
            for (JsonNode report : List.of(send, recv)) {
                JsonNode machine = report.get("machine");
                assertEquals(HostCpu.model(), machine.get("cpuModel").asText());
                assertEquals(Runtime.getRuntime().availableProcessors(), machine.get("availableProcessors").asInt());
                assertEquals(Runtime.version().toString(), machine.get("javaVersion").asText());
            }
            JsonNode samples = recv.get("samples");
            assertTrue(samples.get("count").asInt() >= 1);
            assertEquals(samples.get("count").asInt(), samples.get("heapUsedBytes").size());
            for (String clock : List.of("cpuMicros", "jitMillis", "gcMillis", "idleMillis", "stealMillis")) {
                JsonNode column = samples.get(clock);
                assertEquals(samples.get("count").asInt(), column.size(), clock);
                for (int i = 1; i < column.size(); i++) {
                    assertTrue(column.get(i).asLong() >= column.get(i - 1).asLong(), clock + " never runs backwards");
                }
            }
            assertTrue(samples.get("cpuMicros").get(samples.get("count").asInt() - 1).asLong() > 0,
                    "a process that received messages has used CPU");
            for (String switches : List.of("voluntarySwitches", "involuntarySwitches")) {
                // read on every fifth sample and the last, -1 in between; never running backwards
                JsonNode column = samples.get(switches);
                assertEquals(samples.get("count").asInt(), column.size(), switches);
                long previous = -1;
                for (int i = 0; i < column.size(); i++) {
                    long v = column.get(i).asLong();
                    boolean read = i % Sampler.SWITCHES_EVERY == 0 || i == column.size() - 1;
                    assertEquals(read, v >= 0, switches + "[" + i + "] = " + v);
                    if (read) {
                        assertTrue(v >= previous, switches + " never runs backwards");
                        previous = v;
                    }
                }
            }
            JsonNode canary = samples.get("canaryNanos");
            assertEquals(samples.get("count").asInt(), canary.size());
            for (JsonNode v : canary) {
                assertTrue(v.asLong() > 0, "the canary runs on every sample: " + canary);
            }
            long lastVoluntary = samples.get("voluntarySwitches").get(samples.get("count").asInt() - 1).asLong();
            if (Files.isReadable(Path.of("/proc/self/task"))) {
                assertTrue(lastVoluntary > 0, "a receiver's threads have blocked waiting for messages");
            } else {
                assertEquals(-1, lastVoluntary, "no /proc, no figure");
            }
            assertFalse(samples.get("messageStore").get("available").asBoolean());
            assertTrue(samples.get("messageStore").get("liveInstances").isNull());
            assertTrue(samples.get("messageStore").get("dataBacklog").isNull());
            assertTrue(samples.get("messageStore").get("controlBacklog").isNull());
            assertTrue(recv.get("tMsg").get("meanMicros").isNull());
            assertNotNull(recv.get("tMsg").get("note").asText());
            JsonNode drops = recv.get("drops");
            assertTrue(drops.get("forwarding").has("application_queue_full"));
            assertTrue(drops.get("total").isNumber());
            assertTrue(recv.get("storeActivity").isNull(), "no store, no activity: " + recv.get("storeActivity"));
            assertEquals(send.get("run").asText(), recv.get("run").asText());
            assertTrue(rs.get("warmupMessages").asInt() > 0, "warm-up messages are discarded, and counted: " + context);
            assertEquals(0.5, send.get("options").get("warmupRamp").asDouble(), "the default ramp");
            // the run started once the receiver reported the whole warm-up, or when the wait ran out
            assertEquals(200, ss.get("warmupSent").asInt(), context);
            if (ss.get("warmupOutcome").asText().equals("complete")) {
                assertEquals(1, ss.get("receiversWarmedUp").asInt(), context);
                assertEquals(200, peer.get("warmupReceived").asInt(), context);
                assertEquals(200, rs.get("warmupMessages").asInt(), context);
                assertTrue(out.toString().contains("every receiver has the warm-up's 200 messages"), context);
            } else {
                assertEquals("stalled", ss.get("warmupOutcome").asText(), "lost for good, on loopback: " + context);
                assertTrue(ss.get("warmupWaitMs").asDouble() >= 5_000, "the default quiet period: " + context);
                assertTrue(out.toString().contains("only 0 of 1 receiver(s) have the warm-up's 200 messages (no receiver gained one"),
                        context);
            }
            assertTrue(out.toString().contains("warming up with 200 messages (the first 100 at a rate climbing"), context);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void senderShouldGiveUpWhenNoReceiverShowsUp() throws Exception {
        Path cfg = dir.resolve("alone.yaml");
        Files.writeString(cfg, config("1", null));
        Path json = dir.resolve("alone.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int status = run(out, err, "ttcp", "send", "--config", cfg.toString(), "--count", "10", "--wait-timeout", "0.3",
                "--json", json.toString());

        assertEquals(1, status, out + "\n" + err);
        JsonNode report = TtcpReport.JSON.readTree(json.toFile());
        assertEquals("receivers-not-ready", report.get("outcome").asText());
        assertEquals(0, report.get("summary").get("sent").asInt());
    }

    @Test
    void badArgumentsShouldBeRefusedNamingThem() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(2, run(out, err, "ttcp", "send", "--config", "x.yaml", "--size", "5"));
        assertTrue(err.toString().contains("--size=5 must be within 33..60000"), err.toString());
        assertEquals(2, run(out, err, "ttcp", "send", "--config", "x.yaml", "--rate", "10", "--rate-mbps", "1"));
        assertEquals(2, run(out, err, "ttcp", "send", "--config", "x.yaml", "--warmup-ramp", "1.5"));
        assertTrue(err.toString().contains("--warmup-ramp=1.5 must be within 0..1"), err.toString());
        assertEquals(2, run(out, err, "ttcp", "send", "--config", "x.yaml", "--warmup-wait", "-1"));
        assertTrue(err.toString().contains("--warmup-wait=-1.0 must be within 0..86400 seconds"), err.toString());
        assertEquals(2, run(out, err, "ttcp", "send", "--config", "x.yaml", "--service", "h2h"));
        assertTrue(err.toString().contains("--service=h2h must be a ServiceID"), err.toString());
        assertEquals(2, run(out, err, "ttcp", "recv", "--config", "x.yaml", "--idle", "-1"));
        assertTrue(err.toString().contains("--idle=-1.0 must be within"), err.toString());
        assertEquals(2, run(out, err, "ttcp", "recv", "--config", dir.resolve("missing.yaml").toString()));
        assertTrue(err.toString().contains("missing.yaml: cannot read: no such file"), err.toString());
    }
}
