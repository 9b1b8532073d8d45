package io.statecast.messagestore.tools.check;

import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.event.HistoryEntry;
import io.statecast.messagestore.event.HistoryReads;
import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.FieldAssignment;
import io.statecast.messagestore.spec.FieldValue;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.overlay.message.OverlayMessage;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The abstraction that decides when two instances count as the same state: the configuration,
 * the set of pending timers (identifiers only, not their delays), and a summary of the history
 * that keeps what can change the instance's control flow.
 *
 * <h2>The history summary</h2>
 * Control flow depends on the history only through composite-event queries (which events fire)
 * and through XPaths that compute a timer's identifier or delay. Events those expressions may
 * read (the loader's read analysis, {@code CompiledQuery.reads()}) are summarised finely: for
 * each event name, how many times each input (each concrete message of the alphabet, or timer)
 * was recorded, capped at {@code cap}, and which input was recorded first and which last (so
 * {@code [1]} and {@code [last()]} paths are told apart). Node records count, capped. Events only
 * other action XPaths read (to copy a message, pick a destination) count only as present or
 * absent: who sent them changes what an action sends, not which state follows, but whether one
 * is there decides whether the action can run at all. Events no expression reads do not count.
 *
 * <p>Forgotten: times, the order of entries beyond first and last, counts above the cap, the
 * senders of events only actions read. Two instances differing only there are merged and the one
 * reached first (by a shortest path) is explored, with its concrete history. A query that counts
 * more than {@code cap} identical inputs, or compares times, can therefore be misjudged; raise
 * the cap ({@code --history-cap}) for such specs.
 */
final class StateKey {

    private final ServiceSpec spec;
    private final Map<OverlayMessage, Integer> inputIndex = new IdentityHashMap<>();
    private final int cap;
    /** The events whose history entries can change which events fire or which timers run. */
    private final HistoryReads controlReads;

    StateKey(ServiceSpec spec, List<Input.Arrival> alphabet, int cap) {
        this.spec = spec;
        HistoryReads reads = HistoryReads.NONE;
        for (CompositeEventDefinition c : spec.compositeEvents()) {
            reads = reads.union(c.query().reads());
        }
        for (ActionTemplate a : spec.actions()) {
            if (a.primitive() == Primitive.SET_TIMER || a.primitive() == Primitive.CANCEL_TIMER) {
                for (FieldAssignment f : a.assignments()) {
                    if (f.value() instanceof FieldValue.HistoryQuery q) {
                        reads = reads.union(q.path().reads());
                    }
                }
            }
        }
        this.controlReads = reads;
        for (Input.Arrival a : alphabet) {
            inputIndex.put(a.message(), a.index());
        }
        this.cap = cap;
    }

    /** The key of an ended instance: every ended instance is the same state. */
    static final String ENDED = "(ended)";

    /** The key of {@code s}; {@code start} marks the state before the first message. */
    String of(Snapshot s, boolean start) {
        if (s.ended()) {
            return ENDED;
        }
        StringBuilder sb = new StringBuilder(64);
        if (start) {
            sb.append("start|");
        }
        sb.append(String.join(",", s.configuration())).append('|');
        for (Integer t : s.timers().keySet()) {
            sb.append(t).append(',');
        }
        sb.append('|');
        Map<String, Summary> summaries = new TreeMap<>();
        for (HistoryEntry e : s.entries()) {
            String name;
            int origin;
            if (e instanceof HistoryEntry.MessageEvent m) {
                if (!spec.historyXmlNeeded(m.name())) {
                    continue;
                }
                name = m.name();
                origin = inputIndex.getOrDefault(m.message(), -1);
            } else if (e instanceof HistoryEntry.TimerEvent t) {
                if (!spec.historyXmlNeeded(t.name())) {
                    continue;
                }
                name = t.name();
                origin = t.timerId();
            } else {
                name = "#node";
                origin = 0;
            }
            boolean fine = name.equals("#node") || controlReads.reads(name);
            summaries.computeIfAbsent(name, k -> new Summary()).add(fine ? origin : 0, fine ? cap : 1);
        }
        for (Map.Entry<String, Summary> e : summaries.entrySet()) {
            sb.append(e.getKey()).append(e.getValue()).append(';');
        }
        return sb.toString();
    }

    /** One event name's part of the summary. */
    private static final class Summary {
        private final TreeMap<Integer, Integer> counts = new TreeMap<>();
        private int first = Integer.MIN_VALUE;
        private int last;

        void add(int origin, int cap) {
            if (first == Integer.MIN_VALUE) {
                first = origin;
            }
            last = origin;
            counts.merge(origin, 1, (a, b) -> Math.min(cap, a + b));
        }

        @Override
        public String toString() {
            return "[" + first + ".." + last + counts + "]";
        }
    }
}
