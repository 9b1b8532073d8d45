package io.statecast.messagestore.deploy;

import static io.statecast.messagestore.deploy.PublishGate.Decision.ADMIT;
import static io.statecast.messagestore.deploy.PublishGate.Decision.RATE_LIMITED;
import static io.statecast.messagestore.deploy.PublishGate.Decision.RECENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The bounds on publishing in answer to Service Requests, on a virtual clock. */
class PublishGateTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());
    private static final long S = Duration.ofSeconds(1).toNanos();

    @Test
    void shouldAdmitEachServiceIdOncePerIntervalAndAllTogetherWithinTheBucket() {
        PublishGate g = new PublishGate(Duration.ofSeconds(10), 3, 100);
        long t = 5 * S;
        assertEquals(ADMIT, g.admit(1, t));
        assertEquals(RECENT, g.admit(1, t + 9 * S));
        assertEquals(ADMIT, g.admit(2, t));
        assertEquals(ADMIT, g.admit(3, t));
        assertEquals(RATE_LIMITED, g.admit(4, t), "three a minute");
        assertEquals(RATE_LIMITED, g.admit(4, t + 19 * S), "one token takes 20 s");
        assertEquals(ADMIT, g.admit(4, t + 20 * S));
        g.failed(4);
        assertEquals(RATE_LIMITED, g.admit(4, t + 20 * S), "a failed publish may be retried, within the bucket");
        assertEquals(ADMIT, g.admit(4, t + 40 * S));
    }

    @Test
    void shouldNeverAdmitMoreThanTheBucketAllowsWhateverTheRequests() {
        Random random = new Random(SEED);
        int perMinute = 1 + random.nextInt(20);
        PublishGate g = new PublishGate(Duration.ofMillis(1 + random.nextInt(5000)), perMinute, 1 + random.nextInt(50));
        long t = 0;
        int admitted = 0;
        int minutes = 10;
        for (int i = 0; i < 100_000; i++) {
            t += random.nextInt((int) (minutes * 60 * S / 100_000) * 2 + 1);
            if (g.admit(random.nextInt(200), t) == ADMIT) {
                admitted++;
            }
        }
        long bound = perMinute + (long) Math.ceil((double) t / (60 * S) * perMinute);
        int a = admitted;
        assertTrue(a <= bound, () -> "seed " + SEED + ": " + a + " admitted, bound " + bound);
    }
}
