package io.statecast.messagestore.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.MessageStoreConfig;
import io.statecast.messagestore.instance.ServiceRuntime;
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

    @Test
    void shouldRejectOutOfRangeRounds() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MessageStoreConfig.defaults().withWarmStartRounds(0));
        assertTrue(e.getMessage().contains("warmStartRounds must be 1.."), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> MessageStoreConfig.defaults().withWarmStartRounds(MessageStoreConfig.MAX_WARM_START_ROUNDS + 1));
    }
}
