package io.statecast.messagestore.chart;

/**
 * What a running {@link Session} needs from whoever hosts it: a log, timers for delayed
 * {@code <send>}, and a wake-up when it queued an event for itself. Called on the session's
 * thread; a timer task must be run on that thread too.
 */
public interface ChartHost {

    /** A {@code <log>}: its label (empty when absent) and the expression's string value. */
    void log(String label, String value);

    /**
     * Runs {@code task} on the session's thread after {@code delayMillis}.
     *
     * @return a handle for {@link #cancel}
     */
    Object schedule(long delayMillis, Runnable task);

    /** Cancels a task of {@link #schedule} that has not run; a task already run is ignored. */
    void cancel(Object handle);

    /** The session queued an external event for itself: call {@link Session#processExternal()} soon. */
    default void externalQueued(Session session) {
    }

    /**
     * Custom executable content ran: {@code payload} is what
     * {@link ChartOptions.CustomActions#compile} made of it. Must not throw.
     */
    default void custom(Object payload) {
    }

    /**
     * The value of {@code $_x}, the Recommendation's place for a platform's own system variables:
     * an XPath map (for example {@code $_x?history}, {@code $_x?address}), asked for each time an
     * expression that names {@code $_x} is evaluated. Its nodes must come from the configuration
     * that compiled the chart. Empty by default.
     */
    default net.sf.saxon.s9api.XdmValue platform(Session session) {
        return net.sf.saxon.s9api.XdmEmptySequence.getInstance();
    }

    /**
     * The value of the spec parameter {@code name} (one of {@link ChartOptions#parameters}) as
     * text, which expressions read as {@code xs:untypedAtomic}, like an atomized variable; asked
     * for once per session and name. {@code null} (the default) reads as the empty sequence.
     */
    default String parameter(String name) {
        return null;
    }

    /**
     * {@code $_x?key} for the compiled subset: a {@link Long}, {@link Double} or {@link String},
     * {@code null} when absent, {@link PlatformEntries#NOT_ATOMIC} for anything else. By default
     * read from {@link #platform}; a host may answer without building the map, with the same value.
     */
    default Object platformEntry(Session session, String key) {
        return PlatformEntries.entry(platform(session), key);
    }

    /** {@code $_x?map?(key)} for the compiled subset, as {@link #platformEntry}; {@link PlatformEntries#NOT_ATOMIC} when not a map. */
    default Object platformLookup(Session session, String map, String key) {
        return PlatformEntries.lookup(platform(session), map, key);
    }

    /** {@code $_x?map?*} for the compiled subset (each as {@link #platformEntry}); {@code null} when not a map. */
    default Object[] platformValues(Session session, String map) {
        return PlatformEntries.values(platform(session), map);
    }

    /**
     * The items of a compiled read of the instance's history ({@code $_x?history/…} in a
     * {@code cond} or {@code <assign expr>}), atomized
     * ({@link io.statecast.messagestore.event.CompiledExpression#atomized}), with the session's
     * variables {@code data}; empty when the host has no history to read (as {@code $_x?history}
     * is then empty), {@code null} when it cannot answer (the default: no history; or the
     * evaluation failed): the expression then runs on Saxon, which reports any error.
     */
    default java.util.List<Object> historyItems(Session session, io.statecast.messagestore.event.CompiledExpression read,
            io.statecast.messagestore.event.DatamodelValues data) {
        return null;
    }

    /**
     * The session's {@code _sessionid}, asked for once, when the session first needs it (a
     * session whose chart never reads it costs nothing for it).
     */
    default String sessionId(Session session) {
        return Integer.toHexString(System.identityHashCode(session));
    }
}
