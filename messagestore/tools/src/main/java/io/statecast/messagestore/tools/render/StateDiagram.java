package io.statecast.messagestore.tools.render;

import io.statecast.messagestore.event.AttributeTest;
import io.statecast.messagestore.event.AttributeValues;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.event.TimerEventDefinition;
import io.statecast.messagestore.spec.ActionField;
import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.FieldValue;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecStructure.StateInfo;
import io.statecast.messagestore.spec.SpecStructure.StateKind;
import io.statecast.messagestore.spec.SpecStructure.TransitionInfo;
import io.statecast.messagestore.tools.TimerAnalysis;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;

/**
 * What a state diagram of a spec shows, before any layout: the blueprint's figures (3.6, 3.8,
 * 4.6–4.8) as nodes and arcs. Every state is a node (compound and parallel states contain their
 * children); the initial state is pointed at from a dot; each transition is an arc labelled
 * "event / primitives", a targetless one a self-loop, one that executes {@code terminate} an arc
 * to a terminate mark (⊗); arcs on composite events are a kind of their own.
 *
 * @param title the service name and ServiceID
 * @param nodes every node; a child follows its parent
 * @param edges every arc, in document order of the transitions
 */
public record StateDiagram(String title, List<Node> nodes, List<Edge> edges) {

    /** Copies the lists. */
    public StateDiagram {
        Objects.requireNonNull(title, "title");
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
    }

    /** What a node stands for. */
    public enum NodeKind {
        /** A {@code <state>} or {@code <parallel>}. */
        STATE,
        /** A {@code <final>} state (drawn with a double border). */
        FINAL,
        /** The dot the initial arc starts from. */
        INITIAL_MARK,
        /** Where arcs that execute {@code terminate} end (⊗). */
        TERMINATE_MARK
    }

    /** What an arc stands for. */
    public enum EdgeKind {
        /** A transition on a message or timer event. */
        BASIC,
        /** A transition on a composite event (dashed, in another colour). */
        COMPOSITE,
        /** From an initial mark to the state entered first. */
        INITIAL
    }

    /**
     * One node.
     *
     * @param id       unique among the diagram's nodes; a state's id for states
     * @param kind     what it stands for
     * @param parent   id of the enclosing node, or {@code null}
     * @param name     the state's id; empty for marks
     * @param entry    the primitives of its {@code <onentry>}, as written on arcs
     * @param exit     the primitives of its {@code <onexit>}
     * @param parallel whether the state is a {@code <parallel>} (its regions are drawn dashed)
     */
    public record Node(String id, NodeKind kind, String parent, String name, List<String> entry, List<String> exit,
            boolean parallel) {

        /** Copies the lists. */
        public Node {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(name, "name");
            entry = List.copyOf(entry);
            exit = List.copyOf(exit);
        }

        /** Whether it is a state (not a mark). */
        public boolean isState() {
            return kind == NodeKind.STATE || kind == NodeKind.FINAL;
        }
    }

    /**
     * One arc.
     *
     * @param id      unique among the diagram's arcs
     * @param source  id of the node it leaves
     * @param target  id of the node it enters
     * @param kind    what it stands for
     * @param event   the triggering event; empty for an initial arc
     * @param actions the primitives executed, in order, as written on the arc
     *                ({@code setTimer(acktimeout)})
     * @param line    the transition's line in the spec; 0 for an initial arc
     */
    public record Edge(String id, String source, String target, EdgeKind kind, String event, List<String> actions,
            int line) {

        /** Copies the actions. */
        public Edge {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(event, "event");
            actions = List.copyOf(actions);
        }

        /** The label as one line: {@code event / a, b}; the event alone without actions. */
        public String label() {
            if (kind == EdgeKind.INITIAL) {
                return String.join(", ", actions);
            }
            return actions.isEmpty() ? event : event + " / " + String.join(", ", actions);
        }
    }

    /** The node with this id, or {@code null}. */
    public Node node(String id) {
        for (Node n : nodes) {
            if (n.id().equals(id)) {
                return n;
            }
        }
        return null;
    }

    /** The nodes directly inside {@code parent} ({@code null}: the top level), in order. */
    public List<Node> childrenOf(String parent) {
        List<Node> out = new ArrayList<>();
        for (Node n : nodes) {
            if (Objects.equals(n.parent(), parent)) {
                out.add(n);
            }
        }
        return out;
    }

    /** The diagram of a loaded spec. */
    public static StateDiagram of(ServiceSpec spec) {
        return new Builder(spec).build();
    }

    /** Builds a diagram from a spec. */
    private static final class Builder {
        private final ServiceSpec spec;
        private final Set<String> composites;
        private final List<Node> nodes = new ArrayList<>();
        private final List<Edge> edges = new ArrayList<>();
        private final Map<String, String> terminateMarks = new HashMap<>();
        private final Map<String, String> ids = new HashMap<>();

        Builder(ServiceSpec spec) {
            this.spec = spec;
            this.composites = new HashSet<>();
            spec.compositeEvents().forEach(c -> composites.add(c.name()));
        }

        StateDiagram build() {
            List<StateInfo> states = spec.structure().states();
            for (StateInfo s : states) {
                ids.put(s.id(), s.id());
            }
            Map<String, Boolean> hasChildren = new HashMap<>();
            for (StateInfo s : states) {
                if (s.parent() != null) {
                    hasChildren.put(s.parent(), true);
                }
            }
            nodes.add(new Node(unique("start"), NodeKind.INITIAL_MARK, null, "", List.of(), List.of(), false));
            String topMark = nodes.get(0).id();
            for (StateInfo s : states) {
                nodes.add(new Node(s.id(), s.kind() == StateKind.FINAL ? NodeKind.FINAL : NodeKind.STATE, s.parent(),
                        s.id(), actions(s.onentry()), actions(s.onexit()), s.kind() == StateKind.PARALLEL));
                if (s.initial() != null && hasChildren.getOrDefault(s.id(), false)) {
                    String mark = unique(s.id() + "_start");
                    nodes.add(new Node(mark, NodeKind.INITIAL_MARK, s.id(), "", List.of(), List.of(), false));
                    edges.add(new Edge("e" + edges.size(), mark, s.initial(), EdgeKind.INITIAL, "",
                            actions(s.initialActions()), 0));
                }
            }
            edges.add(0, new Edge("e_init", topMark, spec.structure().initialState(), EdgeKind.INITIAL, "",
                    List.of(), 0));
            for (TransitionInfo t : spec.structure().transitions()) {
                EdgeKind kind = composites.contains(t.event()) ? EdgeKind.COMPOSITE : EdgeKind.BASIC;
                List<String> labels = actions(t.actions());
                boolean terminates = t.actions().stream().anyMatch(a -> a.primitive() == Primitive.TERMINATE);
                if (t.targets().isEmpty()) {
                    String target = terminates ? terminateMark(t.source()) : t.source();
                    edges.add(new Edge("e" + edges.size(), t.source(), target, kind, t.event(), labels, t.line()));
                }
                for (String target : t.targets()) {
                    edges.add(new Edge("e" + edges.size(), t.source(), target, kind, t.event(), labels, t.line()));
                }
            }
            String title = spec.service().name() + " (ServiceID " + spec.service().serviceId() + ")";
            return new StateDiagram(title, nodes, edges);
        }

        /** One terminate mark per state, beside it (in the same parent). */
        private String terminateMark(String state) {
            return terminateMarks.computeIfAbsent(state, s -> {
                String id = unique(s + "_end");
                String parent = spec.structure().states().stream().filter(i -> i.id().equals(s)).findFirst()
                        .map(StateInfo::parent).orElse(null);
                nodes.add(new Node(id, NodeKind.TERMINATE_MARK, parent, "", List.of(), List.of(), false));
                return id;
            });
        }

        private String unique(String base) {
            String id = base;
            for (int i = 2; ids.containsKey(id); i++) {
                id = base + i;
            }
            ids.put(id, id);
            return id;
        }

        private List<String> actions(List<ActionTemplate> actions) {
            List<String> out = new ArrayList<>();
            for (ActionTemplate a : actions) {
                out.add(describe(a));
            }
            return out;
        }

        /** A primitive as the blueprint writes it on an arc, with what tells it apart from its kin. */
        private String describe(ActionTemplate a) {
            Primitive p = a.primitive();
            return switch (p) {
                case SET_TIMER, CANCEL_TIMER -> p.specName() + "(" + timerName(a) + ")";
                case SEND_CONTROL_MESSAGE -> {
                    String type = messageTypeName(a.valueOf(ActionField.MESSAGE_TYPE));
                    yield type == null ? p.specName() : p.specName() + "(" + type + ")";
                }
                default -> p.specName();
            };
        }

        private String timerName(ActionTemplate a) {
            OptionalInt id = TimerAnalysis.timerId(spec, a);
            if (id.isEmpty()) {
                return "?";
            }
            String name = null;
            for (TimerEventDefinition t : spec.timerEvents()) {
                if (t.filter().timerId() == id.getAsInt()) {
                    if (name != null) {
                        return "timer " + id.getAsInt();
                    }
                    name = t.name();
                }
            }
            return name == null ? "timer " + id.getAsInt() : name;
        }

        /** The message event a control message of this type arrives as at peers, else "type n". */
        private String messageTypeName(FieldValue v) {
            int type;
            if (v instanceof FieldValue.Literal lit) {
                type = AttributeValues.byteValue(lit.text()) & 0xff;
            } else if (v instanceof FieldValue.ParameterRef ref && spec.parameters().contains(ref.name())) {
                type = AttributeValues.byteValue(spec.parameters().value(ref.name())) & 0xff;
            } else {
                return null;
            }
            String name = null;
            for (MessageEventDefinition m : spec.messageEvents()) {
                for (AttributeTest t : m.filter().tests()) {
                    if (t instanceof AttributeTest.MessageTypeIs is && (is.type() & 0xff) == type) {
                        if (name != null) {
                            return "type " + type;
                        }
                        name = m.name();
                    }
                }
            }
            return name == null ? "type " + type : name;
        }
    }
}
