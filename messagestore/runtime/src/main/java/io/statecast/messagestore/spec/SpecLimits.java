package io.statecast.messagestore.spec;

import io.statecast.messagestore.event.QueryLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * Bounds on a spec document. Specs arrive from the network (spec server, neighbours), so every
 * dimension is capped and the load has a deadline.
 *
 * @param maxBytes     largest document accepted; default {@value #DEFAULT_MAX_BYTES} (256 KiB,
 *                     about 50 times the blueprint's hop-to-hop spec)
 * @param maxElements  most elements accepted; default {@value #DEFAULT_MAX_ELEMENTS}
 * @param maxDepth     deepest element nesting accepted; default {@value #DEFAULT_MAX_DEPTH}
 * @param loadTimeout  CPU time a load may use: parsing and checking the XML on the loading
 *                     thread plus compiling its XQuery and XPath on the engine's compile worker
 *                     (each compilation also has its own bound in {@link QueryLimits}); default
 *                     5 s. CPU time, so that a loaded machine does not refuse good specs;
 *                     {@link #loadWallBackstop()} bounds the wall-clock time
 * @param queries      bounds on the spec's XQuery and XPath
 */
public record SpecLimits(int maxBytes, int maxElements, int maxDepth, Duration loadTimeout, QueryLimits queries) {

    /** Default for {@link #maxBytes}. */
    public static final int DEFAULT_MAX_BYTES = 256 * 1024;
    /** Default for {@link #maxElements}. */
    public static final int DEFAULT_MAX_ELEMENTS = 20_000;
    /** Default for {@link #maxDepth}. */
    public static final int DEFAULT_MAX_DEPTH = 64;

    /** The defaults described above. */
    public static final SpecLimits DEFAULTS = new SpecLimits(DEFAULT_MAX_BYTES, DEFAULT_MAX_ELEMENTS, DEFAULT_MAX_DEPTH,
            Duration.ofSeconds(5), QueryLimits.DEFAULTS);

    /** Checks every bound is positive. */
    public SpecLimits {
        Objects.requireNonNull(loadTimeout, "loadTimeout");
        Objects.requireNonNull(queries, "queries");
        if (maxBytes <= 0 || maxElements <= 0 || maxDepth <= 0 || loadTimeout.isNegative() || loadTimeout.isZero()) {
            throw new IllegalArgumentException("spec limits must be positive: maxBytes=" + maxBytes + ", maxElements="
                    + maxElements + ", maxDepth=" + maxDepth + ", loadTimeout=" + loadTimeout);
        }
    }

    /**
     * Wall-clock time after which a load gives up whatever CPU time it used:
     * {@link QueryLimits#WALL_BACKSTOP_FACTOR} times {@link #loadTimeout} (5 minutes with the defaults).
     */
    public Duration loadWallBackstop() {
        return loadTimeout.multipliedBy(QueryLimits.WALL_BACKSTOP_FACTOR);
    }

    /** These limits with another maximum document size. */
    public SpecLimits withMaxBytes(int bytes) {
        return new SpecLimits(bytes, maxElements, maxDepth, loadTimeout, queries);
    }
}
