package io.statecast.messagestore.event;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounds on the XQuery and XPath expressions a spec may carry, and on their compilation and
 * evaluation. Saxon cannot be interrupted, so time is bounded from outside: expressions are
 * size- and depth-limited when the spec is loaded, recursion and function items are refused,
 * literal ranges are capped, and every compilation (and a spec's warm start) runs on a dedicated
 * worker thread with a fixed stack and a deadline ({@link BoundedWorker}). Run-time evaluations
 * run inline on shard threads with the same stack size, watched for overruns
 * ({@link EvaluationGuard}): a hand-off per evaluation would cost more than the evaluation.
 *
 * @param maxQueryChars       longest expression text accepted; default {@value #DEFAULT_MAX_QUERY_CHARS}
 * @param maxNestingDepth     deepest bracket/constructor nesting accepted before Saxon sees the
 *                            text (Saxon's parser recurses); default {@value #DEFAULT_MAX_NESTING_DEPTH}
 * @param maxRangeSize        largest literal range {@code a to b} accepted (a literal-bounded
 *                            loop is the cheapest way to burn CPU); default {@value #DEFAULT_MAX_RANGE_SIZE}
 * @param compileTimeout      how much CPU time one compilation may use; default 5 s. Measured on
 *                            the compiling thread, so a loaded machine does not refuse good
 *                            expressions; {@link #compileWallBackstop()} bounds the wall-clock time
 * @param evaluationTimeout   how long one evaluation may take at run time; default 100 ms, well
 *                            above the microseconds a predicate over a small history needs
 * @param workerStackBytes    stack size of the worker threads; default 16 MiB, so that deep but
 *                            accepted expressions compile without overflowing
 */
public record QueryLimits(
        int maxQueryChars,
        int maxNestingDepth,
        long maxRangeSize,
        Duration compileTimeout,
        Duration evaluationTimeout,
        long workerStackBytes) {

    /** Default for {@link #maxQueryChars}. */
    public static final int DEFAULT_MAX_QUERY_CHARS = 16 * 1024;
    /** Default for {@link #maxNestingDepth}. */
    public static final int DEFAULT_MAX_NESTING_DEPTH = 48;
    /** Default for {@link #maxRangeSize}. */
    public static final long DEFAULT_MAX_RANGE_SIZE = 100_000;
    /** Default for {@link #workerStackBytes}. */
    public static final long DEFAULT_WORKER_STACK_BYTES = 16L * 1024 * 1024;

    /** The defaults described above. */
    public static final QueryLimits DEFAULTS = new QueryLimits(
            DEFAULT_MAX_QUERY_CHARS,
            DEFAULT_MAX_NESTING_DEPTH,
            DEFAULT_MAX_RANGE_SIZE,
            Duration.ofSeconds(5),
            Duration.ofMillis(100),
            DEFAULT_WORKER_STACK_BYTES);

    /** The wall-clock backstop is this many times {@link #compileTimeout}. */
    public static final int WALL_BACKSTOP_FACTOR = 60;

    /**
     * Wall-clock time after which a compilation is abandoned whatever CPU time it used:
     * {@value #WALL_BACKSTOP_FACTOR} times {@link #compileTimeout} (5 minutes with the defaults), room for
     * a machine several times oversubscribed, yet finite for a task that never gets the CPU.
     */
    public Duration compileWallBackstop() {
        return compileTimeout.multipliedBy(WALL_BACKSTOP_FACTOR);
    }

    /** Checks every bound is positive. */
    public QueryLimits {
        Objects.requireNonNull(compileTimeout, "compileTimeout");
        Objects.requireNonNull(evaluationTimeout, "evaluationTimeout");
        if (maxQueryChars <= 0 || maxNestingDepth <= 0 || maxRangeSize <= 0 || workerStackBytes <= 0) {
            throw new IllegalArgumentException("query limits must be positive: " + maxQueryChars + ", "
                    + maxNestingDepth + ", " + maxRangeSize + ", " + workerStackBytes);
        }
        if (compileTimeout.isNegative() || compileTimeout.isZero()
                || evaluationTimeout.isNegative() || evaluationTimeout.isZero()) {
            throw new IllegalArgumentException("timeouts must be positive: compileTimeout=" + compileTimeout
                    + ", evaluationTimeout=" + evaluationTimeout);
        }
    }
}
