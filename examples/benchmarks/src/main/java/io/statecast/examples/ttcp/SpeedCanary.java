package io.statecast.examples.ttcp;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * A fixed piece of work timed in the calling thread's CPU time: how fast the processor runs this
 * process's code right now. On the testbed the same build took 114 µs of CPU per message summed
 * over the chain in some runs and 174 in others, every node costing more in the costly ones, with
 * no steal time. Timed on CPU time, so waiting to run does not count, the same work taking longer
 * does: fewer instructions per cycle (another tenant on the physical core or its cache), and, on
 * a kernel without IRQ time accounting, the interrupts, softirq work and hypervisor exits that ran
 * while the thread did. On the testbed it was the last: the links' tbf shaping on a timer per
 * packet (docs/testbed.md, "The links' bucket"). About 0.1 ms of work; confined to one thread.
 */
final class SpeedCanary {

    /** Rounds of the work: 0.11 ms on the testbed's Xeon once compiled (18 µs a round). */
    private static final int ROUNDS = 6;
    /** Ints walked per round: 64 KiB, within a core's own caches. */
    private static final int WORDS = 16 * 1024;
    /** Stride of the walk, odd so that it visits every word of the power-of-two array. */
    private static final int STRIDE = 1031;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final int[] words = new int[WORDS];
    /** Kept so the JIT cannot drop the work. */
    private long sink;

    /** Runs of the work that compile it fully (the loop alone has about 98,000 iterations a run). */
    static final int WARM_RUNS = 200;

    /**
     * Runs the work {@value #WARM_RUNS} times (about 20 ms once compiled), so that the JIT has
     * compiled it before the readings that count: a cold canary reads 0.3–3 ms, and compiling it
     * during a measured run would take CPU from the run.
     */
    void warm() {
        for (int i = 0; i < WARM_RUNS; i++) {
            sink += work();
        }
    }

    /** Whether this JVM measures a thread's CPU time. */
    boolean available() {
        return threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled();
    }

    /** The CPU nanoseconds the calling thread spent on the work, or -1 where that is not measured. */
    long run() {
        if (!available()) {
            return -1;
        }
        long start = threads.getCurrentThreadCpuTime();
        sink += work();
        long end = threads.getCurrentThreadCpuTime();
        return start < 0 || end < start ? -1 : end - start;
    }

    private long work() {
        long acc = sink;
        int i = 0;
        for (int r = 0; r < ROUNDS; r++) {
            for (int n = 0; n < WORDS; n++) {
                i = (i + STRIDE) & (WORDS - 1);
                acc = acc * 6364136223846793005L + words[i];
                words[i] = (int) (acc >>> 33);
            }
        }
        return acc;
    }
}
