package io.statecast.examples.ttcp;

/**
 * What ends a warm-up in every ttcp process: a garbage collection. A warm-up long enough for C2
 * fills most of a node's young generation, and the collection it would otherwise trigger landed in
 * the measured run: 160-170 ms of copying the services' lingering instances, a delay spike that
 * made a 25 Mbit/s run on two hops look unsustainable. Collected in the pause between the warm-up
 * and the run (the sender's {@code --warmup-ms}) instead, as JMH collects between iterations.
 */
final class TtcpWarmup {

    private TtcpWarmup() {
    }

    /** Collects garbage now (the sender after its last warm-up message, a receiver once it has the whole warm-up). */
    static void collectGarbage() {
        System.gc();
    }
}
