package io.statecast.messagestore.tools.check;

import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.event.HistoryEntry;
import io.statecast.messagestore.event.HistoryReads;
import io.statecast.messagestore.event.MessageAttribute;
import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.FieldAssignment;
import io.statecast.messagestore.spec.FieldValue;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.tools.SpecGraph;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Set;
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
 * and through XPaths that compute a timer's identifier or delay; and only through those the
 * instance can still meet: the expressions of the steps the spec's graph can take from the
 * current configuration on (the <em>live</em> expressions; every transition assumed possible).
 *
 * <ul>
 *   <li>Events a live query or timer XPath may read (the loader's read analysis,
 *       {@code CompiledQuery.reads()}) are summarised finely: for each event name, how many times
 *       each kind of input was recorded, capped at {@code cap}, and which kind was recorded first
 *       and which last (so {@code [1]} and {@code [last()]} paths are told apart). Two messages
 *       are of one kind when they agree on every message attribute the spec's queries and timer
 *       XPaths name ({@code SourceAddress}, {@code DeliveryMode}, …; all attributes when one of
 *       them may read a message without naming its children: a wildcard, {@code string(…)},
 *       {@code data(…)}, {@code ..}, {@code Payload}); a timer expiry's kind is its timer.</li>
 *   <li>Events only other live action XPaths read (to copy a message, pick a destination) count
 *       only as present or absent: who sent them changes what an action sends, not which state
 *       follows, but whether one is there decides whether the action can run at all.</li>
 *   <li>Node records count, capped, while any expression is live. Other entries do not count.</li>
 * </ul>
 *
 * <p>Events read by a query that may count ({@code count(…)}, {@code sum(…)}) are counted
 * exactly up to {@code exactCap} (the depth bound), since any cap below it could hide the very
 * count the query waits for.
 *
 * <p>Forgotten: times, the order of entries beyond first and last, counts above the cap, the
 * senders of events only actions read. Two instances differing only there are merged and the one
 * reached first (by a shortest path) is explored, with its concrete history. A query that counts
 * identical inputs without {@code count(…)} or {@code sum(…)} (positional predicates such as
 * {@code [3]}), or compares times, can therefore be misjudged; raise the cap
 * ({@code --history-cap}) for such specs.
 */
final class StateKey {

    private final ServiceSpec spec;
    private final Map<OverlayMessage, Integer> inputIndex = new IdentityHashMap<>();
    private final int cap;
    /** Events some counting query reads: counted exactly, up to {@link #exactCap}. */
    private final HistoryReads counted;
    private final int exactCap;
    private final SpecGraph graph;
    private final Map<String, Live> live = new HashMap<>();

    StateKey(ServiceSpec spec, SpecGraph graph, List<Input.Arrival> alphabet, int cap, int exactCap) {
        this.spec = spec;
        this.graph = graph;
        List<String> texts = new ArrayList<>();
        HistoryReads counted = HistoryReads.NONE;
        for (CompositeEventDefinition c : spec.compositeEvents()) {
            texts.add(c.query().text());
            if (counts(c.query().text())) {
                counted = counted.union(c.query().reads());
            }
        }
        for (ActionTemplate a : spec.actions()) {
            if (controlsTimers(a)) {
                for (FieldAssignment f : a.assignments()) {
                    if (f.value() instanceof FieldValue.HistoryQuery q) {
                        texts.add(q.path().text());
                    }
                }
            }
        }
        Set<MessageAttribute> attributes = attributesRead(texts);
        Map<String, Integer> classes = new HashMap<>();
        for (Input.Arrival a : alphabet) {
            String projection = project(a.message(), attributes);
            inputIndex.put(a.message(), classes.computeIfAbsent(projection, k -> classes.size()));
        }
        this.cap = cap;
        this.counted = counted;
        this.exactCap = Math.max(cap, exactCap);
    }

    /** Whether a query may count entries (then the cap would hide what it looks for). */
    private static boolean counts(String text) {
        return text.contains("count(") || text.contains("sum(");
    }

    private static boolean controlsTimers(ActionTemplate a) {
        return a.primitive() == Primitive.SET_TIMER || a.primitive() == Primitive.CANCEL_TIMER;
    }

    /**
     * What the history can still matter for once an instance is in {@code configuration}: the
     * expressions of every step the spec's graph can take from there (every transition assumed
     * possible). Entries of events none of them reads can change nothing any more.
     *
     * @param control  events read by composite queries handled there and by timer XPaths
     * @param presence events read by the other action XPaths
     * @param node     whether any of those expressions exists (node records count then)
     */
    private record Live(HistoryReads control, HistoryReads presence, boolean node) {
    }

    private Live live(List<String> configuration) {
        return live.computeIfAbsent(String.join(",", configuration), k -> {
            HistoryReads control = HistoryReads.NONE;
            HistoryReads presence = HistoryReads.NONE;
            boolean any = false;
            for (String state : graph.reachableFrom(configuration)) {
                for (SpecGraph.Step step : graph.stepsFrom(state)) {
                    for (CompositeEventDefinition c : spec.compositeEvents()) {
                        if (c.name().equals(step.event())) {
                            control = control.union(c.query().reads());
                            any = true;
                        }
                    }
                    for (SpecGraph.ActionSite site : step.actions()) {
                        for (FieldAssignment f : site.action().assignments()) {
                            if (f.value() instanceof FieldValue.HistoryQuery q) {
                                any = true;
                                if (controlsTimers(site.action())) {
                                    control = control.union(q.path().reads());
                                } else {
                                    presence = presence.union(q.path().reads());
                                }
                            }
                        }
                    }
                }
            }
            return new Live(control, presence, any);
        });
    }

    /** Words whose presence in an expression may read a message's content without naming it. */
    private static final List<String> WHOLE_MESSAGE = List.of("*", "node()", "data(", "string(", "deep-equal",
            "serialize", "text()", "..", "Payload");

    /**
     * The message attributes the control expressions may read: those named in their text, or all
     * when a text may read a message without naming its children (a wildcard, {@code string(…)}, …).
     */
    static Set<MessageAttribute> attributesRead(List<String> texts) {
        Set<MessageAttribute> out = EnumSet.noneOf(MessageAttribute.class);
        for (String t : texts) {
            for (String w : WHOLE_MESSAGE) {
                if (t.contains(w)) {
                    return EnumSet.allOf(MessageAttribute.class);
                }
            }
            for (MessageAttribute a : MessageAttribute.values()) {
                if (t.contains(a.elementName())) {
                    out.add(a);
                }
            }
        }
        return out;
    }

    /** The values of {@code attributes} in {@code m}: inputs with equal projections are told apart by nothing read. */
    private static String project(OverlayMessage m, Set<MessageAttribute> attributes) {
        StringBuilder sb = new StringBuilder();
        FsmExtension f = m.fsm();
        for (MessageAttribute a : attributes) {
            Object v = switch (a) {
                case MESSAGE_IDENTIFIER -> f == null ? null : f.messageId();
                case SERVICE_IDENTIFIER -> f == null ? null : f.serviceId();
                case DELIVERY_MODE -> m.mode();
                case HOP_LIMIT -> m.hopLimit();
                case SOURCE_ADDRESS -> m.source();
                case DESTINATION_ADDRESS -> m.destination();
                case PREVIOUS_HOP_ADDRESS -> m.previousHop();
                case ROOT_ADDRESS -> m.treeRoot();
                case MESSAGE_TYPE -> f == null ? null : f.messageType();
                case MESSAGE_KIND -> m.payload() != null;
            };
            sb.append(a.ordinal()).append('=').append(v).append(';');
        }
        return sb.toString();
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
        Live live = live(s.configuration());
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
            } else if (live.node()) {
                name = "#node";
                origin = 0;
            } else {
                continue;
            }
            boolean fine = name.equals("#node") || live.control().reads(name);
            if (!fine && !live.presence().reads(name)) {
                continue;
            }
            int limit = !fine ? 1 : counted.reads(name) ? exactCap : cap;
            summaries.computeIfAbsent(name, k -> new Summary()).add(fine ? origin : 0, limit);
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
