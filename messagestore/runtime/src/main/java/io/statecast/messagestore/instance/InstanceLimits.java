package io.statecast.messagestore.instance;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.statecast.overlay.socket.ConfigValueException;

/**
 * Bounds on service instances, so that no spec and no traffic pattern can exhaust the node.
 *
 * @param maxLiveInstances        live instances per store; a message that would create one more
 *                                is dropped and counted ({@code INSTANCE_LIMIT}). Default
 *                                {@value #DEFAULT_MAX_LIVE_INSTANCES}: at 2–10 KiB per instance
 *                                (engine plus a short history) well under 1 GiB
 * @param historyEntries          history entries (events and node records) kept per instance;
 *                                beyond it the oldest is evicted and counted. Default
 *                                {@value #DEFAULT_HISTORY_ENTRIES}: a message-scope instance sees a
 *                                handful of events; a flow keeps its recent past
 * @param actionHistoryEntries    executed actions remembered per instance (for inspection).
 *                                Default {@value #DEFAULT_ACTION_HISTORY_ENTRIES}
 * @param timersPerInstance       distinct timers an instance may have set at once; setting one
 *                                more fails the action. Default {@value #DEFAULT_TIMERS_PER_INSTANCE}
 * @param primitiveBurst          primitive calls an instance may make at once (token bucket size);
 *                                also the most messages of the node's application an instance
 *                                keeps waiting for the budget. Default {@value #DEFAULT_PRIMITIVE_BURST}
 * @param primitiveRatePerSecond  sustained primitive calls per second per instance. The budget is
 *                                checked before each step, never inside one: with it spent, a
 *                                message from the network is dropped before the chart sees it,
 *                                counted ({@code THROTTLED}) and logged; a timer expiry or a message
 *                                of the node's application waits until it refills. A step that
 *                                starts makes all its calls, into debt if need be (repaid before the
 *                                next step). Default {@value #DEFAULT_PRIMITIVE_RATE}: a hop-to-hop
 *                                instance makes about ten calls in its life, while a flow relaying a
 *                                fast stream makes two or three per message
 * @param idleTimeoutMs           an instance no message reached for this long is removed (timers
 *                                do not keep it alive). Default {@value #DEFAULT_IDLE_TIMEOUT_MS}
 * @param tombstones              ended message-scope instances remembered per store so that a late
 *                                duplicate or acknowledgement does not start them again; the oldest
 *                                is forgotten first. Default {@value #DEFAULT_TOMBSTONES}
 * @param tombstoneTtlMs          how long an ended instance is remembered. Default
 *                                {@value #DEFAULT_TOMBSTONE_TTL_MS}: twice the blueprint's longest
 *                                hop-to-hop timeout (TimeoutFinalDelete, 60 s)
 */
public record InstanceLimits(
        int maxLiveInstances,
        int historyEntries,
        int actionHistoryEntries,
        int timersPerInstance,
        int primitiveBurst,
        double primitiveRatePerSecond,
        long idleTimeoutMs,
        int tombstones,
        long tombstoneTtlMs) {

    /** Default of {@link #maxLiveInstances}. */
    public static final int DEFAULT_MAX_LIVE_INSTANCES = 50_000;
    /** Default of {@link #historyEntries}. */
    public static final int DEFAULT_HISTORY_ENTRIES = 128;
    /** Default of {@link #actionHistoryEntries}. */
    public static final int DEFAULT_ACTION_HISTORY_ENTRIES = 32;
    /** Default of {@link #timersPerInstance}. */
    public static final int DEFAULT_TIMERS_PER_INSTANCE = 64;
    /** Default of {@link #primitiveBurst}. */
    public static final int DEFAULT_PRIMITIVE_BURST = 200;
    /** Default of {@link #primitiveRatePerSecond}. */
    public static final double DEFAULT_PRIMITIVE_RATE = 2_000;
    /** Default of {@link #idleTimeoutMs}. */
    public static final long DEFAULT_IDLE_TIMEOUT_MS = 300_000;
    /** Default of {@link #tombstones}. */
    public static final int DEFAULT_TOMBSTONES = 100_000;
    /** Default of {@link #tombstoneTtlMs}. */
    public static final long DEFAULT_TOMBSTONE_TTL_MS = 120_000;

    /** The defaults. */
    public static final InstanceLimits DEFAULTS = new InstanceLimits(DEFAULT_MAX_LIVE_INSTANCES,
            DEFAULT_HISTORY_ENTRIES, DEFAULT_ACTION_HISTORY_ENTRIES, DEFAULT_TIMERS_PER_INSTANCE,
            DEFAULT_PRIMITIVE_BURST, DEFAULT_PRIMITIVE_RATE, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_TOMBSTONES,
            DEFAULT_TOMBSTONE_TTL_MS);

    /** Checks ranges; the message names the field and the value. */
    public InstanceLimits {
        positive("maxLiveInstances", maxLiveInstances);
        positive("historyEntries", historyEntries);
        positive("actionHistoryEntries", actionHistoryEntries);
        positive("timersPerInstance", timersPerInstance);
        positive("primitiveBurst", primitiveBurst);
        if (!(primitiveRatePerSecond > 0) || Double.isInfinite(primitiveRatePerSecond)) {
            throw new IllegalArgumentException("primitiveRatePerSecond must be > 0, got " + primitiveRatePerSecond);
        }
        positive("idleTimeoutMs", idleTimeoutMs);
        if (tombstones < 0) {
            throw new IllegalArgumentException("tombstones must be >= 0, got " + tombstones);
        }
        positive("tombstoneTtlMs", tombstoneTtlMs);
    }

    /**
     * The {@code instances} section of a node's configuration ({@code docs/config.md}): the file's
     * field names, the defaults above for absent fields, and the ranges a file may set.
     */
    @JsonCreator
    static InstanceLimits fromJson(
            @JsonProperty("maxLive") Long maxLive,
            @JsonProperty("historyEntries") Long historyEntries,
            @JsonProperty("actionHistoryEntries") Long actionHistoryEntries,
            @JsonProperty("timersPerInstance") Long timersPerInstance,
            @JsonProperty("primitiveBurst") Long primitiveBurst,
            @JsonProperty("primitiveRatePerSecond") Double primitiveRatePerSecond,
            @JsonProperty("idleTimeoutMs") Long idleTimeoutMs,
            @JsonProperty("tombstones") Long tombstones,
            @JsonProperty("tombstoneTtlMs") Long tombstoneTtlMs) {
        return new InstanceLimits(
                ConfigValueException.within("maxLive", maxLive, DEFAULT_MAX_LIVE_INSTANCES, 1, 10_000_000),
                ConfigValueException.within("historyEntries", historyEntries, DEFAULT_HISTORY_ENTRIES, 1, 100_000),
                ConfigValueException.within("actionHistoryEntries", actionHistoryEntries, DEFAULT_ACTION_HISTORY_ENTRIES,
                        1, 10_000),
                ConfigValueException.within("timersPerInstance", timersPerInstance, DEFAULT_TIMERS_PER_INSTANCE, 1, 10_000),
                ConfigValueException.within("primitiveBurst", primitiveBurst, DEFAULT_PRIMITIVE_BURST, 1, 1_000_000),
                ConfigValueException.within("primitiveRatePerSecond", primitiveRatePerSecond, DEFAULT_PRIMITIVE_RATE,
                        0.001, 10_000_000),
                ConfigValueException.within("idleTimeoutMs", idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS, 1, 86_400_000L * 30),
                ConfigValueException.within("tombstones", tombstones, DEFAULT_TOMBSTONES, 0, 10_000_000),
                ConfigValueException.within("tombstoneTtlMs", tombstoneTtlMs, DEFAULT_TOMBSTONE_TTL_MS, 1, 86_400_000L));
    }

    private static void positive(String name, long v) {
        if (v <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, got " + v);
        }
    }

    /** These limits with another live-instance bound. */
    public InstanceLimits withMaxLiveInstances(int n) {
        return new InstanceLimits(n, historyEntries, actionHistoryEntries, timersPerInstance, primitiveBurst,
                primitiveRatePerSecond, idleTimeoutMs, tombstones, tombstoneTtlMs);
    }

    /** These limits with another primitive rate bound. */
    public InstanceLimits withPrimitiveRate(int burst, double perSecond) {
        return new InstanceLimits(maxLiveInstances, historyEntries, actionHistoryEntries, timersPerInstance, burst,
                perSecond, idleTimeoutMs, tombstones, tombstoneTtlMs);
    }

    /** These limits with another history bound. */
    public InstanceLimits withHistoryEntries(int n) {
        return new InstanceLimits(maxLiveInstances, n, actionHistoryEntries, timersPerInstance, primitiveBurst,
                primitiveRatePerSecond, idleTimeoutMs, tombstones, tombstoneTtlMs);
    }

    /** These limits with other tombstone bounds. */
    public InstanceLimits withTombstones(int n, long ttlMs) {
        return new InstanceLimits(maxLiveInstances, historyEntries, actionHistoryEntries, timersPerInstance,
                primitiveBurst, primitiveRatePerSecond, idleTimeoutMs, n, ttlMs);
    }

    /** These limits with another idle timeout. */
    public InstanceLimits withIdleTimeoutMs(long ms) {
        return new InstanceLimits(maxLiveInstances, historyEntries, actionHistoryEntries, timersPerInstance,
                primitiveBurst, primitiveRatePerSecond, ms, tombstones, tombstoneTtlMs);
    }
}
