package io.statecast.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.messagestore.tools.scenario.ActualCall;
import io.statecast.messagestore.tools.scenario.Scenario;
import io.statecast.messagestore.tools.scenario.ScenarioException;
import io.statecast.messagestore.tools.scenario.ScenarioLimits;
import io.statecast.messagestore.tools.scenario.ScenarioReader;
import io.statecast.messagestore.tools.scenario.ScenarioReport;
import io.statecast.messagestore.tools.scenario.ScenarioResult;
import io.statecast.messagestore.tools.scenario.ScenarioRunner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The leaky bucket's output rate, measured on the virtual clock: a source whose application sends
 * in random bursts (seeded) sees its messages leave one per TokenInterval, in the order sent, never
 * two closer than TokenInterval, and none held back while tokens come.
 */
class LeakyBucketRateTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());

    @Test
    void shouldLetMessagesOutAtOnePerToken() throws SpecException, ScenarioException {
        ServiceSpec spec;
        try (SpecLoader loader = new SpecLoader()) {
            spec = loader.load(Path.of("src/main/resources/services/leaky-bucket.scxml"));
        }
        for (long k = 0; k < 4; k++) {
            check(spec, SEED + k);
        }
    }

    private static void check(ServiceSpec spec, long seed) throws ScenarioException {
        Random random = new Random(seed);
        int interval = 20 + random.nextInt(5) * 20;
        // bursts separated by gaps; fewer messages in all than BucketSize, so none is dropped
        StringBuilder y = new StringBuilder("scenario: random bursts (seed " + seed + ")\n"
                + "node: {address: 1, children: [2]}\nparameters: {TokenInterval: " + interval + "}\n"
                + "defaults: {source: local}\nsteps:\n");
        List<Long> arrivals = new ArrayList<>();
        long now = 0;
        int id = 0;
        while (id < 30) {
            int burst = 1 + random.nextInt(Math.min(6, 30 - id));
            y.append("  - receive:\n");
            for (int i = 0; i < burst; i++) {
                id++;
                y.append("      - {id: ").append(id).append(", payload: m").append(id).append("}\n");
                arrivals.add(now);
            }
            long gap = random.nextInt(10) * (long) interval / 2;
            y.append("  - advance: ").append(gap).append('\n');
            now += gap;
        }
        y.append("  - advance: ").append(40L * interval).append('\n');
        Scenario s = ScenarioReader.read(y.toString(), false, "generated", spec, ScenarioLimits.DEFAULTS);
        ScenarioResult r = new ScenarioRunner().run(spec, s);
        String why = "seed " + seed + ", TokenInterval " + interval + "\n" + ScenarioReport.format(r, true);
        assertTrue(r.passed(), why);

        List<ActualCall> out = r.calls("forwardMessage");
        assertEquals(30, out.size(), why);
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < out.size(); i++) {
            ActualCall c = out.get(i);
            assertEquals(Integer.toString(i + 1), c.params().get("id"), "in the order sent; " + why);
            long at = Long.parseLong(c.params().get("at"));
            assertTrue(at > arrivals.get(i), "not before it arrived; " + why);
            assertTrue(at - arrivals.get(i) <= (long) (i + 1) * interval, "not held longer than its queue; " + why);
            if (previous != Long.MIN_VALUE) {
                assertTrue(at - previous >= interval, "never two within one TokenInterval; " + why);
                if (arrivals.get(i) < previous) {
                    assertEquals(interval, at - previous, "a queued message leaves at the next token; " + why);
                }
            }
            previous = at;
        }
        // over any backlogged stretch the rate is exactly one per interval: the first 5 messages
        // arrived within the first burst or later, so the mean spacing is at least the interval
        long first = Long.parseLong(out.get(0).params().get("at"));
        double rate = (out.size() - 1) * 1000.0 / (previous - first);
        assertTrue(rate <= 1000.0 / interval + 1e-9, "output rate " + rate + "/s above " + (1000.0 / interval)
                + "/s; " + why);
    }
}
