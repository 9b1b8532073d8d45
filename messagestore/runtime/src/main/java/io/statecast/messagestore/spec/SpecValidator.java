package io.statecast.messagestore.spec;

import io.statecast.messagestore.chart.ChartCompiler;
import io.statecast.messagestore.event.AttributeTest;
import io.statecast.messagestore.event.AttributeValues;
import io.statecast.messagestore.event.CompiledPath;
import io.statecast.messagestore.event.CompiledQuery;
import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.event.HistoryReads;
import io.statecast.messagestore.event.MessageAttribute;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.event.MessageKeyExpression;
import io.statecast.messagestore.event.MessageFilter;
import io.statecast.messagestore.event.QueryException;
import io.statecast.messagestore.event.TimerEventDefinition;
import io.statecast.messagestore.event.TimerFilter;
import io.statecast.messagestore.event.XQueryEngine;
import io.statecast.messagestore.spec.SpecStructure.StateInfo;
import io.statecast.messagestore.spec.SpecStructure.StateKind;
import io.statecast.messagestore.spec.SpecStructure.TransitionInfo;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.MessageField;
import io.statecast.overlay.message.MessageFields;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * Checks a parsed spec and compiles its parts: XSD validation of the datamodel sections and the
 * action elements, then the semantic checks (every event used is declared, every target exists,
 * transitions are deterministic, only known primitives with known fields, every timer set has a
 * timer event, every parameter referenced exists, every XPath and XQuery compiles in the sandbox),
 * and the refusal of SCXML constructs specs may not use, each with a reason.
 *
 * <p>Runs single-threaded per spec; the engine and schemas are shared and thread-safe.
 */
final class SpecValidator {

    /** Names of the datamodel sections. */
    static final String SERVICE = "service";
    static final String METAOPS = "metaops";
    static final String PARAMETERS = "parameters";
    static final String EVENTS = "events";
    private static final Set<String> SECTIONS = Set.of(SERVICE, METAOPS, PARAMETERS, EVENTS);

    private static final Pattern ID = Pattern.compile("[A-Za-z_][A-Za-z0-9_.\\-]*");
    private static final Pattern SYMBOL = Pattern.compile("[A-Za-z_][A-Za-z0-9_\\-]*");
    /** An event descriptor: dot-separated tokens, optionally ending in {@code .*}, or {@code *}. */
    private static final Pattern DESCRIPTOR = Pattern.compile("\\*|[A-Za-z_][A-Za-z0-9_\\-]*(\\.[A-Za-z0-9_\\-]+)*(\\.\\*)?");
    private static final int MAX_LISTED = 12;

    private static final Map<String, String> REFUSED_SCXML = refusedScxml();

    private final XQueryEngine engine;
    private final SpecSchemas schemas;

    SpecValidator(XQueryEngine engine, SpecSchemas schemas) {
        this.engine = engine;
        this.schemas = schemas;
    }

    private static Map<String, String> refusedScxml() {
        Map<String, String> m = new HashMap<>();
        m.put("invoke", "a spec cannot start other state machines or external services");
        m.put("script", "the XPath datamodel has no scripts; use <assign>, <if> and <foreach>");
        m.put("event", "the draft's <event> is <raise> in SCXML 1.0");
        m.put("finalize", "not supported (there is no <invoke>)");
        return Map.copyOf(m);
    }

    /** The attributes of SCXML elements that hold an XPath expression of the datamodel. */
    private static final Set<String> EXPRESSION_ATTRIBUTES = Set.of("cond", "expr", "location", "array",
            "eventexpr", "targetexpr", "typeexpr", "delayexpr", "sendidexpr", "idlocation");

    /** SCXML executable content a block may hold, with the attributes each takes. */
    private static final Map<String, Set<String>> EXECUTABLE = Map.of(
            "raise", Set.of("event"),
            "log", Set.of("label", "expr"),
            "assign", Set.of("location", "expr", "type", "attr"),
            "if", Set.of("cond"),
            "elseif", Set.of("cond"),
            "else", Set.of(),
            "foreach", Set.of("array", "item", "index"),
            "send", Set.of("event", "eventexpr", "target", "targetexpr", "type", "typeexpr", "id", "idlocation",
                    "delay", "delayexpr", "namelist"),
            "cancel", Set.of("sendid", "sendidexpr"));

    /** Where an action block sits: the state that owns it, which kind of block, which transition. */
    enum BlockKind {
        ONENTRY, ONEXIT, TRANSITION, INITIAL
    }

    /**
     * Identifies one executable block, so that compiled templates can be bound to the Commons
     * model's action objects of the same block.
     *
     * @param stateId owning state
     * @param kind    block kind
     * @param index   index of the transition among the state's {@code <transition>}s; 0 otherwise
     */
    record BlockKey(String stateId, BlockKind kind, int index) {
    }

    /** Everything compiled from a spec that passed every check. */
    record Checked(
            ServiceMetadata service,
            MetaOps metaops,
            List<Parameter> parameters,
            List<MessageEventDefinition> messageEvents,
            List<TimerEventDefinition> timerEvents,
            List<CompositeEventDefinition> compositeEvents,
            Map<BlockKey, List<ActionTemplate>> actions,
            Map<Element, ActionTemplate> executeElements,
            SpecStructure structure,
            List<String> dataIds) {
    }

    /**
     * Checks the spec.
     *
     * @param problems receives every problem found
     * @return the compiled parts when no error was found, else {@code null}
     */
    Checked check(SpecParser.Parsed parsed, Deadline deadline, List<Problem> problems) {
        return new Run(parsed, deadline, problems).run();
    }

    // ------------------------------------------------------------------------------------------

    /** State of one check. */
    private final class Run {
        private final SpecParser.Parsed parsed;
        private final Deadline deadline;
        private final List<Problem> problems;
        private final Set<Node> schemaFailed = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

        private final Map<String, Element> stateElements = new LinkedHashMap<>();
        private final List<StateInfo> states = new ArrayList<>();
        private final Map<String, String> parents = new HashMap<>();
        private final Map<String, String> firstChild = new HashMap<>();
        private final Map<String, List<String>> children = new HashMap<>();
        private final List<TransitionRecord> transitions = new ArrayList<>();
        private final Map<BlockKey, Element> blocks = new LinkedHashMap<>();
        private final Map<String, Element> sections = new LinkedHashMap<>();
        /** The XPath datamodel's variables ({@code <data id>}), root and state-level. */
        private final Map<String, Element> variables = new LinkedHashMap<>();
        /** History pseudo-states and their parent state. */
        private final Map<String, String> histories = new LinkedHashMap<>();
        /** Events the spec raises or sends itself: transitions may wait for them. */
        private final Set<String> raised = new LinkedHashSet<>();
        /** The {@code <Start>} event and where it is written, or null. */
        private String startEvent;
        private Element startLine;
        /** The {@code <CreatedBy>} element, checked against the message events once they are parsed. */
        private Element createdByAt;

        private final Map<String, Parameter> parameters = new LinkedHashMap<>();
        /** Declared parameters refused for a bad declaration: referencing them is not a second error. */
        private final Set<String> brokenParameters = new HashSet<>();
        private final Map<String, Integer> eventLines = new LinkedHashMap<>();
        private final List<MessageEventDefinition> messageEvents = new ArrayList<>();
        private final List<TimerEventDefinition> timerEvents = new ArrayList<>();
        private final List<PendingComposite> composites = new ArrayList<>();
        private final Set<String> basicNames = new LinkedHashSet<>();
        private final Set<String> compositeNames = new LinkedHashSet<>();
        private final Map<BlockKey, List<ActionTemplate>> templates = new LinkedHashMap<>();
        private final Map<ActionTemplate, SourcePosition> templatePositions = new IdentityHashMap<>();
        /** Each {@code action:execute} element and the template it runs: what the engine compiles it to. */
        private final Map<Element, ActionTemplate> executeElements = new IdentityHashMap<>();
        private HistoryReads reads = HistoryReads.NONE;
        private String initialState;

        Run(SpecParser.Parsed parsed, Deadline deadline, List<Problem> problems) {
            this.parsed = parsed;
            this.deadline = deadline;
            this.problems = problems;
        }

        Checked run() {
            Element root = parsed.document().getDocumentElement();
            if (root == null) {
                error(null, "spec has no root element");
                return null;
            }
            if (!isScxml(root, "scxml")) {
                error(root, "root element must be <scxml> in namespace " + SpecNamespaces.SCXML + " (found <"
                        + root.getNodeName() + "> in namespace " + nsOf(root) + ")");
                return null;
            }
            checkRoot(root);
            if (timedOut("checking the structure")) {
                return null;
            }
            // the parameters first: a <ScopeKey> in the service section may read them
            parseParameters();
            ServiceMetadata service = parseService();
            MetaOps metaops = parseMetaops();
            checkDataNames();
            parseEvents();
            checkCreatedBy();
            if (timedOut("compiling the events")) {
                return null;
            }
            compileActions();
            if (timedOut("compiling the actions")) {
                return null;
            }
            crossCheck();
            if (problems.stream().anyMatch(Problem::isError)) {
                return null;
            }
            if (readsPlatform(root)) {
                // an expression reads $_x?history: every event keeps its XML form
                reads = HistoryReads.ALL;
            }
            List<MessageEventDefinition> msgs = new ArrayList<>();
            for (MessageEventDefinition d : messageEvents) {
                msgs.add(new MessageEventDefinition(d.name(), d.filter(), reads.reads(d.name()), d.line()));
            }
            List<TimerEventDefinition> timers = new ArrayList<>();
            for (TimerEventDefinition d : timerEvents) {
                timers.add(new TimerEventDefinition(d.name(), d.filter(), reads.reads(d.name()), d.line()));
            }
            List<CompositeEventDefinition> comps = new ArrayList<>();
            for (PendingComposite c : composites) {
                comps.add(new CompositeEventDefinition(c.name, c.constituents, c.query, c.line));
            }
            List<TransitionInfo> tinfo = new ArrayList<>();
            for (TransitionRecord t : transitions) {
                tinfo.add(new TransitionInfo(t.source, t.event == null ? "" : t.event, t.targets, t.line,
                        templates.getOrDefault(t.key, List.of())));
            }
            List<StateInfo> sinfo = new ArrayList<>();
            for (StateInfo s : states) {
                sinfo.add(new StateInfo(s.id(), s.kind(), s.parent(), s.line(), firstChild.get(s.id()),
                        templates.getOrDefault(new BlockKey(s.id(), BlockKind.ONENTRY, 0), List.of()),
                        templates.getOrDefault(new BlockKey(s.id(), BlockKind.ONEXIT, 0), List.of()),
                        templates.getOrDefault(new BlockKey(s.id(), BlockKind.INITIAL, 0), List.of())));
            }
            Map<String, Integer> sectionLines = new LinkedHashMap<>();
            sections.forEach((name, element) -> sectionLines.put(name, pos(element).line()));
            return new Checked(service, metaops, List.copyOf(parameters.values()), msgs, timers, comps,
                    Map.copyOf(templates), java.util.Collections.unmodifiableMap(executeElements),
                    new SpecStructure(initialState, sinfo, tinfo, sectionLines), dataIds());
        }

        // -------------------------------------------------------------- structure

        private void checkRoot(Element root) {
            checkAttributes(root, Set.of("version", "initialstate", "initial", "name", "datamodel", "binding"));
            String dm = attr(root, "datamodel");
            if (dm != null && !dm.strip().equals("xpath")) {
                error(root, "datamodel='" + dm + "' is not supported: specs use the XPath datamodel (datamodel=\"xpath\")");
            }
            String version = attr(root, "version");
            if (version != null && !version.equals("1.0")) {
                error(root, "SCXML version must be 1.0, got '" + version + "'");
            }
            String legacy = attr(root, "initialstate");
            String initial = attr(root, "initial");
            if (legacy != null && initial != null && !legacy.equals(initial)) {
                error(root, "initialstate='" + legacy + "' and initial='" + initial + "' disagree; give one");
            }
            initialState = legacy != null ? legacy : initial;
            if (initialState == null) {
                error(root, "<scxml> needs initialstate=\"…\" (the blueprint's attribute) or initial=\"…\"");
            }
            int datamodels = 0;
            boolean anyState = false;
            for (Element c : elements(root)) {
                if (isScxml(c, "datamodel")) {
                    if (++datamodels > 1) {
                        error(c, "only one <datamodel> is allowed");
                    } else {
                        collectSections(c);
                    }
                } else if (isScxml(c, "state") || isScxml(c, "parallel") || isScxml(c, "final")) {
                    anyState = true;
                    walkTarget(c, null);
                } else {
                    refuseElement(c, "<scxml>");
                }
            }
            if (!anyState) {
                error(root, "spec has no states");
            }
            if (initialState != null && !stateElements.containsKey(initialState) && anyState) {
                error(root, "initial state '" + initialState + "' does not exist (states: "
                        + list(stateElements.keySet()) + ")");
            }
            if (!sections.containsKey(SERVICE)) {
                error(root, "missing <data name=\"service\"> section in the root <datamodel> "
                        + "(ServiceName, ServiceID, DeliveryMode)");
            }
        }

        private void walkTarget(Element e, String parentId) {
            String kindName = e.getLocalName();
            StateKind kind = switch (kindName) {
                case "parallel" -> StateKind.PARALLEL;
                case "final" -> StateKind.FINAL;
                default -> StateKind.STATE;
            };
            checkAttributes(e, kind == StateKind.STATE ? Set.of("id", "initial") : Set.of("id"));
            String id = attr(e, "id");
            if (id == null) {
                error(e, "<" + kindName + "> needs an id");
                return;
            }
            if (!ID.matcher(id).matches()) {
                error(e, "state id '" + id + "' is not a valid name");
            }
            Element dup = stateElements.putIfAbsent(id, e);
            if (dup != null) {
                error(e, "state id '" + id + "' is used twice (also at line " + SourcePosition.of(dup).line() + ")");
                return;
            }
            states.add(new StateInfo(id, kind, parentId, pos(e).line()));
            if (parentId != null) {
                parents.put(id, parentId);
                children.computeIfAbsent(parentId, k -> new ArrayList<>()).add(id);
            }
            int transitionIndex = 0;
            boolean onentry = false;
            boolean onexit = false;
            boolean initialElement = false;
            boolean childStates = false;
            for (Element c : elements(e)) {
                if (isScxml(c, "onentry") || isScxml(c, "onexit")) {
                    boolean entry = c.getLocalName().equals("onentry");
                    if (entry ? onentry : onexit) {
                        error(c, "a state may have only one <" + c.getLocalName() + ">: put all its content in one");
                        continue;
                    }
                    if (entry) {
                        onentry = true;
                    } else {
                        onexit = true;
                    }
                    checkAttributes(c, Set.of());
                    collectBlock(new BlockKey(id, entry ? BlockKind.ONENTRY : BlockKind.ONEXIT, 0), c);
                } else if (isScxml(c, "transition") && kind != StateKind.FINAL) {
                    collectTransition(id, transitionIndex++, c);
                } else if (isScxml(c, "initial") && kind == StateKind.STATE) {
                    if (initialElement) {
                        error(c, "a state may have only one <initial>");
                        continue;
                    }
                    initialElement = true;
                    collectInitial(id, c);
                } else if ((isScxml(c, "state") && kind != StateKind.FINAL)
                        || ((isScxml(c, "parallel") || isScxml(c, "final")) && kind == StateKind.STATE)) {
                    childStates = true;
                    walkTarget(c, id);
                } else if (isScxml(c, "datamodel")) {
                    checkAttributes(c, Set.of());
                    for (Element d : elements(c)) {
                        if (isScxml(d, "data")) {
                            collectVariable(d);
                        } else {
                            refuseElement(d, "<datamodel>");
                        }
                    }
                } else if (isScxml(c, "history") && kind != StateKind.FINAL) {
                    collectHistory(id, c);
                } else if (isScxml(c, "donedata") && kind == StateKind.FINAL) {
                    checkAttributes(c, Set.of());
                    collectPayload(c);
                } else {
                    refuseElement(c, "<" + kindName + ">");
                }
            }
            if (kind == StateKind.STATE && childStates) {
                String first = attr(e, "initial");
                if (first == null && !initialElement) {
                    error(e, "compound state '" + id + "' needs initial=\"…\" or an <initial> child");
                } else if (first != null && initialElement) {
                    error(e, "state '" + id + "' has both initial=\"…\" and an <initial> child");
                } else if (first != null) {
                    firstChild.put(id, first);
                }
            } else if (kind == StateKind.STATE && (attr(e, "initial") != null || initialElement)) {
                error(e, "state '" + id + "' has an initial state but no child states");
            }
        }

        private void collectInitial(String stateId, Element initial) {
            checkAttributes(initial, Set.of("id"));
            List<Element> ts = elements(initial);
            if (ts.size() != 1 || !isScxml(ts.get(0), "transition")) {
                error(initial, "<initial> must contain exactly one <transition target=\"…\">");
                for (Element c : ts) {
                    if (!isScxml(c, "transition")) {
                        refuseElement(c, "<initial>");
                    }
                }
                return;
            }
            Element t = ts.get(0);
            checkAttributes(t, Set.of("target"));
            String target = attr(t, "target");
            if (target == null || target.isBlank()) {
                error(t, "the <transition> of an <initial> needs a target");
            } else {
                firstChild.put(stateId, target.strip());
            }
            collectBlock(new BlockKey(stateId, BlockKind.INITIAL, 0), t);
        }

        private void collectTransition(String owner, int index, Element t) {
            checkAttributes(t, Set.of("event", "target", "cond", "type"));
            String type = attr(t, "type");
            if (type != null && !type.strip().equals("internal") && !type.strip().equals("external")) {
                error(t, "transition type must be 'internal' or 'external', not '" + type + "'");
            }
            String event = attr(t, "event");
            List<String> targets = new ArrayList<>();
            String target = attr(t, "target");
            if (target != null) {
                for (String s : target.strip().split("\\s+")) {
                    if (!s.isEmpty()) {
                        targets.add(s);
                    }
                }
            }
            if (event != null && event.isBlank()) {
                error(t, "event='' names no event; leave the attribute out for an eventless transition");
                event = null;
            } else if (event != null) {
                event = event.strip();
                for (String d : event.split("\\s+")) {
                    if (!DESCRIPTOR.matcher(d).matches()) {
                        error(t, "transition event descriptor '" + d + "' is not an event name, a name ending "
                                + "in '.*', or '*'");
                    }
                }
            }
            BlockKey key = new BlockKey(owner, BlockKind.TRANSITION, index);
            transitions.add(new TransitionRecord(owner, event, targets, pos(t).line(), pos(t).column(), key,
                    attr(t, "cond") != null));
            collectBlock(key, t);
        }

        private void collectBlock(BlockKey key, Element block) {
            blocks.put(key, block);
            checkContent(block);
        }

        /** Checks the executable content directly in {@code block}, and in its if and foreach bodies. */
        private void checkContent(Element block) {
            for (Node c = block.getFirstChild(); c != null; c = c.getNextSibling()) {
                if (c instanceof Element el) {
                    Set<String> executable = isScxml(el) ? EXECUTABLE.get(el.getLocalName()) : null;
                    if (executable != null) {
                        checkExecutable(el, block, executable);
                    } else if (SpecNamespaces.ACTION.equals(el.getNamespaceURI())) {
                        String local = el.getLocalName();
                        if (!local.equals("create") && !local.equals("set") && !local.equals("execute")) {
                            error(el, "unknown action element <" + el.getNodeName()
                                    + "> (the action namespace has create, set, execute)");
                        } else {
                            schemas.validateAction(el, problems, schemaFailed);
                        }
                    } else {
                        refuseElement(el, "<" + block.getLocalName() + ">");
                    }
                } else if (c.getNodeType() == Node.TEXT_NODE && !c.getNodeValue().isBlank()) {
                    error(block, "unexpected text in <" + block.getLocalName() + ">: '"
                            + abbreviate(c.getNodeValue().strip()) + "'");
                }
            }
        }

        private void checkExecutable(Element el, Element block, Set<String> attributes) {
            String local = el.getLocalName();
            checkAttributes(el, attributes);
            switch (local) {
                case "elseif", "else" -> {
                    if (!isScxml(block, "if")) {
                        error(el, "<" + local + "> belongs directly inside an <if>");
                    }
                }
                case "if", "foreach" -> checkContent(el);
                case "raise" -> {
                    String ev = attr(el, "event");
                    if (ev == null || !DESCRIPTOR.matcher(ev.strip()).matches() || ev.contains("*")) {
                        error(el, "<raise> needs event=\"name\"");
                    } else {
                        raised.add(ev.strip());
                    }
                }
                case "send" -> {
                    String ev = attr(el, "event");
                    if (ev != null) {
                        raised.add(ev.strip());
                    }
                    collectPayload(el);
                }
                case "assign" -> {
                    for (Node n = el.getFirstChild(); n != null; n = n.getNextSibling()) {
                        if (n instanceof Element inner && isScxml(inner)) {
                            error(inner, "<assign> content is data, not SCXML: put it in another namespace (xmlns=\"\")");
                        }
                    }
                }
                default -> { }
            }
        }

        /** The {@code <param>}s and {@code <content>} of a {@code <send>} or {@code <donedata>}. */
        private void collectPayload(Element el) {
            for (Element k : elements(el)) {
                if (isScxml(k, "param")) {
                    checkAttributes(k, Set.of("name", "expr", "location"));
                    if (attr(k, "name") == null) {
                        error(k, "<param> needs a name");
                    }
                } else if (isScxml(k, "content")) {
                    checkAttributes(k, Set.of("expr"));
                } else {
                    refuseElement(k, "<" + el.getLocalName() + ">");
                }
            }
        }

        /** A {@code <data id>} variable of the XPath datamodel. */
        private void collectVariable(Element d) {
            checkAttributes(d, Set.of("id", "expr"));
            String id = attr(d, "id");
            if (id == null || !SYMBOL.matcher(id).matches() || id.startsWith("_")) {
                error(d, "<data id='" + id + "'>: a variable needs a name that does not start with '_' "
                        + "(those are the system variables)");
            } else if (variables.putIfAbsent(id, d) != null) {
                error(d, "variable '" + id + "' is declared twice");
            }
        }

        /** A {@code <history>} pseudo-state and its default transition. */
        private void collectHistory(String parentId, Element h) {
            checkAttributes(h, Set.of("id", "type"));
            String id = attr(h, "id");
            String type = attr(h, "type");
            if (type != null && !type.equals("shallow") && !type.equals("deep")) {
                error(h, "history type must be 'shallow' or 'deep', not '" + type + "'");
            }
            if (id == null || !ID.matcher(id).matches() || stateElements.containsKey(id) || histories.containsKey(id)) {
                error(h, "<history> needs a unique id");
                return;
            }
            histories.put(id, parentId);
            List<Element> ts = elements(h);
            if (ts.size() != 1 || !isScxml(ts.get(0), "transition") || attr(ts.get(0), "target") == null) {
                error(h, "<history> must contain exactly one <transition target=\"…\"> to its default state");
                return;
            }
            checkAttributes(ts.get(0), Set.of("target"));
            checkContent(ts.get(0));
        }

        private void collectSections(Element datamodel) {
            checkAttributes(datamodel, Set.of());
            for (Element d : elements(datamodel)) {
                if (!isScxml(d, "data")) {
                    refuseElement(d, "<datamodel>");
                    continue;
                }
                if (attr(d, "name") == null && attr(d, "id") != null && !SECTIONS.contains(attr(d, "id"))) {
                    collectVariable(d);
                    continue;
                }
                checkAttributes(d, Set.of("name", "id"));
                String name = attr(d, "name") != null ? attr(d, "name") : attr(d, "id");
                if (name == null) {
                    error(d, "<data> needs name=\"service|metaops|parameters|events\"");
                    continue;
                }
                if (!SECTIONS.contains(name)) {
                    error(d, "unknown datamodel section '" + name + "' (sections: service, metaops, parameters, "
                            + "events)");
                    continue;
                }
                Element dup = sections.putIfAbsent(name, d);
                if (dup != null) {
                    error(d, "section '" + name + "' is declared twice (also at line " + pos(dup).line() + ")");
                    continue;
                }
                schemas.validateSection(d, name, problems, schemaFailed);
            }
        }

        private void refuseElement(Element c, String where) {
            String ns = c.getNamespaceURI();
            String local = c.getLocalName();
            if (SpecNamespaces.SCXML.equals(ns)) {
                String why = REFUSED_SCXML.get(local);
                if (why != null) {
                    error(c, "<" + local + "> is not supported: " + why);
                } else if (local.equals("datamodel") || local.equals("data")) {
                    error(c, "<" + local + "> is not allowed in " + where);
                } else {
                    error(c, "<" + local + "> is not allowed in " + where);
                }
            } else if (SpecNamespaces.COMMONS_SCXML.equals(ns)) {
                error(c, "<" + c.getNodeName() + "> from the Commons SCXML namespace is not supported");
            } else if (SpecNamespaces.ACTION.equals(ns)) {
                error(c, "action elements belong directly inside <onentry>, <onexit> or <transition>, not in "
                        + where);
            } else {
                error(c, "element <" + c.getNodeName() + "> in namespace " + (ns == null ? "(none)" : ns)
                        + " is not part of a spec");
            }
        }

        /** Refuses attributes outside {@code allowed} (namespaced ones too, except xml:*), with reasons. */
        private void checkAttributes(Element e, Set<String> allowed) {
            NamedNodeMap map = e.getAttributes();
            for (int i = 0; i < map.getLength(); i++) {
                Attr a = (Attr) map.item(i);
                String ns = a.getNamespaceURI();
                if (javax.xml.XMLConstants.XML_NS_URI.equals(ns)
                        || javax.xml.XMLConstants.XMLNS_ATTRIBUTE_NS_URI.equals(ns)) {
                    continue;
                }
                String local = a.getLocalName() == null ? a.getName() : a.getLocalName();
                if (ns == null && allowed.contains(local)) {
                    continue;
                }
                String where = "<" + e.getLocalName() + ">";
                switch (local) {
                    case "src" -> error(e, "src on " + where + " would load external content: not allowed");
                    default -> error(e, "attribute " + a.getName() + " is not supported on " + where);
                }
            }
        }

        // -------------------------------------------------------------- sections

        private ServiceMetadata parseService() {
            Element d = sections.get(SERVICE);
            if (d == null || hasSchemaErrors(d)) {
                return null;
            }
            String name = null;
            int id = 0;
            Set<DeliveryMode> modes = EnumSet.noneOf(DeliveryMode.class);
            Scope scope = Scope.MESSAGE;
            String description = "";
            List<String> inFlight = List.of();
            Element inFlightAt = null;
            InFlightCount inFlightCount = null;
            Set<Promise> promises = EnumSet.noneOf(Promise.class);
            Element scopeAt = null;
            Element scopeKeyAt = null;
            String start = null;
            Element startAt = null;
            for (Element c : elements(d)) {
                String text = c.getTextContent().strip();
                switch (c.getLocalName()) {
                    case "ServiceName" -> name = text;
                    case "ServiceID" -> {
                        try {
                            id = (int) AttributeValues.longValue(text, 0, Integer.MAX_VALUE, "ServiceID");
                        } catch (IllegalArgumentException ex) {
                            error(c, ex.getMessage());
                        }
                    }
                    case "DeliveryMode" -> {
                        DeliveryMode m = AttributeValues.deliveryMode(text);
                        if (!modes.add(m)) {
                            error(c, "delivery mode " + text + " is listed twice");
                        }
                    }
                    case "Scope" -> {
                        Scope s = Scope.ofLabel(text);
                        if (s == null) {
                            error(c, "unknown scope '" + abbreviate(text) + "' (known: " + Scope.labels() + ")");
                        } else {
                            scope = s;
                            scopeAt = c;
                        }
                    }
                    case "ScopeKey" -> scopeKeyAt = c;
                    case "Description" -> description = text;
                    case "InFlight" -> {
                        inFlight = inFlightStates(c, text);
                        inFlightAt = c;
                    }
                    case "InFlightCount" -> inFlightCount = inFlightCount(c, text);
                    case "CreatedBy" -> createdByAt = c;
                    case "Promises" -> promises(c, text, promises);
                    case "Start" -> {
                        if (!SYMBOL.matcher(text).matches()) {
                            error(c, "<Start> '" + abbreviate(text) + "' is not an event name (a letter or _, then "
                                    + "letters, digits, _ or -)");
                        } else {
                            start = text;
                            startAt = c;
                            raised.add(text); // transitions may wait for it (not a second error if refused below)
                        }
                    }
                    default -> { }
                }
            }
            if (start != null && (scope.perMessage() || scope == Scope.EXPRESSION)) {
                // an expression's key is a value of the messages, which the node's own instance has none of
                error(startAt, "<Start> needs a flow scope (flow, flow-destination or flow-peer) or node: the instance it starts "
                        + "is the node's own flow, and scope " + scope.label() + (scope.perMessage()
                        ? " has one instance per message" : " keys instances by a value of their messages"));
                start = null;
            }
            if (start != null) {
                startEvent = start;
                startLine = startAt;
            }
            if (name == null) {
                return null;
            }
            MessageKeyExpression key = scopeKey(scope, scopeAt, scopeKeyAt);
            if (scope == Scope.EXPRESSION && key == null) {
                return null; // refused
            }
            if (inFlightCount != null && inFlightAt != null) {
                error(inFlightAt, "<InFlight> and <InFlightCount> exclude each other: count a whole instance "
                        + "in flight by its state, or the messages it holds by a variable, not both");
                inFlight = List.of();
            }
            return new ServiceMetadata(name, id, modes, scope, description, inFlight, key, promises, start,
                    createdByNames(), inFlightCount);
        }

        /** The names {@code <CreatedBy>} lists, as written (checked by {@link #checkCreatedBy}). */
        private List<String> createdByNames() {
            if (createdByAt == null) {
                return List.of();
            }
            String text = createdByAt.getTextContent().strip();
            return text.isEmpty() ? List.of() : List.of(text.split("\\s+"));
        }

        /**
         * The {@code <CreatedBy>} list: not empty, every name a basic message event of the spec (a
         * timer or composite event never reaches an instance that does not exist), each once.
         */
        private void checkCreatedBy() {
            if (createdByAt == null) {
                return;
            }
            List<String> names = createdByNames();
            if (names.isEmpty()) {
                error(createdByAt, "<CreatedBy> is empty: list the message events that may create an instance, or "
                        + "leave the element out for the default (a data message under a message scope)");
                return;
            }
            Set<String> messageNames = new LinkedHashSet<>();
            for (MessageEventDefinition d : messageEvents) {
                messageNames.add(d.name());
            }
            Set<String> seen = new HashSet<>();
            for (String n : names) {
                if (!messageNames.contains(n)) {
                    error(createdByAt, "<CreatedBy> names '" + abbreviate(n) + "', which is not a message event "
                            + "(message events: " + list(messageNames) + ")");
                } else if (!seen.add(n)) {
                    error(createdByAt, "<CreatedBy> names '" + n + "' twice");
                }
            }
        }

        /**
         * The compiled {@code <ScopeKey>} ({@code keyAt}; {@code null} when absent): required with
         * scope {@code expression}, refused with any other. {@code null} when there is none or it
         * was refused.
         */
        private MessageKeyExpression scopeKey(Scope scope, Element scopeAt, Element keyAt) {
            if (scope != Scope.EXPRESSION) {
                if (keyAt != null) {
                    error(keyAt, "<ScopeKey> goes with <Scope>expression</Scope> only; this service's scope is "
                            + scope.label());
                }
                return null;
            }
            if (keyAt == null) {
                error(scopeAt, "scope expression needs a <ScopeKey>: an XPath over the message whose value keys its"
                        + " instance, e.g. <ScopeKey>Fields/Field[@name='stream']</ScopeKey>");
                return null;
            }
            String xpath = keyAt.getTextContent().strip();
            if (xpath.isEmpty()) {
                error(keyAt, "<ScopeKey> is empty: write an XPath over the message");
                return null;
            }
            try {
                return new MessageKeyExpression(engine.compilePath(xpath, parameters.keySet()));
            } catch (QueryException ex) {
                error(keyAt, "ScopeKey: " + ex.getMessage());
                return null;
            }
        }

        /** The {@code <Promises>} list: known labels, each once. */
        private void promises(Element at, String text, Set<Promise> into) {
            if (text.isEmpty()) {
                error(at, "<Promises> is empty: list what the service promises (" + Promise.labels()
                        + "), or leave the element out for best effort");
                return;
            }
            for (String label : text.split("\\s+")) {
                Promise p = Promise.ofLabel(label);
                if (p == null) {
                    error(at, "unknown promise '" + abbreviate(label) + "' (known: " + Promise.labels() + ")");
                } else if (!into.add(p)) {
                    error(at, "promise " + label + " is listed twice");
                }
            }
        }

        /**
         * The {@code <InFlight>} list: every id must name a state that exists and is not final (an
         * instance in a final state has ended, so it cannot be awaiting anything), once.
         */
        private List<String> inFlightStates(Element at, String text) {
            List<String> ids = new ArrayList<>();
            if (text.isEmpty()) {
                error(at, "<InFlight> is empty: list the ids of the states in which a message this node sent "
                        + "awaits acknowledgement, or leave the element out");
                return ids;
            }
            for (String id : text.split("\\s+")) {
                Element state = stateElements.get(id);
                if (state == null) {
                    error(at, "<InFlight> names state '" + id + "', which does not exist (states: "
                            + list(stateElements.keySet()) + ")");
                } else if (isScxml(state, "final")) {
                    error(at, "<InFlight> names state '" + id + "', a final state: an instance there has ended "
                            + "and awaits nothing");
                } else if (ids.contains(id)) {
                    error(at, "<InFlight> names state '" + id + "' twice");
                } else {
                    ids.add(id);
                }
            }
            return ids;
        }

        /**
         * {@code <InFlightCount limit="…">variable</InFlightCount>}: the variable must be declared;
         * the limit, when given, is an integer of at least 1 or the name of an integer parameter.
         */
        private InFlightCount inFlightCount(Element at, String text) {
            if (!variables.containsKey(text)) {
                error(at, "<InFlightCount> names variable '" + abbreviate(text) + "', which is not declared (variables: "
                        + list(variables.keySet()) + ")");
                return null;
            }
            String limit = attr(at, "limit");
            if (limit == null) {
                return new InFlightCount(text, null);
            }
            limit = limit.strip();
            if (limit.matches("[0-9]{1,9}")) {
                if (Integer.parseInt(limit) < 1) {
                    error(at, "<InFlightCount limit='" + limit + "'>: the limit must be at least 1");
                    return null;
                }
                return new InFlightCount(text, limit);
            }
            Parameter p = parameters.get(limit);
            if (p == null || p.type() != ParameterType.INTEGER) {
                error(at, "<InFlightCount limit='" + abbreviate(limit) + "'>: the limit must be a whole number of at "
                        + "least 1 or the name of an integer parameter (integer parameters: " + list(parameters.values()
                        .stream().filter(q -> q.type() == ParameterType.INTEGER).map(Parameter::name)
                        .collect(java.util.stream.Collectors.toSet())) + ")");
                return null;
            }
            return new InFlightCount(text, limit);
        }

        private MetaOps parseMetaops() {
            Element d = sections.get(METAOPS);
            if (d == null || hasSchemaErrors(d)) {
                return MetaOps.DEFAULTS;
            }
            boolean forward = MetaOps.DEFAULTS.messageStoreWillForwardMessage();
            boolean intermediate = MetaOps.DEFAULTS.processIntermediateUnicastMessage();
            boolean own = MetaOps.DEFAULTS.receiveOwnUnicast();
            for (Element c : elements(d)) {
                String t = c.getTextContent().strip();
                boolean v = t.equals("true") || t.equals("1");
                if (c.getLocalName().equals("messageStoreWillForwardMessage")) {
                    forward = v;
                } else if (c.getLocalName().equals("processIntermediateUnicastMessage")) {
                    intermediate = v;
                } else if (c.getLocalName().equals("receiveOwnUnicast")) {
                    own = v;
                }
            }
            return new MetaOps(forward, intermediate, own);
        }

        private void parseParameters() {
            Element d = sections.get(PARAMETERS);
            if (d == null) {
                return;
            }
            for (Element p : elements(d)) {
                String name = attr(p, "name");
                ParameterType type = ParameterType.ofLabel(String.valueOf(attr(p, "type")));
                String def = attr(p, "default");
                if (name == null || type == null || def == null || schemaFailed.contains(p)) {
                    if (name != null) {
                        brokenParameters.add(name);
                    }
                    continue;
                }
                Parameter dup = parameters.get(name);
                if (dup != null) {
                    error(p, "parameter " + name + " is declared twice (also at line " + dup.line() + ")");
                    continue;
                }
                try {
                    String value = type.check(def);
                    parameters.put(name, new Parameter(name, type, value, p.getTextContent().strip(), pos(p).line()));
                } catch (IllegalArgumentException ex) {
                    error(p, "default of parameter " + name + ": " + ex.getMessage());
                    brokenParameters.add(name);
                }
            }
        }

        /**
         * A datamodel variable may not have a parameter's name: composite queries and action
         * XPaths read both as {@code $name}, and could not tell them apart.
         */
        private void checkDataNames() {
            for (Map.Entry<String, Element> v : variables.entrySet()) {
                Parameter p = parameters.get(v.getKey());
                if (p != null || brokenParameters.contains(v.getKey())) {
                    error(v.getValue(), "variable '" + v.getKey() + "' has the name of a parameter"
                            + (p == null ? "" : " (line " + p.line() + ")")
                            + ": composite queries and action XPaths read both as $" + v.getKey()
                            + "; rename one");
                }
            }
        }

        /** The datamodel's variables in declaration order: a compiled expression's index of each. */
        private List<String> dataIds() {
            return List.copyOf(variables.keySet());
        }

        private void parseEvents() {
            Element d = sections.get(EVENTS);
            if (d == null) {
                return;
            }
            for (Element group : elements(d)) {
                boolean basic = group.getLocalName().equals("Basic");
                for (Element ev : elements(group)) {
                    if (deadline.passed()) {
                        return; // reported by the caller
                    }
                    String name = attr(ev, "name");
                    if (name == null || !SYMBOL.matcher(name).matches()) {
                        continue; // reported by the schema
                    }
                    Integer dup = eventLines.putIfAbsent(name, pos(ev).line());
                    if (dup != null) {
                        error(ev, "event " + name + " is declared twice (also at line " + dup + ")");
                        continue;
                    }
                    if (basic) {
                        basicNames.add(name);
                        parseBasic(ev, name);
                    } else {
                        compositeNames.add(name);
                        parseComposite(ev, name);
                    }
                }
            }
        }

        private void parseBasic(Element ev, String name) {
            List<Element> kids = elements(ev);
            if (kids.size() != 1 || hasSchemaErrors(ev)) {
                return;
            }
            Element f = kids.get(0);
            int line = pos(ev).line();
            if (f.getLocalName().equals("Timer")) {
                List<Element> ids = elements(f);
                int id = TimerFilter.ANY_TIMER;
                if (!ids.isEmpty()) {
                    try {
                        id = (int) AttributeValues.longValue(ids.get(0).getTextContent(), 0, Integer.MAX_VALUE,
                                "TimerIdentifier");
                    } catch (IllegalArgumentException ex) {
                        error(ids.get(0), ex.getMessage());
                        return;
                    }
                }
                timerEvents.add(new TimerEventDefinition(name, new TimerFilter(id), false, line));
                return;
            }
            List<AttributeTest> tests = new ArrayList<>();
            for (Element c : elements(f)) {
                MessageAttribute a = MessageAttribute.ofElementName(c.getLocalName());
                String text = c.getTextContent().strip();
                try {
                    tests.add(switch (a) {
                        case MESSAGE_IDENTIFIER -> new AttributeTest.MessageIdIs(
                                AttributeValues.longValue(text, Long.MIN_VALUE, Long.MAX_VALUE, "MessageIdentifier"));
                        case SERVICE_IDENTIFIER -> new AttributeTest.ServiceIdIs(
                                (int) AttributeValues.longValue(text, 0, Integer.MAX_VALUE, "ServiceIdentifier"));
                        case DELIVERY_MODE -> new AttributeTest.DeliveryModeIs(AttributeValues.deliveryMode(text));
                        case HOP_LIMIT -> new AttributeTest.HopLimitIs(
                                (int) AttributeValues.longValue(text, 0, 255, "HopLimit"));
                        case MESSAGE_TYPE -> new AttributeTest.MessageTypeIs(AttributeValues.byteValue(text));
                        case MESSAGE_KIND -> new AttributeTest.KindIs(text.equals("data"));
                        case SOURCE_ADDRESS, DESTINATION_ADDRESS, PREVIOUS_HOP_ADDRESS, ROOT_ADDRESS ->
                                new AttributeTest.AddressIs(a, text.equals(AttributeValues.LOCAL) ? null
                                        : AttributeValues.address(text));
                    });
                } catch (IllegalArgumentException ex) {
                    error(c, "event " + name + ": " + ex.getMessage());
                }
            }
            messageEvents.add(new MessageEventDefinition(name, new MessageFilter(tests), false, line));
        }

        private void parseComposite(Element ev, String name) {
            if (hasSchemaErrors(ev)) {
                return;
            }
            List<String> constituents = new ArrayList<>();
            Element query = null;
            for (Element c : elements(ev)) {
                if (c.getLocalName().equals("ConstituentBasicEvent")) {
                    String n = c.getTextContent().strip();
                    if (constituents.contains(n)) {
                        warning(c, "constituent " + n + " is listed twice");
                    } else {
                        constituents.add(n);
                    }
                } else if (c.getLocalName().equals("XQuery")) {
                    query = c;
                }
            }
            if (query == null) {
                return;
            }
            String text = query.getTextContent();
            try {
                CompiledQuery q = engine.compileQuery(text, parameters.keySet(), dataIds());
                reads = reads.union(q.reads());
                composites.add(new PendingComposite(name, constituents, q, pos(ev).line(), ev));
            } catch (QueryException ex) {
                SourcePosition at = queryPosition(query, ex.line(), ex.column());
                problems.add(Problem.error(at.line(), at.column(), "composite event " + name + ": " + ex.getMessage()));
            }
        }

        /** Maps a position inside an element's text to the spec (CDATA openers accounted for). */
        private SourcePosition queryPosition(Element holder, int qLine, int qCol) {
            SourcePosition content = SourcePosition.contentOf(holder);
            if (qLine <= 0 || content.line() <= 0) {
                return pos(holder);
            }
            int col = content.column();
            int off = parsed.offset(content.line(), content.column());
            if (parsed.text().startsWith("<![CDATA[", off)) {
                col += "<![CDATA[".length();
            }
            return qLine == 1 ? new SourcePosition(content.line(), col + Math.max(0, qCol - 1))
                    : new SourcePosition(content.line() + qLine - 1, qCol);
        }

        // -------------------------------------------------------------- actions

        private void compileActions() {
            for (Map.Entry<BlockKey, Element> b : blocks.entrySet()) {
                if (deadline.passed()) {
                    return; // reported by the caller
                }
                templates.put(b.getKey(), compileBlock(b.getValue()));
            }
        }

        private List<ActionTemplate> compileBlock(Element block) {
            List<ActionTemplate> out = new ArrayList<>();
            compileElements(elements(block), block.getLocalName(), out);
            return out;
        }

        /**
         * Compiles the actions among {@code list} into {@code out}. An {@code <if>} branch and a
         * {@code <foreach>} body are blocks of their own: an action is created, set and executed
         * within one of them; their templates join the enclosing block's list.
         */
        private void compileElements(List<Element> list, String blockName, List<ActionTemplate> out) {
            Map<String, OpenAction> open = new LinkedHashMap<>();
            // Unknown names created here (and reported there): their sets and execute are no new mistake.
            Set<String> unknownCreated = new HashSet<>();
            for (Element a : list) {
                if (isScxml(a, "if")) {
                    List<Element> branch = new ArrayList<>();
                    for (Element k : elements(a)) {
                        if (isScxml(k, "elseif") || isScxml(k, "else")) {
                            compileElements(branch, "if", out);
                            branch = new ArrayList<>();
                        } else {
                            branch.add(k);
                        }
                    }
                    compileElements(branch, "if", out);
                    continue;
                }
                if (isScxml(a, "foreach")) {
                    compileElements(elements(a), "foreach", out);
                    continue;
                }
                if (!SpecNamespaces.ACTION.equals(a.getNamespaceURI()) || schemaFailed.contains(a)) {
                    continue;
                }
                String name = attr(a, "name");
                if (name == null) {
                    continue;
                }
                String kind = a.getLocalName();
                Primitive primitive = Primitive.ofSpecName(name);
                if (primitive == null) {
                    if (kind.equals("create")) {
                        if (a.getUserData(BlueprintForms.REFUSED_KEY) == null) {
                            error(a, Primitive.unknownMessage(name));
                        }
                        unknownCreated.add(name);
                    } else if (kind.equals("set") || kind.equals("execute")) {
                        if (!unknownCreated.contains(name)) {
                            // Would otherwise pass silently: nothing runs it, and the author expects something to.
                            error(a, "action:" + kind + " for " + name + " has no action:create before it in the same <"
                                    + blockName + ">" + (name.equals(BlueprintForms.SEND_MESSAGE)
                                    ? ", so it cannot be read as sendDataMessage or sendControlMessage"
                                    : "; " + Primitive.unknownMessage(name)));
                        } else if (kind.equals("execute")) {
                            unknownCreated.remove(name);
                        }
                    }
                    continue;
                }
                switch (kind) {
                    case "create" -> {
                        OpenAction prev = open.get(name);
                        if (prev != null) {
                            error(a, "action " + name + " is created again before its action:execute (first "
                                    + "created at line " + prev.line + ")");
                        }
                        open.put(name, new OpenAction(primitive, pos(a).line()));
                    }
                    case "set" -> {
                        OpenAction o = open.get(name);
                        if (o == null) {
                            error(a, "action:set for " + name + " has no action:create before it in the same <"
                                    + blockName + ">");
                        } else {
                            FieldAssignment fa = compileSet(a, o);
                            if (fa != null) {
                                o.assignments.add(fa);
                            }
                        }
                    }
                    case "execute" -> {
                        OpenAction o = open.remove(name);
                        if (o == null) {
                            error(a, "action:execute for " + name + " has no action:create before it in the same <"
                                    + blockName + ">");
                            continue;
                        }
                        for (ActionField req : primitive.requiredFields()) {
                            if (!o.attempted.contains(req)) {
                                error(a, name + " needs field " + req.path() + " (set it with action:set before "
                                        + "action:execute)");
                            }
                        }
                        ActionTemplate t = new ActionTemplate(primitive, o.assignments, pos(a).line());
                        templatePositions.put(t, pos(a));
                        executeElements.put(a, t);
                        out.add(t);
                    }
                    default -> { }
                }
            }
            for (Map.Entry<String, OpenAction> o : open.entrySet()) {
                problems.add(Problem.warning(o.getValue().line, 0, "action " + o.getKey()
                        + " is created but never executed in this <" + blockName + ">"));
            }
        }

        /**
         * The declared parameter an action:set names, or {@code null} after reporting it (once: a
         * parameter refused for its declaration is not reported again).
         */
        private Parameter declaredParameter(Element a, String param) {
            Parameter p = parameters.get(param);
            if (p == null && !brokenParameters.contains(param)) {
                error(a, "parameter '" + param + "' is not declared (declared: " + list(parameters.keySet()) + ")");
            }
            return p;
        }

        private FieldAssignment compileSet(Element a, OpenAction o) {
            String fieldPath = attr(a, "field");
            if (fieldPath != null && fieldPath.startsWith(ActionField.FIELDS_PREFIX)) {
                return compileMessageFieldSet(a, o, fieldPath.substring(ActionField.FIELDS_PREFIX.length()));
            }
            if (attr(a, "type") != null || attr(a, "sequence") != null) {
                error(a, "attributes type and sequence are for message fields (field=\"" + ActionField.FIELDS_PREFIX
                        + "NAME\") only");
                return null;
            }
            ActionField field = ActionField.ofPath(fieldPath);
            if (field != null) {
                o.attempted.add(field); // a failed set is reported once, not again as a missing field
            }
            if (field == null) {
                StringBuilder known = new StringBuilder();
                for (ActionField f : o.primitive.fields()) {
                    known.append(known.length() == 0 ? "" : ", ").append(f.path());
                }
                error(a, "unknown field '" + fieldPath + "' for " + o.primitive.specName() + " (its fields: "
                        + (known.length() == 0 ? "none" : known) + ")");
                return null;
            }
            if (!o.primitive.fields().contains(field)) {
                error(a, o.primitive.fieldRefusal(field));
                return null;
            }
            String value = attr(a, "value");
            String xpath = attr(a, "xpath");
            String param = attr(a, "param");
            int given = (value != null ? 1 : 0) + (xpath != null ? 1 : 0) + (param != null ? 1 : 0);
            if (given != 1) {
                error(a, "action:set needs exactly one of value, xpath or param (got " + given + ")");
                return null;
            }
            for (FieldAssignment prev : o.assignments) {
                if (prev.field() == field) {
                    warning(a, "field " + field.path() + " is set twice (also at line " + prev.line()
                            + "); the later value wins");
                }
            }
            int line = pos(a).line();
            if (value != null) {
                try {
                    field.checkLiteral(value);
                    return new FieldAssignment(field, new FieldValue.Literal(value), line);
                } catch (IllegalArgumentException ex) {
                    error(a, "field " + field.path() + ": " + ex.getMessage());
                    return null;
                }
            }
            if (param != null) {
                Parameter p = declaredParameter(a, param);
                if (p == null) {
                    return null;
                }
                if (!field.accepts(p.type())) {
                    error(a, "parameter " + param + " is a " + p.type().label() + "; field " + field.path()
                            + " cannot take it");
                    return null;
                }
                if (field != ActionField.MESSAGE) {
                    try {
                        field.checkLiteral(p.defaultValue());
                    } catch (IllegalArgumentException ex) {
                        error(a, "default of parameter " + param + " does not fit field " + field.path() + ": "
                                + ex.getMessage());
                        return null;
                    }
                }
                return new FieldAssignment(field, new FieldValue.ParameterRef(param), line);
            }
            try {
                CompiledPath path = engine.compilePath(xpath, parameters.keySet(), dataIds());
                reads = reads.union(path.reads());
                return new FieldAssignment(field, new FieldValue.HistoryQuery(path), line);
            } catch (QueryException ex) {
                error(a, "xpath of field " + field.path() + ": " + ex.getMessage());
                return null;
            }
        }

        /**
         * {@code field="Message/Fields/NAME" [type="…"]}: the name and type checked, a literal or
         * parameter's value checked against the type, and the number of names an action sets
         * against {@link MessageFields#MAX_FIELDS}.
         */
        private FieldAssignment compileMessageFieldSet(Element a, OpenAction o, String name) {
            ActionField field = ActionField.MESSAGE_FIELD;
            o.attempted.add(field);
            if (!o.primitive.fields().contains(field)) {
                error(a, "message fields (" + ActionField.FIELDS_PREFIX + "NAME) are set only for sendDataMessage and"
                        + " sendControlMessage, not " + o.primitive.specName());
                return null;
            }
            try {
                MessageFields.checkName(name);
            } catch (IllegalArgumentException ex) {
                error(a, ex.getMessage());
                return null;
            }
            String typeText = attr(a, "type");
            MessageField.Type type = typeText == null ? MessageField.Type.INTEGER : MessageField.Type.ofLabel(typeText);
            if (type == null) {
                error(a, "unknown field type '" + abbreviate(typeText) + "' (known: integer, string, bytes, ranges)");
                return null;
            }
            String value = attr(a, "value");
            String xpath = attr(a, "xpath");
            String param = attr(a, "param");
            String sequence = attr(a, "sequence");
            int given = (value != null ? 1 : 0) + (xpath != null ? 1 : 0) + (param != null ? 1 : 0)
                    + (sequence != null ? 1 : 0);
            if (given != 1) {
                error(a, "action:set of a message field needs exactly one of value, xpath, param or sequence (got "
                        + given + ")");
                return null;
            }
            FieldValue.SequenceKind kind = null;
            if (sequence != null) {
                kind = FieldValue.SequenceKind.ofLabel(sequence);
                if (kind == null) {
                    error(a, "unknown sequence '" + abbreviate(sequence) + "' (known: instance, next)");
                    return null;
                }
                if (type != MessageField.Type.INTEGER) {
                    error(a, "a sequence number is an integer; field " + ActionField.FIELDS_PREFIX + name + " is "
                            + type.label());
                    return null;
                }
            }
            Set<String> names = new LinkedHashSet<>();
            for (FieldAssignment prev : o.assignments) {
                if (prev.field() == field) {
                    names.add(prev.name());
                    if (prev.name().equals(name)) {
                        warning(a, "field " + prev.path() + " is set twice (also at line " + prev.line()
                                + "); the later value wins");
                    }
                }
            }
            names.add(name);
            if (names.size() > MessageFields.MAX_FIELDS) {
                error(a, o.primitive.specName() + " sets " + names.size() + " message fields > MAX_FIELDS="
                        + MessageFields.MAX_FIELDS);
                return null;
            }
            String path = ActionField.FIELDS_PREFIX + name;
            int line = pos(a).line();
            if (kind != null) {
                return new FieldAssignment(field, new FieldValue.Sequence(kind), line, name, type);
            }
            if (value != null) {
                try {
                    MessageField v = MessageFieldValues.parse(type, value);
                    if (!fitsTotal(a, o, name, v)) {
                        return null;
                    }
                    return new FieldAssignment(field, new FieldValue.Literal(value), line, name, type);
                } catch (IllegalArgumentException ex) {
                    error(a, "field " + path + " (" + type.label() + "): " + ex.getMessage());
                    return null;
                }
            }
            if (param != null) {
                Parameter p = declaredParameter(a, param);
                if (p == null) {
                    return null;
                }
                try {
                    if (!fitsTotal(a, o, name, MessageFieldValues.parse(type, p.defaultValue()))) {
                        return null;
                    }
                } catch (IllegalArgumentException ex) {
                    error(a, "default of parameter " + param + " does not fit field " + path + " (" + type.label()
                            + "): " + ex.getMessage());
                    return null;
                }
                return new FieldAssignment(field, new FieldValue.ParameterRef(param), line, name, type);
            }
            try {
                CompiledPath compiled = engine.compilePath(xpath, parameters.keySet(), dataIds());
                reads = reads.union(compiled.reads());
                return new FieldAssignment(field, new FieldValue.HistoryQuery(compiled), line, name, type);
            } catch (QueryException ex) {
                error(a, "xpath of field " + path + ": " + ex.getMessage());
                return null;
            }
        }

        /**
         * Whether the literal values an action gives its message fields (the last of each name)
         * fit {@link MessageFields#MAX_TOTAL_BYTES}; XPath values are checked when they are known,
         * at run time.
         */
        private boolean fitsTotal(Element a, OpenAction o, String name, MessageField v) {
            o.literalFieldBytes.put(name, MessageFields.FIELD_OVERHEAD_BYTES + name.length() + v.encodedLength());
            int total = 1;
            for (int n : o.literalFieldBytes.values()) {
                total += n;
            }
            if (total > MessageFields.MAX_TOTAL_BYTES) {
                error(a, "the literal message fields of " + o.primitive.specName() + " take " + total
                        + " bytes > MAX_TOTAL_BYTES=" + MessageFields.MAX_TOTAL_BYTES);
                return false;
            }
            return true;
        }

        // -------------------------------------------------------------- cross checks

        private void crossCheck() {
            Set<String> declared = new LinkedHashSet<>(basicNames);
            declared.addAll(compositeNames);
            Set<String> used = new HashSet<>();
            Map<String, TransitionRecord> seen = new HashMap<>();
            for (TransitionRecord t : transitions) {
                if (t.event != null) {
                    for (String d : t.event.split("\\s+")) {
                        markUsed(d, declared, used);
                        if (!d.contains("*") && !matchesAny(d, declared) && !matchesAny(d, raised) && !isPlatformEvent(d)) {
                            problems.add(Problem.error(t.line, t.column, "transition on undeclared event '" + d
                                    + "' (declared: " + list(declared)
                                    + (raised.isEmpty() ? "" : "; raised or sent by the spec: " + list(raised)) + ")"));
                        }
                    }
                    TransitionRecord prev = t.guarded ? null : seen.putIfAbsent(t.source + "\u0000" + t.event, t);
                    if (prev != null && !prev.guarded) {
                        problems.add(Problem.error(t.line, t.column, "state " + t.source + " has two transitions on "
                                + "event " + t.event + " (lines " + prev.line + " and " + t.line
                                + "): the machine must be deterministic"));
                    }
                }
                if (t.event == null && !t.guarded && (t.targets.isEmpty() || t.targets.contains(t.source)
                        || t.targets.stream().anyMatch(x -> isDescendant(t.source, x)))) {
                    problems.add(Problem.error(t.line, t.column, "an eventless transition without a cond that stays in "
                            + "or re-enters its own state is always enabled: the machine would loop (give it a cond "
                            + "or an event)"));
                }
                for (String target : t.targets) {
                    if (!stateElements.containsKey(target) && !histories.containsKey(target)) {
                        problems.add(Problem.error(t.line, t.column, "transition target '" + target
                                + "' does not exist (states: " + list(stateElements.keySet()) + ")"));
                    }
                }
            }
            if (startEvent != null) {
                checkStartEvent(declared);
            }
            for (Map.Entry<String, String> f : firstChild.entrySet()) {
                if (!stateElements.containsKey(f.getValue())) {
                    error(stateElements.get(f.getKey()), "initial state '" + f.getValue() + "' of state "
                            + f.getKey() + " does not exist");
                } else if (!isDescendant(f.getValue(), f.getKey())) {
                    error(stateElements.get(f.getKey()), "initial state '" + f.getValue() + "' of state "
                            + f.getKey() + " is not one of its descendants");
                }
            }
            for (PendingComposite c : composites) {
                for (String n : c.constituents) {
                    used.add(n);
                    if (!basicNames.contains(n)) {
                        error(c.element, "composite event " + c.name + ": constituent '" + n + "' is not a declared "
                                + "basic event (basic events: " + list(basicNames) + ")");
                    }
                }
            }
            for (MessageEventDefinition m : messageEvents) {
                if (!used.contains(m.name())) {
                    problems.add(Problem.warning(m.line(), 0, "event " + m.name()
                            + " is declared but no transition or composite event uses it"));
                }
            }
            for (TimerEventDefinition m : timerEvents) {
                if (!used.contains(m.name())) {
                    problems.add(Problem.warning(m.line(), 0, "timer event " + m.name()
                            + " is declared but no transition or composite event uses it"));
                }
            }
            for (PendingComposite c : composites) {
                if (!used.contains(c.name)) {
                    problems.add(Problem.warning(c.line, 0, "composite event " + c.name
                            + " is declared but no transition uses it"));
                }
            }
            checkTimers();
            checkReachability();
        }

        /**
         * Whether an expression of the datamodel may read {@code $_x?history}: it names
         * {@code $_x} outside the compiled subset (whose lookups read the node's facts, never the
         * history).
         */
        private boolean readsPlatform(Element e) {
            if (isScxml(e)) {
                NamedNodeMap attrs = e.getAttributes();
                for (int i = 0; i < attrs.getLength(); i++) {
                    Node a = attrs.item(i);
                    if (EXPRESSION_ATTRIBUTES.contains(a.getLocalName() == null ? a.getNodeName() : a.getLocalName())
                            && a.getNodeValue().contains("_x")
                            && ChartCompiler.mayReadHistory(a.getNodeValue())) {
                        return true;
                    }
                }
            }
            for (Element c : elements(e)) {
                if (readsPlatform(c)) {
                    return true;
                }
            }
            return false;
        }

        /**
         * The {@code <Start>} event is the store's, not a message's or a timer's: it must not be a
         * declared event (which would fire for messages too), and a spec that starts an instance
         * and never waits for the event has written it by mistake.
         */
        private void checkStartEvent(Set<String> declared) {
            if (declared.contains(startEvent)) {
                error(startLine, "<Start> event '" + startEvent + "' is also declared in the events section: the "
                        + "start event is fired by the store when the service is deployed; give it a name of its own");
                return;
            }
            boolean waited = false;
            for (TransitionRecord t : transitions) {
                if (t.event != null) {
                    for (String d : t.event.split("\\s+")) {
                        waited |= d.equals("*") || matchesAny(d, Set.of(startEvent));
                    }
                }
            }
            if (!waited) {
                error(startLine, "<Start> event '" + startEvent + "' has no transition: the instance started on "
                        + "deployment would do nothing (write <transition event=\"" + startEvent + "\" …>)");
            }
        }

        /** Marks the declared events a descriptor matches as used. */
        private void markUsed(String descriptor, Set<String> declared, Set<String> used) {
            String prefix = descriptor.endsWith(".*") ? descriptor.substring(0, descriptor.length() - 2) : descriptor;
            for (String e : declared) {
                if (prefix.equals("*") || e.equals(prefix) || e.startsWith(prefix + ".")) {
                    used.add(e);
                }
            }
        }

        /** Whether descriptor {@code d} matches one of {@code names} (equal, or a prefix of whole tokens). */
        private static boolean matchesAny(String d, Set<String> names) {
            for (String n : names) {
                if (n.equals(d) || n.startsWith(d + ".")) {
                    return true;
                }
            }
            return false;
        }

        /** {@code done.*}, {@code error.*}: raised by the engine itself. */
        private static boolean isPlatformEvent(String descriptor) {
            return descriptor.equals("done") || descriptor.startsWith("done.") || descriptor.equals("error")
                    || descriptor.startsWith("error.");
        }

        private void checkTimers() {
            Set<Integer> setIds = new HashSet<>();
            for (List<ActionTemplate> ts : templates.values()) {
                for (ActionTemplate t : ts) {
                    if (t.primitive() != Primitive.SET_TIMER && t.primitive() != Primitive.CANCEL_TIMER) {
                        continue;
                    }
                    FieldValue v = t.valueOf(ActionField.TIMER_IDENTIFIER);
                    Integer id = null;
                    if (v instanceof FieldValue.Literal lit) {
                        id = Integer.valueOf(lit.text().strip());
                    } else if (v instanceof FieldValue.ParameterRef ref && parameters.containsKey(ref.name())) {
                        id = Integer.valueOf(parameters.get(ref.name()).defaultValue());
                    } else if (v instanceof FieldValue.HistoryQuery) {
                        SourcePosition at = templatePositions.getOrDefault(t, SourcePosition.UNKNOWN);
                        problems.add(Problem.warning(at.line(), at.column(), t.primitive().specName()
                                + ": a timer identifier taken from an XPath cannot be checked against the timer "
                                + "events"));
                    }
                    if (id == null) {
                        continue;
                    }
                    if (t.primitive() == Primitive.SET_TIMER) {
                        setIds.add(id);
                        boolean declared = false;
                        for (TimerEventDefinition te : timerEvents) {
                            declared |= te.filter().matches(id);
                        }
                        if (!declared) {
                            SourcePosition at = templatePositions.getOrDefault(t, SourcePosition.UNKNOWN);
                            problems.add(Problem.error(at.line(), at.column(), "setTimer sets timer " + id + " but no basic "
                                    + "event declares <Timer><TimerIdentifier>" + id + "</TimerIdentifier></Timer>: "
                                    + "its expiry would be ignored"));
                        }
                    }
                }
            }
            for (TimerEventDefinition te : timerEvents) {
                int id = te.filter().timerId();
                if (id != TimerFilter.ANY_TIMER && !setIds.contains(id)) {
                    problems.add(Problem.warning(te.line(), 0, "timer event " + te.name() + " waits for timer " + id
                            + ", which no setTimer sets"));
                }
            }
        }

        private void checkReachability() {
            if (initialState == null || !stateElements.containsKey(initialState)) {
                return;
            }
            Set<String> reached = new LinkedHashSet<>();
            Deque<String> todo = new ArrayDeque<>();
            enter(initialState, reached, todo);
            Map<String, List<TransitionRecord>> bySource = new HashMap<>();
            for (TransitionRecord t : transitions) {
                bySource.computeIfAbsent(t.source, k -> new ArrayList<>()).add(t);
            }
            while (!todo.isEmpty()) {
                String s = todo.pop();
                for (String a = s; a != null; a = parents.get(a)) {
                    for (TransitionRecord t : bySource.getOrDefault(a, List.of())) {
                        for (String target : t.targets) {
                            String state = histories.getOrDefault(target, target);
                            if (stateElements.containsKey(state)) {
                                enter(state, reached, todo);
                            }
                        }
                    }
                }
            }
            for (StateInfo s : states) {
                if (!reached.contains(s.id())) {
                    problems.add(Problem.warning(s.line(), 0, "state " + s.id() + " is unreachable from the initial "
                            + "state " + initialState));
                }
            }
        }

        private void enter(String id, Set<String> reached, Deque<String> todo) {
            for (String a = id; a != null; a = parents.get(a)) {
                if (reached.add(a)) {
                    todo.push(a);
                }
            }
            Element e = stateElements.get(id);
            if (e != null && e.getLocalName().equals("parallel")) {
                for (String c : children.getOrDefault(id, List.of())) {
                    if (!reached.contains(c)) {
                        enter(c, reached, todo);
                    }
                }
            } else {
                String first = firstChild.get(id);
                if (first != null && stateElements.containsKey(first) && !reached.contains(first)) {
                    enter(first, reached, todo);
                }
            }
        }

        private boolean isDescendant(String id, String ancestor) {
            for (String a = parents.get(id); a != null; a = parents.get(a)) {
                if (a.equals(ancestor)) {
                    return true;
                }
            }
            return false;
        }

        // -------------------------------------------------------------- helpers

        private boolean hasSchemaErrors(Element e) {
            if (schemaFailed.contains(e)) {
                return true;
            }
            for (Node f : schemaFailed) {
                for (Node p = f; p != null; p = p.getParentNode()) {
                    if (p == e) {
                        return true;
                    }
                }
            }
            return false;
        }

        private boolean timedOut(String what) {
            if (deadline.passed()) {
                problems.add(Problem.error(0, 0, deadline.message(what)));
                return true;
            }
            return false;
        }

        private void error(Node at, String message) {
            SourcePosition p = pos(at);
            problems.add(Problem.error(p.line(), p.column(), message));
        }

        private void warning(Node at, String message) {
            SourcePosition p = pos(at);
            problems.add(Problem.warning(p.line(), p.column(), message));
        }
    }

    // ------------------------------------------------------------------------------------------

    private record TransitionRecord(String source, String event, List<String> targets, int line, int column,
            BlockKey key, boolean guarded) {
    }

    private record PendingComposite(String name, List<String> constituents, CompiledQuery query, int line,
            Element element) {
    }

    private static final class OpenAction {
        final Primitive primitive;
        final int line;
        final List<FieldAssignment> assignments = new ArrayList<>();
        final Set<ActionField> attempted = EnumSet.noneOf(ActionField.class);
        /** Encoded bytes of each message field set from a literal or parameter (the last of each name). */
        final Map<String, Integer> literalFieldBytes = new HashMap<>();

        OpenAction(Primitive primitive, int line) {
            this.primitive = primitive;
            this.line = line;
        }
    }

    private static SourcePosition pos(Node n) {
        return SourcePosition.of(n);
    }

    private static boolean isScxml(Element e) {
        return SpecNamespaces.SCXML.equals(e.getNamespaceURI());
    }

    private static boolean isScxml(Element e, String local) {
        return SpecNamespaces.SCXML.equals(e.getNamespaceURI()) && local.equals(e.getLocalName());
    }

    private static String nsOf(Element e) {
        return e.getNamespaceURI() == null ? "(none)" : e.getNamespaceURI();
    }

    /** The attribute's value, or {@code null} when absent. */
    static String attr(Element e, String name) {
        Attr a = e.getAttributeNodeNS(null, name);
        return a == null ? null : a.getValue();
    }

    static List<Element> elements(Element parent) {
        List<Element> out = new ArrayList<>();
        for (Node c = parent.getFirstChild(); c != null; c = c.getNextSibling()) {
            if (c instanceof Element e) {
                out.add(e);
            }
        }
        return out;
    }

    private static String list(Set<String> names) {
        if (names.isEmpty()) {
            return "none";
        }
        List<String> sorted = new ArrayList<>(new TreeSet<>(names));
        if (sorted.size() <= MAX_LISTED) {
            return String.join(", ", sorted);
        }
        return String.join(", ", sorted.subList(0, MAX_LISTED)) + ", … (" + sorted.size() + " in all)";
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }
}
