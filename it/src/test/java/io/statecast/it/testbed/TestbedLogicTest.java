package io.statecast.it.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statecast.examples.ttcp.ShippedService;
import io.statecast.messagestore.MessageStoreConfig;
import io.statecast.messagestore.MessageStoreSettings;
import io.statecast.overlay.socket.OverlayConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The testbed's judgement and search, on made-up reports (no root, no processes). */
class TestbedLogicTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static ObjectNode receiver(long received, long missing, double slope) {
        ObjectNode s = JSON.createObjectNode();
        s.put("received", received);
        s.put("missing", missing);
        s.put("delaySlopeMsPerS", slope);
        s.put("delayMsP99", 3.0);
        s.put("throughputMbps", 9.9);
        return s;
    }

    private static RunResult result(Experiment e, double sentRate, ObjectNode... receivers) {
        ObjectNode sender = JSON.createObjectNode();
        sender.put("sent", e.count());
        sender.put("messagesPerSecond", sentRate);
        List<RunResult.Receiver> rs = new ArrayList<>();
        for (int i = 0; i < receivers.length; i++) {
            rs.add(new RunResult.Receiver(i + 2, 0, receivers[i]));
        }
        return new RunResult(e, Path.of("."), 0, sender, rs, false, "", 1);
    }

    private static Experiment at(double mbps) {
        return new Experiment(2, mbps, 10_000, 1_024, "none", null, 0, 0);
    }

    @Test
    void criteriaShouldDemandEverythingDeliveredFlatDelayAndTheRateReached() {
        Experiment e = at(10); // 1,220.7 msgs/s
        Criteria c = Criteria.DEFAULT;
        assertEquals(List.of(), c.failures(result(e, 1_220, receiver(10_000, 0, 0.3), receiver(10_000, 0, -1))));
        assertEquals(List.of("node 3 missed 1"), c.failures(result(e, 1_220, receiver(10_000, 0, 0), receiver(9_999, 1, 0))));
        assertEquals(List.of("node 2 delay grows 12.0 ms/s"), c.failures(result(e, 1_220, receiver(10_000, 0, 12), receiver(10_000, 0, 0))));
        assertEquals(List.of("sender reached 1100 of 1221 msgs/s"), c.failures(result(e, 1_100, receiver(10_000, 0, 0))));
        RunResult noReport = new RunResult(e, Path.of("."), -1, null, List.of(new RunResult.Receiver(2, -1, null)), false, "", 1);
        assertEquals(3, c.failures(noReport).size());
        assertEquals(10_000, noReport.totalMissing());
    }

    @Test
    void searchShouldClimbThenBisect() throws Exception {
        double capacity = 37; // a system that sustains up to 37 Mbit/s
        List<Double> tried = new ArrayList<>();
        SustainableSearch s = new SustainableSearch(List.of(50.0, 10.0, 25.0, 75.0), 3, 0.5);
        SustainableSearch.Outcome o = s.search(1, "none", rate -> {
            tried.add(rate);
            return new RunResult(at(rate), Path.of("."), 0, null, List.of(), rate <= capacity, "", 1);
        });
        assertEquals(List.of(10.0, 25.0, 50.0, 37.5, 31.25, 34.38), tried);
        assertEquals(34.38, o.sustainableMbps());
        assertEquals(37.5, o.lowestUnsustainableMbps());
        assertEquals(6, o.runs().size());
    }

    @Test
    void searchShouldDescendWhenTheLowestRateFails() throws Exception {
        SustainableSearch s = new SustainableSearch(List.of(10.0, 20.0), 0, 1.0);
        List<Double> tried = new ArrayList<>();
        SustainableSearch.Outcome o = s.search(5, "none", rate -> {
            tried.add(rate);
            return new RunResult(at(rate), Path.of("."), 0, null, List.of(), rate <= 3, "", 1);
        });
        assertEquals(List.of(10.0, 5.0, 2.5), tried);
        assertEquals(2.5, o.sustainableMbps());
        SustainableSearch.Outcome none = s.search(5, "none", rate -> new RunResult(at(rate), Path.of("."), 0, null, List.of(), false, "", 1));
        assertNull(none.sustainableMbps());
    }

    @Test
    void resultsShouldSitBesideTheBlueprintFigures() {
        Experiment e = at(10);
        ObjectNode sender = JSON.createObjectNode();
        sender.put("messagesPerSecond", 1_220.7);
        // 11,000 messages (no warm-up here) of 1,100 bytes each on the first link
        RunResult r = new RunResult(e, Path.of("."), 0, sender, List.of(new RunResult.Receiver(2, 0, receiver(10_000, 0, 0.1))),
                true, "sustainable", 1, new LinkUsage(11_000_000, 10_050));
        String md = ResultsReport.markdown(List.of(new SustainableSearch.Outcome(2, "none", 10.0, 25.0, List.of(r))),
                List.of(), "## header", 100);
        // 1,220.7 msgs/s x 1,100 B x 8 = 10.74 Mbit/s on the wire
        assertTrue(md.contains("| none | 2 | 10.00 | 10.74 | 25.00 | 0.7 / 1.9 | 0.7 / 0.9 |"), md);
        assertTrue(md.contains("| none | 2 | 10.00 | 1221 | 1100, 10.74 |"), md);
        assertTrue(md.contains("| 0 | — | — / — | sustainable |"), "older reports: no CPU or canary figures\n" + md);
        // 100 Mbit/s x 1,024 / 1,100
        assertTrue(md.contains("took 1100 bytes (median of 1 runs") && md.contains("at most 93.1 Mbit/s of payload"), md);
        assertFalse(md.contains("Loss run"), md);
        assertEquals("1.0 / 4.0", ResultsReport.blueprint("h2h", 1));
        assertEquals("0.7 / 0.8", ResultsReport.blueprint("e2e", 5));
        assertEquals("—", ResultsReport.blueprint("h2h", 3));
    }

    @Test
    void linkCountersShouldComeFromTheTbfQdisc() throws Exception {
        String tc = "[{\"kind\":\"tbf\",\"handle\":\"8173:\",\"root\":true,\"options\":{\"rate\":12500000},"
                + "\"bytes\":11170000,\"packets\":10012,\"drops\":0}]";
        LinkUsage after = LinkUsage.parseTc(tc);
        assertEquals(new LinkUsage(11_170_000, 10_012), after);
        assertEquals(new LinkUsage(11_169_000, 10_011), after.since(new LinkUsage(1_000, 1)));
        assertEquals(LinkUsage.UNKNOWN, after.since(LinkUsage.UNKNOWN));
        assertEquals(LinkUsage.UNKNOWN, new LinkUsage(5, 1).since(new LinkUsage(10, 1)), "counters went backwards");
        Exception noTbf = assertThrows(java.io.IOException.class, () -> LinkUsage.parseTc("[{\"kind\":\"noqueue\"}]"));
        assertTrue(noTbf.getMessage().contains("no tbf qdisc"), noTbf.getMessage());
        assertThrows(java.io.IOException.class, () -> LinkUsage.parseTc("not json"));
        assertEquals(100, ResultsReport.parseLinkMbps("100mbit"));
        assertEquals(1000, ResultsReport.parseLinkMbps("1gbit"));
        assertEquals(0.5, ResultsReport.parseLinkMbps("500kbit"));
        assertTrue(Double.isNaN(ResultsReport.parseLinkMbps("12500000")));
    }

    @Test
    void nodeConfigsShouldMakeTheDaisyChain() throws Exception {
        String first = Files.readString(NodeConfigs.write(dir, 1, "TREE", null));
        String third = Files.readString(NodeConfigs.write(dir, 3, "DT", "shards: 2"));
        assertTrue(first.contains("interfaces: [ \"udp://10.201.0.1:7700\" ]"), first);
        assertTrue(first.contains("buddies: [ ]"), first);
        assertTrue(first.contains("address: \"1\""), first);
        assertTrue(third.contains("buddies: [ \"udp://10.201.0.2:7700\" ]"), third);
        assertTrue(third.contains("address: \"300,300\""), third);
        assertTrue(third.contains("  messageStore:\n    shards: 2\n"), third);
        // every generated configuration is one the socket accepts
        assertEquals("statecast-testbed", io.statecast.overlay.socket.OverlayConfig.parse(first).id());
        assertEquals(NodeConfigs.SEND_WINDOW, io.statecast.overlay.socket.OverlayConfig.parse(third).sendWindow().window());
    }

    @Test
    void shippedServicesShouldBeFoundByNameWithTheirServiceIdAndAStoreSectionThatLoadsThem() throws Exception {
        ShippedService h2h = ShippedService.byName("h2h-ack");
        ShippedService e2e = ShippedService.byName("E2E-ACK");
        assertEquals(new ShippedService("h2h-ack", 1, "services/h2h-ack.scxml"), h2h);
        assertEquals(new ShippedService("e2e-ack", 2, "services/e2e-ack.scxml"), e2e);
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> ShippedService.byName("no-such-service"));
        assertTrue(unknown.getMessage().contains("services/no-such-service.scxml"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ShippedService.byName("../h2h-ack"));

        TestbedRunner.Service svc = TestbedRunner.Service.parse("h2h-ack", null, 11_000);
        assertEquals(1, svc.id());
        assertEquals("none", TestbedRunner.Service.parse("none", null, 11_000).name());
        assertNull(TestbedRunner.Service.parse("none", null, 11_000).messageStoreYaml());
        assertEquals("shards: 2", TestbedRunner.Service.parse("e2e-ack", "shards: 2", 11_000).messageStoreYaml());
        assertThrows(IllegalArgumentException.class, () -> TestbedRunner.Service.parse("7", null, 11_000));

        // the generated section is one the MessageStore accepts, and it loads the named spec
        String config = Files.readString(NodeConfigs.write(dir, 2, "TREE", svc.messageStoreYaml()));
        MessageStoreSettings ms = MessageStoreSettings.parse(OverlayConfig.parse(config).messageStore());
        assertEquals(List.of(URI.create("classpath:services/h2h-ack.scxml")),
                ms.services().stream().map(MessageStoreSettings.ServiceSource::uri).toList());
        assertEquals(11_000, ms.config().dataQueueCapacity());
        assertEquals(MessageStoreConfig.Threading.IO, ms.config().threading(), "the testbed's default");
        String dedicated = TestbedRunner.Service.parse("h2h-ack", null, 11_000, "dedicated").messageStoreYaml();
        assertEquals(MessageStoreConfig.Threading.DEDICATED, MessageStoreSettings.parse(OverlayConfig.parse(
                Files.readString(NodeConfigs.write(dir, 3, "TREE", dedicated))).messageStore()).config().threading());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> TestbedRunner.Service.parse("h2h-ack", null, 11_000, "fast"));
        assertTrue(bad.getMessage().contains("must be dedicated, clock or io"), bad.getMessage());
    }

    @Test
    void theRunnersLinkBucketShouldDefaultTo256KiBAndRefuseLessThanAFrameOrMoreThan64MiB() {
        for (String burst : List.of("1000", String.valueOf(TestbedRunner.MAX_LINK_BURST + 1), "0")) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintStream saved = System.err;
            int status;
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            try {
                status = new CommandLine(new TestbedRunner()).execute("--link-burst", burst, "--out", dir.toString());
            } finally {
                System.setErr(saved);
            }
            String text = err.toString(StandardCharsets.UTF_8);
            assertEquals(2, status, text);
            assertTrue(text.contains("--link-burst " + burst + ": must be 1514..67108864 bytes"), text);
        }
        assertThrows(IllegalArgumentException.class, () -> new Chain(dir.resolve("netns-chain.sh"), "t1", "100mbit", 0, dir.resolve("log")));
        TestbedRunner defaults = new TestbedRunner();
        new CommandLine(defaults).parseArgs();
        assertEquals(262_144, defaults.linkBurst, "the runner's chains absorb a stall of 21 ms at 100 Mbit/s");
    }

    @Test
    void aRunIsRepeatedOnlyWhenANodeFailedBeforeAnythingWasSent() {
        Experiment e = at(10);
        ObjectNode nothingSent = JSON.createObjectNode().put("sent", 0);
        RunResult startFailure = new RunResult(e, Path.of("."), 3, nothingSent, List.of(new RunResult.Receiver(2, 1, null)), false, "", 1);
        RunResult noSenderReport = new RunResult(e, Path.of("."), 1, null, List.of(new RunResult.Receiver(2, 1, null)), false, "", 1);
        RunResult senderFailed = new RunResult(e, Path.of("."), 1, null, List.of(new RunResult.Receiver(2, -1, null)), false, "", 1);
        RunResult lossy = result(e, 1_220, receiver(9_000, 1_000, 0));
        RunResult receiverTimedOut = new RunResult(e, Path.of("."), 3, nothingSent, List.of(new RunResult.Receiver(2, -1, null)), false, "", 1);
        assertTrue(Testbed.nodeFailedToStart(startFailure));
        assertTrue(Testbed.nodeFailedToStart(noSenderReport));
        assertTrue(Testbed.nodeFailedToStart(senderFailed));
        assertFalse(Testbed.nodeFailedToStart(lossy));
        assertFalse(Testbed.nodeFailedToStart(receiverTimedOut));
    }

    @Test
    void warmUpShouldLastItsSecondsAtTheRunsRateAndNeverFallBelowTheFloor() {
        assertEquals(36_621, Experiment.warmupMessages(10, 1_024, 30, 1_000)); // 1,220.7 msgs/s for 30 s
        assertEquals(333_252, Experiment.warmupMessages(91, 1_024, 30, 1_000));
        assertEquals(5_000, Experiment.warmupMessages(1, 1_024, 30, 5_000), "the floor wins at a low rate");
        assertEquals(1_000, Experiment.warmupMessages(Double.POSITIVE_INFINITY, 1_024, 30, 1_000));
        assertEquals(0, Experiment.warmupMessages(10, 1_024, 0, 0));
    }

    @Test
    void aWarmUpThatLostMessagesShouldBeNamedWorstFirst() {
        Experiment e = new Experiment(3, 10, 10_000, 1_024, "h2h-ack", 1, 0, 5_000);
        ObjectNode whole = receiver(10_000, 0, 0);
        whole.put("warmupMessages", 5_000);
        ObjectNode some = receiver(10_000, 0, 0);
        some.put("warmupMessages", 4_100);
        ObjectNode fewer = receiver(10_000, 0, 0);
        fewer.put("warmupMessages", 3_900);
        assertEquals("node 4 3900, node 3 4100 of 5000", result(e, 1_220, whole, some, fewer).warmupShortfall());
        assertEquals("", result(e, 1_220, whole, whole).warmupShortfall());
        assertEquals("", result(e, 1_220, receiver(10_000, 0, 0)).warmupShortfall(), "a report without the count says nothing");
    }

    @Test
    void theWaitForTheWarmUpShouldBeReadFromTheSendersReport() {
        Experiment e = at(10);
        List<RunResult.Receiver> none = List.of();
        ObjectNode settled = JSON.createObjectNode().put("warmupWaitMs", 1_234.5).put("warmupOutcome", "complete")
                .put("receiversReady", 5).put("receiversWarmedUp", 5);
        assertEquals("warm-up complete everywhere after 1.2 s",
                new RunResult(e, Path.of("."), 0, settled, none, true, "", 1).warmupWait());
        ObjectNode unsettled = JSON.createObjectNode().put("warmupWaitMs", 3_140.4).put("warmupOutcome", "stalled")
                .put("receiversReady", 5).put("receiversWarmedUp", 3);
        assertEquals("warm-up incomplete at 2 of 5 receivers, stalled after 3.1 s",
                new RunResult(e, Path.of("."), 0, unsettled, none, true, "", 1).warmupWait());
        assertEquals("", new RunResult(e, Path.of("."), 0, JSON.createObjectNode().put("sent", 1), none, true, "", 1).warmupWait(),
                "an older report says nothing");
        assertEquals("", new RunResult(e, Path.of("."), 1, null, none, false, "", 1).warmupWait());
    }

    @Test
    void pauseAfterTheWarmUpShouldGrowWithTheChain() {
        assertEquals(2_000, Testbed.warmupPauseMs(1), "1 hop: two processes");
        assertEquals(3_000, Testbed.warmupPauseMs(2));
        assertEquals(6_000, Testbed.warmupPauseMs(5), "every node's full collection and drain, six JVMs on two cores");
    }

    @Test
    void cpuPerMessageShouldBeReadPerNodeSenderFirstAndSummed() {
        Experiment e = at(10);
        ObjectNode sender = JSON.createObjectNode().put("sent", 10_000).put("cpuMicrosPerMessage", 40.5);
        ObjectNode n2 = receiver(10_000, 0, 0).put("cpuMicrosPerMessage", 60.25);
        ObjectNode n3 = receiver(10_000, 0, 0); // an older report without the figure
        RunResult r = new RunResult(e, Path.of("."), 0, sender,
                List.of(new RunResult.Receiver(2, 0, n2), new RunResult.Receiver(3, 0, n3)), true, "", 1);

        double[] cpu = r.cpuMicrosPerMessage();
        assertEquals(3, cpu.length);
        assertEquals(40.5, cpu[0]);
        assertEquals(60.25, cpu[1]);
        assertTrue(Double.isNaN(cpu[2]));
        assertEquals("40.5 / 60.3 / ? (sum 100.8)", Testbed.cpuLine(cpu));
        assertEquals(100.75, r.cpuMicrosSummed(), 1e-9);
    }

    @Test
    void theProcessorCanaryShouldBeTheMedianOfTheNodesThatReportIt() {
        Experiment e = at(10);
        ObjectNode sender = JSON.createObjectNode().put("sent", 10_000)
                .put("canaryMicrosInRun", 190.0).put("canaryMicrosBefore", 119.0);
        ObjectNode n2 = receiver(10_000, 0, 0).put("canaryMicrosInRun", 230.0).put("canaryMicrosBefore", 125.0);
        ObjectNode n3 = receiver(10_000, 0, 0).put("canaryMicrosInRun", 176.0); // nothing read before
        ObjectNode n4 = receiver(10_000, 0, 0); // an older report without the figures
        RunResult r = new RunResult(e, Path.of("."), 0, sender, List.of(new RunResult.Receiver(2, 0, n2),
                new RunResult.Receiver(3, 0, n3), new RunResult.Receiver(4, 0, n4)), true, "", 1);

        assertEquals(190.0, r.medianOverNodes("canaryMicrosInRun"), "the middle of three");
        assertEquals(122.0, r.medianOverNodes("canaryMicrosBefore"), "the mean of the middle two");
        assertTrue(Double.isNaN(r.medianOverNodes("noSuchFigure")));
        assertEquals("processor canary 190 µs in the run, 122 before (median of nodes)", r.canaryLine());
        String md = ResultsReport.markdown(List.of(new SustainableSearch.Outcome(4, "none", 10.0, null, List.of(r))),
                List.of(), "## header", 100);
        assertTrue(md.contains("| — | 190 / 122 |"), "no CPU figures, the canary's medians\n" + md);

        RunResult old = new RunResult(e, Path.of("."), 0, JSON.createObjectNode().put("sent", 10_000),
                List.of(new RunResult.Receiver(2, 0, n4)), true, "", 1);
        assertEquals("", old.canaryLine(), "reports without a canary say nothing");
    }
}
