package io.statecast.overlay.node;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Named event counters of an overlay node (drops by cause, messages by type). Counted from any
 * thread; read as a sorted snapshot for {@link OverlayNode#counters()}.
 */
public final class NodeCounters {

    private final ConcurrentHashMap<String, LongAdder> counters = new ConcurrentHashMap<>();

    /** Adds one to the counter {@code name}, creating it at zero first. */
    public void count(String name) {
        counters.computeIfAbsent(name, k -> new LongAdder()).increment();
    }

    /** Every counter's current value, sorted by name. */
    public Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        counters.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }
}
