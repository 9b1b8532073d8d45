package io.statecast.examples.ttcp;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What ends a warm-up in every ttcp process: a garbage collection. A warm-up long enough for C2
 * fills most of a node's young generation, and the collection it would otherwise trigger landed in
 * the measured run: 160-170 ms of copying the services' lingering instances, a delay spike that
 * made a 25 Mbit/s run on two hops look unsustainable. Collected in the pause between the warm-up
 * and the run (the sender's {@code --warmup-ms}) instead, as JMH collects between iterations.
 *
 * <p>A receiver collects on a thread of its own ({@link #collectInBackground}): with ZGC,
 * {@code System.gc()} returns only when a whole new cycle has finished, and at 5 hops on two
 * cores a cycle took 4-8 s. Called on the receive loop mid-warm-up (after a half second of
 * silence while e2e-ack's send window was closed), it stopped the loop for 13 s; the
 * application's queue of 65,536 messages overflowed, and the 23,000 warm-up messages it dropped
 * at that node were never repaired — the service had delivered them.
 */
final class TtcpWarmup {

    private final AtomicBoolean collecting = new AtomicBoolean();

    /** Collects garbage now, on the calling thread (the sender, after its last warm-up message). */
    static void collectGarbage() {
        System.gc();
    }

    /**
     * Starts a collection on a daemon thread, unless one this object started is still running.
     *
     * @return whether a collection was started
     */
    boolean collectInBackground() {
        if (!collecting.compareAndSet(false, true)) {
            return false;
        }
        Thread t = new Thread(() -> {
            try {
                System.gc();
            } finally {
                collecting.set(false);
            }
        }, "ttcp-warmup-gc");
        t.setDaemon(true);
        t.start();
        return true;
    }

    /** Whether a collection this object started is still running. */
    boolean collecting() {
        return collecting.get();
    }
}
