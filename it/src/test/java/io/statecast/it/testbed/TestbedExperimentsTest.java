package io.statecast.it.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.examples.ttcp.ShippedService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The full experiments (the {@code -Ptestbed} profile only), node processes started from the test
 * class path:
 * <ul>
 * <li>{@link TestbedRunner} with the arguments in the system property
 * {@code statecast.testbed.args} (default: the blueprint's set: best-effort, h2h-ack and e2e-ack);</li>
 * <li>the loss run: 5 hops with 5 % random drop on every link, {@code h2h-ack}, every receiver
 * must get every message. System properties {@code statecast.testbed.loss.count} (default
 * 10,000), {@code .size} (1,024), {@code .rateMbps} (1), {@code .service} (h2h-ack).</li>
 * </ul>
 */
@Tag("testbed")
class TestbedExperimentsTest {

    @Test
    void blueprintExperimentsShouldRunToTheEndAndWriteResults() {
        String why = TestbedEnvironment.unavailableReason();
        assertEquals(null, why, "the testbed profile needs root and iproute2");
        Path results = TestbedEnvironment.repository().resolve("it/target/testbed/results.md");
        String extra = System.getProperty("statecast.testbed.args", "").trim();
        String[] args = (extra + " --launcher classpath --results " + results).trim().split("\\s+");

        int status = new CommandLine(new TestbedRunner()).execute(args);

        assertEquals(0, status);
        assertTrue(Files.isRegularFile(results), results + " missing");
    }

    @Test
    void reliableServiceShouldDeliverEveryMessageOverFiveHopsWithFivePercentLossPerLink() throws Exception {
        String why = TestbedEnvironment.unavailableReason();
        assertEquals(null, why, "the testbed profile needs root and iproute2");
        int count = Integer.getInteger("statecast.testbed.loss.count", 10_000);
        int size = Integer.getInteger("statecast.testbed.loss.size", 1_024);
        double rate = Double.parseDouble(System.getProperty("statecast.testbed.loss.rateMbps", "1"));
        ShippedService service = ShippedService.byName(System.getProperty("statecast.testbed.loss.service", "h2h-ack"));
        int hops = 5;
        int loss = 5;
        int warmup = 500;
        String tag = "l" + Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36), 36);
        Path out = TestbedEnvironment.repository().resolve("it/target/testbed-loss/" + tag);
        Files.createDirectories(out);
        RunResult r;
        try (Chain chain = new Chain(TestbedEnvironment.repository().resolve("it/testbed/netns-chain.sh"), tag, "100mbit",
                out.resolve("chain.log"))) {
            chain.up(hops + 1, loss);
            // the receivers' idle limit must outlast a repair: h2h-ack gives up on a hop after
            // TimeoutMaxACK (5 s), so a receiver waits longer than that for the last messages
            Testbed bed = new Testbed(chain, Launcher.classpath(Launcher.NODE_JVM_OPTS), out,
                    new Testbed.Settings("TREE", null, 15, 20, Criteria.DEFAULT), System.out);
            r = bed.run(new Experiment(hops, rate, count, size, service.name(), service.id(), loss, warmup),
                    service.messageStoreYaml(count + warmup));
        }
        String context = String.format(Locale.ROOT, "%s, %d hops, %d %% drop per link, %d x %d B at %.2f Mbit/s; see %s "
                + "(nI.log, nI.json: drops by cause); verdict: %s", service.name(), hops, loss, count, size, rate, r.dir(),
                r.verdict());
        System.out.println("TestbedExperimentsTest loss run: " + context);
        assertTrue(TestbedEnvironment.namespaces("sc-" + tag + "-").isEmpty(), "namespaces of chain " + tag + " left behind");
        assertNotNull(r.sender(), "sender report, " + context);
        assertEquals(count, r.sender().get("sent").asInt(), context);
        assertEquals(hops, r.receivers().size(), context);
        for (RunResult.Receiver rc : r.receivers()) {
            assertNotNull(rc.summary(), "node " + rc.node() + " wrote no report, " + context);
            assertEquals(0, rc.missing(), "node " + rc.node() + " missed messages, " + context);
            assertEquals(count, rc.received(), "node " + rc.node() + ", " + context);
            assertEquals(0, rc.exit(), "node " + rc.node() + " exit status, " + context);
        }
    }
}
