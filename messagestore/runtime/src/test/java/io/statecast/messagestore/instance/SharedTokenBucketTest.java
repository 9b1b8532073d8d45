package io.statecast.messagestore.instance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SharedTokenBucketTest {

    @Test
    void shouldAllowTheBurstAtOnceThenTheRate() {
        SharedTokenBucket b = new SharedTokenBucket(new SendBudget(1000, 5), 0); // one per ms
        for (int i = 0; i < 5; i++) {
            assertTrue(b.tryTake(0), "token " + i + " of the burst");
        }
        assertFalse(b.tryTake(0));
        assertFalse(b.tryTake(999_999));
        assertTrue(b.tryTake(1_000_000), "one interval later");
        assertFalse(b.tryTake(1_000_000));
        assertTrue(b.tryTake(1_000_000_000L), "a long pause refills to the burst, no more");
        int more = 0;
        while (b.tryTake(1_000_000_000L)) {
            more++;
        }
        assertEquals(4, more);
    }

    /** Threads taking at one instant get exactly the burst between them. */
    @Test
    void shouldGiveConcurrentTakersTheBurstAndNoMore() throws Exception {
        SharedTokenBucket b = new SharedTokenBucket(new SendBudget(1, 10_000), 0);
        AtomicInteger taken = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 10_000; i++) {
                    if (b.tryTake(5)) {
                        taken.incrementAndGet();
                    }
                }
            });
            threads[t].start();
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(10_000, taken.get());
    }
}
