package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.statecast.messagestore.MessageStore;
import io.statecast.messagestore.MessageStoreConfig;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.overlay.socket.OverlayConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** ttcp reads the Statecast MessageStore's metrics: backlogs, live instances, T_msg, drops by cause. */
class TtcpStoreMetricsTest {

    private static final String SPEC = "classpath:io/statecast/examples/bench/blueprint-h2h.scxml";
    private static final int BLUEPRINT_H2H = 1;
    private static final int COUNT = 300;
    private static final int WARMUP = 200;

    @Test
    void aFreshStoreShouldReadAsZerosNotNulls() {
        try (MessageStore store = new MessageStore(MessageStoreConfig.defaults())) {
            StoreProbe probe = StoreProbe.of(store);
            assertTrue(probe.available(), probe.reason());
            StoreProbe.Snapshot s = probe.snapshot();
            assertEquals(0L, s.dataBacklog());
            assertEquals(0L, s.controlBacklog());
            assertEquals(0L, s.liveInstances());
            assertEquals(0L, s.processed());
            assertNull(s.tMsgMeanMicros(), "nothing processed: no mean");
            Map<String, Long> drops = probe.drops();
            assertEquals(DropReason.values().length, drops.size());
            assertEquals(0L, drops.get(DropReason.NOT_AN_INPUT.name().toLowerCase(Locale.ROOT)));
        }
    }

    @Test
    void noStoreShouldReadAsUnavailableWithAReason() {
        StoreProbe probe = StoreProbe.of(null);
        assertFalse(probe.available());
        assertNull(probe.snapshot());
        assertNull(probe.drops());
        assertTrue(probe.reason().contains("no MessageStore"), probe.reason());
    }

    private static String config(String address, String buddy) {
        return config(address, buddy, SPEC);
    }

    private static String config(String address, String buddy, String spec) {
        return "overlay:\n"
                + "  id: ttcp-store-metrics-test\n"
                + "  node: TREE\n"
                + "  address: \"" + address + "\"\n"
                + "  interfaces: [ \"udp://127.0.0.1:0\" ]\n"
                + (buddy == null ? "" : "  buddies: [ \"" + buddy + "\" ]\n")
                + "  heartbeat: { fastMs: 50, slowMs: 50, timeoutMs: 2000 }\n"
                + "  buffers: { receiveQueueMessages: 65536 }\n"
                + "  messageStore:\n"
                + "    shards: 1\n"
                + "    services: [ \"" + spec + "\" ]\n";
    }

    /** One sender and one receiver on loopback, {@link #COUNT} messages of {@code spec}'s service. */
    private record Pair(TtcpSender.Result sent, TtcpReceiver.Result received, String log) {
    }

    private static Pair runPair(String spec, int serviceId) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        StringWriter log = new StringWriter();
        PrintWriter out = new PrintWriter(log, true);
        try {
            TtcpSockets.Opened receiver = TtcpSockets.open(OverlayConfig.parse(config("2", null, spec)));
            String receiverAddress = receiver.socket().substrateAddresses().get(0).toString();
            Future<TtcpReceiver.Result> received = pool.submit(() -> {
                try (var s = receiver.socket()) {
                    return new TtcpReceiver(s, new TtcpReceiver.Options(0, 5_000, 60_000, 10_000, 100, 50), receiver.probe(),
                            out).run();
                }
            });
            TtcpSockets.Opened sender = TtcpSockets.open(OverlayConfig.parse(config("1", receiverAddress, spec)));
            TtcpSender.Result sent;
            try (var s = sender.socket()) {
                sent = new TtcpSender(s, new TtcpSender.Options(COUNT, 256, 2_000, Pacer.defaultBurst(2_000), 1_000, serviceId, 1,
                        30_000, WARMUP, 100, 20_000, 50, true), sender.probe(), out).run();
            }
            return new Pair(sent, received.get(60, TimeUnit.SECONDS), log.toString());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void reportsOfAServiceRunShouldCarryTheStoresMetrics() throws Exception {
        Pair run = runPair(SPEC, BLUEPRINT_H2H);
        TtcpSender.Result sent = run.sent();
        TtcpReceiver.Result r = run.received();
        String context = run.log();
        assertEquals(0, sent.exitCode(), context);
        assertEquals(0, r.exitCode(), context);

        for (JsonNode report : new JsonNode[] {sent.report(), r.report()}) {
            JsonNode store = report.get("samples").get("messageStore");
            assertTrue(store.get("available").asBoolean(), store.toString());
            int n = report.get("samples").get("count").asInt();
            assertEquals(n, store.get("liveInstances").size());
            assertEquals(n, store.get("dataBacklog").size());
            JsonNode processed = store.get("processed");
            assertTrue(processed.get(n - 1).asLong() >= COUNT,
                    "every data message passed the store: " + processed.get(n - 1) + "\n" + context);
            for (int i = 0; i < n; i++) {
                assertTrue(store.get("liveInstances").get(i).asLong() >= 0);
                assertTrue(store.get("controlBacklog").get(i).isNumber());
            }
            JsonNode tMsg = report.get("tMsg");
            assertTrue(tMsg.get("meanMicros").asDouble() > 0, tMsg.toString());
            assertTrue(tMsg.get("maxMicros").asDouble() >= tMsg.get("meanMicros").asDouble(), tMsg.toString());
            JsonNode drops = report.get("drops").get("messageStore");
            assertNotNull(drops, report.get("drops").toString());
            assertEquals(DropReason.values().length, drops.size(), drops.toString());
            assertEquals(0, drops.get("data_queue_full").asLong(), drops.toString());
            JsonNode activity = report.get("storeActivity");
            assertTrue(activity.get("messages").asLong() >= COUNT, activity.toString());
            assertTrue(activity.get("created").asLong() >= COUNT, "an instance per message at least: " + activity);
            assertTrue(activity.has("terminated") && activity.has("finished") && activity.has("timerEvents"), activity.toString());
            assertTrue(activity.get("setTimer").asLong() > 0, activity.toString());
        }
        // the warm-up went through the service too, so the run's store path was compiled before it
        JsonNode processedSamples = r.report().get("samples").get("messageStore").get("processed");
        long processed = processedSamples.get(processedSamples.size() - 1).asLong();
        assertTrue(processed >= COUNT + WARMUP, "the receiver's store processed " + processed + " messages, fewer than "
                + COUNT + " + " + WARMUP + " warm-up\n" + context);
        assertEquals(WARMUP, r.report().get("summary").get("warmupMessages").asInt(), context);
        for (JsonNode report : new JsonNode[] {sent.report(), r.report()}) {
            JsonNode cpu = report.get("summary").get("cpuMicrosPerMessage");
            assertNotNull(cpu, report.get("summary").toString());
            // the process clock advances in 10 ms steps: a few hundred messages may read as 0
            assertTrue(cpu.isNull() || cpu.asDouble() >= 0, cpu.toString());
        }
        // message scope: each payload has its instance on both nodes, alive for the service's linger
        JsonNode live = r.report().get("samples").get("messageStore").get("liveInstances");
        long peak = 0;
        for (JsonNode v : live) {
            peak = Math.max(peak, v.asLong());
        }
        assertTrue(peak > 0, "instances were live while the run went on: " + live);
        assertEquals(0, sent.report().get("serviceNotifications").asLong(), "h2h-ack tells the source nothing: " + context);
    }

    @Test
    void fullAcksOfE2eAckShouldBeCountedAsNotificationsNotAsCorruptControl() throws Exception {
        Pair run = runPair("classpath:services/e2e-ack.scxml", 2);
        String context = run.log();
        JsonNode report = run.sent().report();
        assertEquals(0, run.sent().exitCode(), context);
        assertEquals(0, report.get("corruptControlMessages").asLong(), report.toString());
        // one Full ACK per message whose every receiver acknowledged, warm-up included; the last may still be under way
        long notifications = report.get("serviceNotifications").asLong();
        assertTrue(notifications > 0 && notifications <= COUNT + WARMUP, notifications + " notifications\n" + context);
    }
}
