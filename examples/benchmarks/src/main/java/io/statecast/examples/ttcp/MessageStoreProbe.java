package io.statecast.examples.ttcp;

import io.statecast.messagestore.MessageStore;
import io.statecast.messagestore.metrics.CountersSnapshot;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.messagestore.metrics.LatencyHistogram;
import io.statecast.messagestore.metrics.MessageStoreMetrics;
import io.statecast.messagestore.spec.Primitive;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Reads {@link MessageStore#metrics()}: the backlogs, live instances and processed count as they
 * are, T_msg's mean over the messages processed since the previous reading (from the difference
 * of two cumulative histogram snapshots), and its largest value so far (the histogram keeps no
 * per-interval maximum). Thread-safe: the sampler and the final report may read concurrently.
 */
final class MessageStoreProbe implements StoreProbe {

    private final MessageStore store;
    private long previousCount;
    private long previousTotalNanos;

    MessageStoreProbe(MessageStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public boolean available() {
        return true;
    }

    @Override
    public String reason() {
        return "MessageStore.metrics() of the installed " + store.getClass().getSimpleName();
    }

    @Override
    public synchronized Snapshot snapshot() {
        MessageStoreMetrics m = store.metrics();
        CountersSnapshot node = m.node();
        LatencyHistogram.Snapshot t = node.processing();
        long n = t.count() - previousCount;
        long total = t.totalNanos() - previousTotalNanos;
        previousCount = t.count();
        previousTotalNanos = t.totalNanos();
        Double mean = n > 0 ? total / 1e3 / n : null;
        Double max = t.count() > 0 ? t.maxNanos() / 1e3 : null;
        return new Snapshot((long) m.dataBacklog(), (long) m.controlBacklog(), (long) node.liveInstances(),
                node.messages(), mean, max);
    }

    @Override
    public Map<String, Long> drops() {
        CountersSnapshot node = store.metrics().node();
        Map<String, Long> out = new LinkedHashMap<>();
        for (DropReason r : DropReason.values()) {
            out.put(r.name().toLowerCase(Locale.ROOT), node.drops(r));
        }
        return out;
    }

    @Override
    public Map<String, Long> activity() {
        CountersSnapshot node = store.metrics().node();
        Map<String, Long> out = new LinkedHashMap<>();
        out.put("messages", node.messages());
        out.put("timerEvents", node.timerEvents());
        out.put("created", node.created());
        out.put("finished", node.finished());
        out.put("terminated", node.terminated());
        out.put("expired", node.expired());
        for (Primitive p : Primitive.values()) {
            long n = node.executed(p);
            if (n > 0) {
                out.put(p.specName(), n);
            }
        }
        return out;
    }
}
