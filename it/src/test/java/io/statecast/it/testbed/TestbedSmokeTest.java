package io.statecast.it.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * The default run's testbed smoke run: two namespaces joined by a 100 Mbit/s tbf link, one
 * {@code statecast ttcp} process in each (sender and receiver), 1,000 best-effort messages of
 * 1,024 bytes. Needs root and iproute2; elsewhere it is skipped, and says why. No nftables: the
 * smoke run injects no loss.
 */
class TestbedSmokeTest {

    @Test
    void twoNamespacesShouldExchangeThousandMessagesAndCleanUp() throws Exception {
        String why = TestbedEnvironment.unavailableReason();
        if (why != null) {
            System.out.println("TestbedSmokeTest SKIPPED: " + why);
        }
        assumeTrue(why == null, "testbed smoke run skipped: " + why);

        String tag = "s" + Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36), 36);
        Path repo = TestbedEnvironment.repository();
        Path out = repo.resolve("it/target/testbed-smoke/" + tag);
        Files.createDirectories(out);
        long started = System.nanoTime();
        RunResult r;
        try (Chain chain = new Chain(repo.resolve("it/testbed/netns-chain.sh"), tag, "100mbit", out.resolve("chain.log"))) {
            chain.up(2, 0);
            Testbed bed = new Testbed(chain, Launcher.classpath("-Xms32m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"), out,
                    new Testbed.Settings("TREE", null, 3, 5, Criteria.DEFAULT), System.out);
            r = bed.run(new Experiment(1, 4.0, 1_000, 1_024, "none", null, 0, 200));
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("TestbedSmokeTest: chain '%s' up, run and torn down in %.1f s; outputs in %s%n", tag, seconds, out);
        String context = "see " + r.dir() + " (n1.log, n2.log, *.json); verdict: " + r.verdict();

        assertTrue(TestbedEnvironment.namespaces("sc-" + tag + "-").isEmpty(), "namespaces of chain " + tag + " left behind");
        assertNotNull(r.sender(), "sender report, " + context);
        assertEquals(1_000, r.sender().get("sent").asInt(), context);
        assertEquals(1, r.receivers().size());
        RunResult.Receiver rc = r.receivers().get(0);
        assertNotNull(rc.summary(), "receiver report, " + context);
        assertEquals(1_000, rc.received() + rc.missing(), context);
        // best-effort on an unloaded 100 Mbit/s link at 4 Mbit/s: a loss means a receiver starved
        // of CPU for long enough to overflow its socket buffer; more than a few percent is a bug
        assertTrue(rc.received() >= 950, "received " + rc.received() + ", " + context);
        assertTrue(rc.get("delayMsP50") >= 0 && rc.get("delayMsP50") <= rc.get("delayMsP99"), context);
        assertTrue(rc.get("throughputMbps") > 0, context);
        assertEquals(rc.missing() == 0 ? 0 : 4, rc.exit(), context);
    }
}
