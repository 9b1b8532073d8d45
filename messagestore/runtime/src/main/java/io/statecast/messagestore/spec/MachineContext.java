package io.statecast.messagestore.spec;

/**
 * What a machine needs from its instance: timers for its delayed {@code <send>}s (in the runtime,
 * the instance's own timers on the shard's timer wheel, bounded by {@code timersPerInstance}, so
 * a delayed event arrives on the instance's thread like a timer expiry), and the platform
 * variables its expressions read as {@code $_x}.
 */
public interface MachineContext {

    /** For a machine without an instance: scheduling fails, {@code $_x} is empty. */
    MachineContext NONE = new MachineContext() {
        @Override
        public Object schedule(long delayMillis, Runnable task) {
            throw new IllegalStateException("this machine has no timers for delayed <send>");
        }

        @Override
        public void cancel(Object handle) {
        }
    };

    /**
     * Runs {@code task} on the instance's thread after {@code delayMillis}, through
     * {@link MachineState#runDelayed}.
     *
     * @return a handle for {@link #cancel}
     * @throws IllegalStateException naming why no timer can be set (the instance's limit)
     */
    Object schedule(long delayMillis, Runnable task);

    /** Cancels a task not yet run. */
    void cancel(Object handle);

    /**
     * {@code $_x}: a map of the instance's history document ({@code history}), the node's
     * logical address ({@code address}), clock in ms ({@code time}), neighbours
     * ({@code neighbours}) and each measured neighbour's round-trip time and its variation in ms
     * ({@code rtt}, {@code rttvar}: maps keyed by neighbour address). Empty by default.
     */
    default net.sf.saxon.s9api.XdmValue platform() {
        return net.sf.saxon.s9api.XdmEmptySequence.getInstance();
    }

    /** {@code $_x?key} for the compiled subset ({@link io.statecast.messagestore.chart.ChartHost#platformEntry}). */
    default Object platformEntry(String key) {
        return io.statecast.messagestore.chart.PlatformEntries.entry(platform(), key);
    }

    /** {@code $_x?map?(key)} for the compiled subset. */
    default Object platformLookup(String map, String key) {
        return io.statecast.messagestore.chart.PlatformEntries.lookup(platform(), map, key);
    }

    /**
     * A compiled read of the history for the datamodel's evaluators
     * ({@link io.statecast.messagestore.chart.ChartHost#historyItems}); {@code null} (the default)
     * when this context has no history: Saxon evaluates the expression over {@link #platform}.
     */
    default java.util.List<Object> historyItems(io.statecast.messagestore.event.CompiledExpression read,
            io.statecast.messagestore.event.DatamodelValues data) {
        return null;
    }

    /** {@code $_x?map?*} for the compiled subset; {@code null} when not a map. */
    default Object[] platformValues(String map) {
        return io.statecast.messagestore.chart.PlatformEntries.values(platform(), map);
    }
}
