package io.statecast.messagestore;

import io.statecast.messagestore.deploy.ServiceLoadException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.overlay.testkit.Await;
import io.statecast.messagestore.support.Specs;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WarmStartTest {

    private static final ServiceRuntime ACK = new ServiceRuntime(Specs.load("specs/ack-service.scxml"));

    @Test
    void shouldRunTheConfiguredRounds() throws Exception {
        // a deadline no loaded machine reaches: the rounds, not the wall-clock budget, must stop it
        MessageStoreConfig d = MessageStoreConfig.defaults();
        MessageStoreConfig patient = new MessageStoreConfig(d.shards(), d.threading(), d.dataQueueCapacity(),
                d.controlQueueCapacity(), d.instances(), d.unknownServiceMessages(), d.unknownServiceHold(),
                d.specLimits(), d.warmStart(), Duration.ofSeconds(600), d.timerTick(), d.warmStartRounds());
        for (int rounds : new int[] {1, 3, 250}) {
            try (WarmStart warm = new WarmStart(patient.withWarmStartRounds(rounds), () -> 0L)) {
                assertEquals(rounds, warm.run(ACK), "rounds=" + rounds);
            }
        }
    }

    @Test
    void shouldStopTheJitRoundsAtHalfTheDeadlineOfCpuTime() throws Exception {
        // a CPU clock that advances a tenth of the deadline per reading: the budget (half the
        // deadline) is spent after five readings past the start, whatever the machine's speed
        Duration timeout = Duration.ofSeconds(600);
        AtomicLong cpu = new AtomicLong();
        MessageStoreConfig config = new MessageStoreConfig(1, MessageStoreConfig.Threading.CLOCK, 10, 10,
                MessageStoreConfig.defaults().instances(), 10, Duration.ofSeconds(1),
                MessageStoreConfig.defaults().specLimits(), true, timeout, Duration.ZERO, 100_000);
        try (WarmStart warm = new WarmStart(config, () -> cpu.getAndAdd(timeout.toNanos() / 10))) {
            // reading 0 is the start; rounds 3.. read it once each before running: readings 1, 2, 3, 4
            // are below the budget (rounds 3..6 run), reading 5 reaches it (round 7 does not)
            assertEquals(7, warm.run(ACK));
        }
    }

    @Test
    void shouldAlwaysRunTheCheckingRounds() throws Exception {
        AtomicLong cpu = new AtomicLong();
        MessageStoreConfig config = MessageStoreConfig.defaults();
        try (WarmStart warm = new WarmStart(config, () -> cpu.getAndAdd(config.warmStartTimeout().toNanos()))) {
            assertEquals(WarmStart.CHECK_ROUNDS, warm.run(ACK), "a spent budget still leaves the spec checked");
        }
    }

    /**
     * A spec whose checking rounds take far longer than the deadline: 200 message events, each a
     * constituent of one of four slow composite queries, so one round evaluates it 200 times. Refused, counted,
     * and its thread stops at the next evaluation instead of running the rounds out.
     */
    @Test
    void shouldStopAndCountAWarmStartThatOverruns() throws Exception {
        StringBuilder events = new StringBuilder();
        StringBuilder composites = new StringBuilder();
        for (int c = 0; c < 4; c++) {
            composites.append("<Event name=\"slow").append(c).append("\">");
            for (int i = 50 * c + 1; i <= 50 * c + 50; i++) {
                events.append("<Event name=\"e").append(i).append("\"><Message><MessageType>").append(i)
                        .append("</MessageType></Message></Event>");
                composites.append("<ConstituentBasicEvent>e").append(i).append("</ConstituentBasicEvent>");
            }
            composites.append("<XQuery>string-join(for $i in 1 to 300, $j in 1 to 300 return string(count(//Event) + $i),"
                    + " '') ne ''</XQuery></Event>");
        }
        String text = """
                <?xml version="1.0" encoding="UTF-8"?>
                <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                       xmlns:action="http://my.custom-actions.domain/action" initialstate="idle">
                  <datamodel>
                    <data name="service"><ServiceName>slow</ServiceName><ServiceID>77</ServiceID>
                      <DeliveryMode>unicast</DeliveryMode><Scope>flow</Scope></data>
                    <data name="events">
                      <Basic>%s</Basic>
                      <Composite>%s</Composite>
                    </data>
                  </datamodel>
                  <state id="idle"><transition event="slow0 slow1 slow2 slow3" target="idle"/></state>
                </scxml>""".formatted(events, composites);
        ServiceRuntime slow = new ServiceRuntime(Specs.parse(text));
        io.statecast.messagestore.metrics.Counters node = new io.statecast.messagestore.metrics.Counters();
        MessageStoreConfig config = MessageStoreConfig.defaults().withWarmStartRounds(3);
        config = new MessageStoreConfig(1, MessageStoreConfig.Threading.CLOCK, 10, 10, config.instances(), 10,
                Duration.ofSeconds(1), config.specLimits(), true, Duration.ofMillis(200), Duration.ZERO, 3);
        try (WarmStart warm = new WarmStart(config, node)) {
            ServiceLoadException e = assertThrows(ServiceLoadException.class, () -> warm.run(slow));
            assertTrue(e.getMessage().contains("does not finish"), e.getMessage());
            assertEquals(1, node.warmStartOverruns());
            assertEquals(1, warm.overruns());
            // 3 rounds x 200 evaluations kept the thread busy for 8 s on an idle machine (measured);
            // stopped, it ends once the evaluation under way (about 15 ms) returns: 0.2 s
            Await.until(() -> !exercising(), 4, () -> "the warm start of a refused spec is still running");
        }
    }

    /** Whether a thread is inside a warm start's rounds. */
    private static boolean exercising() {
        for (StackTraceElement[] stack : Thread.getAllStackTraces().values()) {
            for (StackTraceElement f : stack) {
                if (f.getClassName().equals(WarmStart.class.getName()) && f.getMethodName().equals("exercise")) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    void shouldRejectOutOfRangeRounds() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MessageStoreConfig.defaults().withWarmStartRounds(0));
        assertTrue(e.getMessage().contains("warmStartRounds must be 1.."), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> MessageStoreConfig.defaults().withWarmStartRounds(MessageStoreConfig.MAX_WARM_START_ROUNDS + 1));
    }
}
