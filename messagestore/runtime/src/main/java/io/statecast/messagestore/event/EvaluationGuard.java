package io.statecast.messagestore.event;

/**
 * Brackets every Saxon evaluation so a watchdog can see how long the current one has run. The
 * shard running the evaluation implements it with two volatile writes; see
 * {@code io.statecast.messagestore.MessageStore} for what the watchdog does with an overrun.
 */
public interface EvaluationGuard {

    /** A guard that watches nothing (tests, warm start). */
    EvaluationGuard NONE = new EvaluationGuard() {
        @Override
        public void begin(Object owner, boolean firstUse) {
        }

        @Override
        public void end() {
        }
    };

    /**
     * An evaluation for {@code owner} (the service runtime whose expression runs) starts now.
     *
     * @param firstUse whether this is the first evaluation with a freshly loaded evaluator: it
     *                 may pay for class loading and JIT compilation (hundreds of milliseconds in a
     *                 cold JVM) and deserves the generous compile-time limit, not the run-time one
     */
    void begin(Object owner, boolean firstUse);

    /**
     * The evaluation ended. May throw an {@link Error} when the watchdog gave up on this thread
     * while it was evaluating: the caller must then not touch shared state again.
     */
    void end();
}
