package io.statecast.overlay.node;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;

/**
 * Named event counters of an overlay node (drops by cause, messages by type). Counted from any
 * thread; read as a sorted snapshot for {@link OverlayNode#counters()}.
 */
public final class NodeCounters {

    private final ConcurrentHashMap<String, LongAdder> counters = new ConcurrentHashMap<>();
    /** Told of every counter once (metrics binding); {@code null} until {@link #watch}. */
    private volatile BiConsumer<String, LongAdder> watcher;

    /** Adds one to the counter of {@code event}. */
    public void count(NodeEvent event) {
        count(event.label());
    }

    /**
     * Adds one to the counter of malformed protocol messages refused for {@code reason}, named
     * {@code malformed.REASON}.
     */
    public void countMalformed(Enum<?> reason) {
        count(MALFORMED + reason.name());
    }

    /** Prefix of the counters of malformed protocol messages, by the decoder's reason. */
    public static final String MALFORMED = "malformed.";

    /** Adds one to the counter {@code name}, creating it at zero first. */
    private void count(String name) {
        LongAdder a = counters.get(name);
        if (a == null) {
            a = create(name);
        }
        a.increment();
    }

    private LongAdder create(String name) {
        LongAdder fresh = new LongAdder();
        LongAdder prior = counters.putIfAbsent(name, fresh);
        if (prior != null) {
            return prior;
        }
        BiConsumer<String, LongAdder> w = watcher;
        if (w != null) {
            w.accept(name, fresh); // once per name, outside the map's lock: never on the steady-state path
        }
        return fresh;
    }

    /**
     * Tells {@code w} of every counter that exists now and of each one created later (once per
     * name, on the thread that first counts it; a name may be told twice if it is created while
     * this runs). Used to bind each counter as a meter that reads it. One watcher per instance.
     */
    public void watch(BiConsumer<String, LongAdder> w) {
        watcher = w;
        counters.forEach(w);
    }

    /** Every counter's current value, sorted by name. */
    public Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        counters.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }
}
