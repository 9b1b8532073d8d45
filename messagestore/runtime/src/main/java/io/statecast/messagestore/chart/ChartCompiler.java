package io.statecast.messagestore.chart;

import io.statecast.messagestore.event.XQueryEngine;
import io.statecast.messagestore.spec.Problem;
import io.statecast.messagestore.spec.SpecDocuments;
import io.statecast.messagestore.spec.SpecException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.sf.saxon.s9api.Processor;
import net.sf.saxon.s9api.QName;
import net.sf.saxon.s9api.SaxonApiException;
import net.sf.saxon.s9api.XPathCompiler;
import net.sf.saxon.s9api.XPathExecutable;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Compiles an SCXML document (XPath datamodel) into a {@link Chart}: numbers the states in
 * document order, resolves every target and initial state, compiles every expression once with a
 * sandboxed Saxon processor, and turns executable content into {@link Action}s. What it cannot
 * run it refuses, naming the element and its line: {@code <invoke>}, {@code <script>}, a datamodel
 * other than {@code xpath}, an unknown element.
 *
 * <p>Thread-safe: each compile uses its own Saxon compiler; the processor is shared by the charts
 * it compiles.
 */
public final class ChartCompiler {

    /** The SCXML namespace. */
    public static final String SCXML_NS = "http://www.w3.org/2005/07/scxml";

    private static final String LANGUAGE_VERSION = "3.1";
    /** Most (state, event name) candidate lists a chart keeps; beyond, steps scan the transitions. */
    private static final int MAX_CANDIDATE_ENTRIES = 1 << 16;
    /** The Recommendation's system variables; read-only for the chart. */
    static final Set<String> SYSTEM_VARIABLES = Set.of("_event", "_sessionid", "_name", "_ioprocessors", "_x");
    /**
     * Executable content that changes only the datamodel's values (or logs them), never which
     * transitions are taken, as long as no condition reads the datamodel and no transition
     * handles {@code error.execution}.
     */
    static final Set<String> VALUE_ONLY_CONTENT = Set.of("assign", "log");
    /** The platform's variable, {@code $_x}: the only system variable the compiled subset reads. */
    static final String PLATFORM = "_x";
    /** The one entry of {@code $_x} the compiled subset does not read: it is a document. */
    static final String HISTORY = "history";

    /**
     * Whether an expression may read the instance's history ({@code $_x?history}): it names
     * {@code $_x} and is not in the compiled subset (whose reads of {@code $_x} are lookups of its
     * other entries). A host keeps every event's XML form only for a spec with such an expression.
     *
     * @param text an expression of the datamodel
     */
    public static boolean mayReadHistory(String text) {
        return namesVariable(text, PLATFORM) && SubsetCompiler.compile(text) == null;
    }

    private final Processor processor;

    /** Whether {@code text} names {@code $variable} as a whole token (not {@code $variable2}). */
    static boolean namesVariable(String text, String variable) {
        String token = "$" + variable;
        for (int at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + 1)) {
            int end = at + token.length();
            if (end >= text.length()
                    || !(Character.isLetterOrDigit(text.charAt(end)) || "_.-".indexOf(text.charAt(end)) >= 0)) {
                return true;
            }
        }
        return false;
    }
    /** Applies the spec sandbox to every expression; {@code null} applies none (trusted test input). */
    private final XQueryEngine sandbox;
    /** Compiles each expression once more, unoptimised, for the sandbox's inspection. */
    private final Processor unoptimised;

    /**
     * A compiler with its own sandboxed processor (no external resources), without the spec
     * sandbox's checks on each expression: for trusted documents such as the W3C tests.
     */
    public ChartCompiler() {
        this(null);
    }

    /**
     * A compiler whose every expression must pass {@code sandbox}'s checks (text bounds, allowed
     * functions, bounded ranges), as the XQuery of specs does.
     */
    public ChartCompiler(XQueryEngine sandbox) {
        // with a sandbox, its processor: expressions may then read the history's nodes ($_x),
        // which Saxon allows only to expressions compiled by the configuration that built them
        this.processor = sandbox != null ? sandbox.processor() : XQueryEngine.sandboxedProcessor();
        this.processor.registerExtensionFunction(new InFunction());
        this.sandbox = sandbox;
        // The sandbox inspects each expression as written, compiled again without optimisation:
        // an optimiser folds exists(doc('file:…')) into true() before the check could see the call.
        this.unoptimised = sandbox == null ? null : XQueryEngine.sandboxedProcessor();
        if (unoptimised != null) {
            unoptimised.setConfigurationProperty(net.sf.saxon.lib.Feature.OPTIMIZATION_LEVEL, "0");
            unoptimised.registerExtensionFunction(new InFunction());
        }
    }

    /**
     * Compiles a document read by {@link SpecDocuments#read}.
     *
     * @param source what to call it in errors
     * @throws SpecException naming every problem with its line
     */
    public Chart compile(String source, Document document, ChartOptions options) throws SpecException {
        Run run = new Run(source, options);
        Chart chart = run.compile(document.getDocumentElement());
        if (!run.problems.isEmpty()) {
            throw new SpecException(source, run.problems);
        }
        return chart;
    }

    /** The state of one compile. */
    private final class Run {
        final String source;
        final ChartOptions options;
        final List<Problem> problems = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        final List<StateNode> states = new ArrayList<>();
        final Map<String, StateNode> byId = new HashMap<>();
        final Map<StateNode, Element> elements = new HashMap<>();
        final Set<String> variableNames = new LinkedHashSet<>();
        /** Compiles the datamodel's reads of the history ({@code exists($_x?history/…)}); set with the variables. */
        SubsetCompiler.HistoryReads historyReads;
        XPathCompiler xpath;
        XPathCompiler checker;
        /** Why the chart is more than states, events and custom content (for tools that model only that). */
        final List<String> standardContent = new ArrayList<>();
        /** The part of {@link #standardContent} that may change configurations (not only values). */
        final List<String> controlContent = new ArrayList<>();

        Run(String source, ChartOptions options) {
            this.source = source;
            this.options = options;
        }

        Chart compile(Element scxml) {
            if (!isScxml(scxml, "scxml")) {
                error(scxml, "the root element must be <scxml> in namespace " + SCXML_NS);
                return null;
            }
            String dm = scxml.getAttribute("datamodel").trim();
            if (!dm.isEmpty() && !dm.equals("xpath")) {
                error(scxml, "datamodel '" + dm + "' is not supported: this engine runs the XPath datamodel");
            }
            String binding = scxml.getAttribute("binding").trim();
            if (!binding.isEmpty() && !binding.equals("early") && !binding.equals("late")) {
                error(scxml, "binding must be 'early' or 'late', not '" + binding + "'");
            }
            collectVariables(scxml);
            xpath = processor.newXPathCompiler();
            xpath.setLanguageVersion(LANGUAGE_VERSION);
            checker = unoptimised == null ? null : unoptimised.newXPathCompiler();
            if (checker != null) {
                checker.setLanguageVersion(LANGUAGE_VERSION);
                checker.setWarningHandler(w -> { });
            }
            xpath.setWarningHandler(w -> { });
            List<QName> variables = new ArrayList<>();
            for (String v : variableNames) {
                QName q = new QName(v);
                xpath.declareVariable(q);
                if (checker != null) {
                    checker.declareVariable(q);
                }
                variables.add(q);
            }
            StateNode root = new StateNode(0, "_scxml", StateKind.ROOT, null);
            states.add(root);
            elements.put(root, scxml);
            numberChildren(scxml, root);
            StateNode[] array = states.toArray(new StateNode[0]);
            for (StateNode s : array) {
                fill(s, elements.get(s));
            }
            root.initial = initialOf(root, scxml);
            plan(array);
            for (StateNode s : array) {
                if (s.data.length > 0) {
                    standardContent.add("<data> in " + s.id);
                }
                if (s.kind.isHistory()) {
                    standardContent.add("<history> " + s.id);
                    controlContent.add("<history> " + s.id);
                }
                for (Transition t : s.transitions) {
                    if (t.events() == null) {
                        standardContent.add("an eventless transition in " + s.id);
                        controlContent.add("an eventless transition in " + s.id);
                    }
                    if (t.cond() != null) {
                        standardContent.add("a cond in " + s.id);
                        controlContent.add("a cond in " + s.id);
                    }
                    for (String e : t.events() == null ? new String[0] : t.events()) {
                        if (e.equals("*") || e.equals("error") || e.startsWith("error.")) {
                            // an <assign> that fails raises error.execution: here it would steer
                            controlContent.add("a transition on " + e + " in " + s.id);
                        }
                    }
                }
            }
            return new Chart(scxml.getAttribute("name"), array, byId, binding.equals("late"), variables, processor,
                    warnings, standardContent, controlContent, options.parameters());
        }

        /**
         * Works out, once, what each step needs: every transition's entry plan (where no history
         * is involved), and per atomic state the candidate transitions of each event name.
         */
        void plan(StateNode[] array) {
            Set<String> names = new LinkedHashSet<>();
            for (StateNode s : array) {
                for (Transition t : s.transitions) {
                    t.plan = Entries.plan(t, array);
                    if (t.events() != null) {
                        for (String d : t.events()) {
                            if (!d.equals("*")) {
                                names.add(d);
                            }
                        }
                    }
                }
                if (s.initial != null) {
                    s.initial.plan = Entries.plan(s.initial, array);
                }
            }
            int budget = MAX_CANDIDATE_ENTRIES;
            for (StateNode s : array) {
                if (!s.isAtomic()) {
                    continue;
                }
                List<Transition> eventless = new ArrayList<>();
                for (StateNode a = s; a != null; a = a.parent) {
                    for (Transition t : a.transitions) {
                        if (t.events() == null) {
                            eventless.add(t);
                        }
                    }
                }
                s.eventless = eventless.toArray(new Transition[0]);
                budget -= names.size();
                if (budget < 0) {
                    continue; // a huge chart: its steps scan instead
                }
                Map<String, Transition[]> byName = new HashMap<>();
                for (String name : names) {
                    List<Transition> matching = new ArrayList<>(2);
                    for (StateNode a = s; a != null; a = a.parent) {
                        for (Transition t : a.transitions) {
                            if (t.matches(name)) {
                                matching.add(t);
                            }
                        }
                    }
                    byName.put(name, matching.toArray(new Transition[0]));
                }
                s.candidates = Map.copyOf(byName);
            }
        }

        // ---- pass 1: names ---------------------------------------------------------------------

        void collectVariables(Element e) {
            variableNames.addAll(SYSTEM_VARIABLES);
            Set<String> declared = new LinkedHashSet<>();
            Set<String> loopVariables = new HashSet<>();
            for (Element d : descendants(e)) {
                if (isScxml(d, "data") && !d.getAttribute("id").isEmpty()) {
                    variableNames.add(d.getAttribute("id"));
                    declared.add(d.getAttribute("id"));
                    refuseParameterName(d, d.getAttribute("id"));
                } else if (isScxml(d, "foreach")) {
                    for (String a : new String[] {"item", "index"}) {
                        String v = d.getAttribute(a);
                        if (XPathData.isVariableName(v)) {
                            variableNames.add(v);
                            loopVariables.add(v);
                            refuseParameterName(d, v);
                        }
                    }
                }
            }
            // the spec's parameters: read-only variables, their values from the host
            variableNames.addAll(options.parameters());
            // a read of the history may name the <data> variables (a <foreach> may bind its item
            // to any value, so a name it binds stays Saxon's)
            declared.removeAll(loopVariables);
            List<String> ids = List.copyOf(declared);
            Set<String> parameters = options.parameters();
            historyReads = new SubsetCompiler.HistoryReads() {
                @Override
                public io.statecast.messagestore.event.CompiledExpression compile(String text) {
                    return io.statecast.messagestore.event.CompiledExpression.compilePlatformRead(text, parameters, ids);
                }

                @Override
                public List<String> dataIds() {
                    return ids;
                }
            };
        }

        /** A variable may not hide a parameter: {@code $Name} would mean two things. */
        void refuseParameterName(Element e, String name) {
            if (options.parameters().contains(name)) {
                error(e, "variable '" + name + "' has the name of a parameter; parameters are read-only variables "
                        + "of every expression: rename one of them");
            }
        }

        List<Element> descendants(Element e) {
            List<Element> out = new ArrayList<>();
            for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element c) {
                    out.add(c);
                    out.addAll(descendants(c));
                }
            }
            return out;
        }

        // ---- pass 2: the state tree, in document order ----------------------------------------

        void numberChildren(Element e, StateNode parent) {
            for (Element c : children(e)) {
                StateKind kind = kindOf(c);
                if (kind == null) {
                    continue;
                }
                String id = c.getAttribute("id");
                if (id.isEmpty()) {
                    id = "_state" + states.size();
                }
                StateNode s = new StateNode(states.size(), id, kind, parent);
                if (byId.putIfAbsent(id, s) != null) {
                    error(c, "state id '" + id + "' is used twice");
                }
                states.add(s);
                elements.put(s, c);
                if (kind == StateKind.COMPOUND || kind == StateKind.PARALLEL) {
                    numberChildren(c, s);
                }
                s.lastDescendant = states.size() - 1;
            }
            parent.lastDescendant = states.size() - 1;
        }

        StateKind kindOf(Element c) {
            if (!SCXML_NS.equals(c.getNamespaceURI())) {
                return null;
            }
            switch (c.getLocalName()) {
                case "state":
                    for (Element g : children(c)) {
                        if (isScxml(g, "state") || isScxml(g, "parallel") || isScxml(g, "final")) {
                            return StateKind.COMPOUND;
                        }
                    }
                    return StateKind.ATOMIC;
                case "parallel":
                    return StateKind.PARALLEL;
                case "final":
                    return StateKind.FINAL;
                case "history":
                    return "deep".equals(c.getAttribute("type").trim()) ? StateKind.DEEP_HISTORY : StateKind.SHALLOW_HISTORY;
                default:
                    return null;
            }
        }

        // ---- pass 3: each state's content --------------------------------------------------------

        void fill(StateNode s, Element e) {
            List<StateNode> kids = new ArrayList<>();
            List<StateNode> histories = new ArrayList<>();
            List<Transition> ts = new ArrayList<>();
            List<Action[]> entry = new ArrayList<>();
            List<Action[]> exit = new ArrayList<>();
            List<DataDecl> data = new ArrayList<>();
            for (Element c : children(e)) {
                if (!SCXML_NS.equals(c.getNamespaceURI())) {
                    if (s.kind != StateKind.ROOT || !c.getLocalName().equals("datamodel")) {
                        warning(c, "element <" + c.getTagName() + "> of another namespace is ignored here");
                    }
                    continue;
                }
                switch (c.getLocalName()) {
                    case "state", "parallel", "final" -> kids.add(stateOf(c));
                    case "history" -> histories.add(stateOf(c));
                    case "transition" -> {
                        if (s.kind == StateKind.ROOT || s.kind == StateKind.FINAL) {
                            error(c, "<transition> is not allowed in <" + e.getLocalName() + ">");
                        } else if (!s.kind.isHistory()) {
                            ts.add(transition(s, c, false));
                        }
                    }
                    case "onentry" -> entry.add(block(c));
                    case "onexit" -> exit.add(block(c));
                    case "datamodel" -> {
                        for (Element d : children(c)) {
                            if (isScxml(d, "data") && options.blueprintSections() && !d.hasAttribute("id")
                                    && d.hasAttribute("name")) {
                                continue; // a blueprint section, read by the spec validator
                            }
                            if (isScxml(d, "data")) {
                                data.add(dataDecl(d));
                            } else {
                                error(d, "<datamodel> holds only <data>, not <" + d.getTagName() + ">");
                            }
                        }
                    }
                    case "donedata" -> s.doneData = doneData(c);
                    case "initial" -> {
                        // handled by initialOf
                    }
                    case "invoke" -> error(c, "<invoke> is not supported: services run in the MessageStore, not as sessions");
                    case "script" -> error(c, "<script> is not supported: the XPath datamodel has no scripts");
                    default -> error(c, "<" + c.getLocalName() + "> is not allowed in <" + e.getLocalName() + ">");
                }
            }
            s.children = kids.toArray(new StateNode[0]);
            s.histories = histories.toArray(new StateNode[0]);
            s.transitions = ts.toArray(new Transition[0]);
            s.onEntry = entry.toArray(new Action[0][]);
            s.onExit = exit.toArray(new Action[0][]);
            s.data = data.toArray(new DataDecl[0]);
            if (s.kind == StateKind.COMPOUND) {
                s.initial = initialOf(s, e);
            } else if (s.kind.isHistory()) {
                Element t = null;
                for (Element c : children(e)) {
                    if (isScxml(c, "transition")) {
                        t = c;
                    }
                }
                if (t == null) {
                    error(e, "<history> needs a <transition> to its default state");
                    s.initial = new Transition(s, null, null, new StateNode[0], false, new Action[0]);
                } else {
                    s.initial = transition(s, t, true);
                }
            }
        }

        StateNode stateOf(Element c) {
            for (Map.Entry<StateNode, Element> en : elements.entrySet()) {
                if (en.getValue() == c) {
                    return en.getKey();
                }
            }
            throw new IllegalStateException("unnumbered state");
        }

        Transition initialOf(StateNode s, Element e) {
            String attr = e.getAttribute("initial").trim();
            if (s.kind == StateKind.ROOT && attr.isEmpty()) {
                attr = e.getAttribute("initialstate").trim();
            }
            for (Element c : children(e)) {
                if (isScxml(c, "initial")) {
                    if (!attr.isEmpty()) {
                        error(c, "a state may have an 'initial' attribute or an <initial> element, not both");
                    }
                    Element t = null;
                    for (Element g : children(c)) {
                        if (isScxml(g, "transition")) {
                            t = g;
                        }
                    }
                    if (t == null) {
                        error(c, "<initial> needs a <transition>");
                        break;
                    }
                    return transition(s, t, true);
                }
            }
            StateNode[] targets;
            if (!attr.isEmpty()) {
                targets = resolve(e, attr.split("\\s+"), s);
            } else {
                targets = s.children.length == 0 ? new StateNode[0] : new StateNode[] {s.children[0]};
                if (s.kind == StateKind.ROOT) {
                    List<StateNode> top = new ArrayList<>();
                    for (StateNode st : states) {
                        if (st.parent == s && !st.kind.isHistory()) {
                            top.add(st);
                        }
                    }
                    targets = top.isEmpty() ? new StateNode[0] : new StateNode[] {top.get(0)};
                }
            }
            if (targets.length == 0) {
                error(e, "<" + e.getLocalName() + "> has no state to start in");
            }
            return new Transition(s, null, null, targets, true, new Action[0]);
        }

        StateNode[] resolve(Element where, String[] ids, StateNode within) {
            List<StateNode> out = new ArrayList<>();
            for (String id : ids) {
                StateNode t = byId.get(id);
                if (t == null) {
                    error(where, "no state has the id '" + id + "'");
                } else if (within != null && within.kind != StateKind.ROOT && !t.isDescendantOf(within)) {
                    error(where, "initial state '" + id + "' is not inside '" + within.id + "'");
                } else {
                    out.add(t);
                }
            }
            return out.toArray(new StateNode[0]);
        }

        Transition transition(StateNode s, Element c, boolean initial) {
            String ev = c.getAttribute("event").trim();
            String[] events = null;
            if (!ev.isEmpty()) {
                events = ev.split("\\s+");
                for (int i = 0; i < events.length; i++) {
                    String d = events[i];
                    if (d.endsWith(".*")) {
                        d = d.substring(0, d.length() - 2);
                    }
                    if (d.endsWith(".")) {
                        d = d.substring(0, d.length() - 1);
                    }
                    events[i] = d;
                }
            }
            Expr cond = c.hasAttribute("cond") ? expr(c, "cond") : null;
            String target = c.getAttribute("target").trim();
            StateNode within = !initial ? null : s.kind.isHistory() ? s.parent : s;
            StateNode[] targets = target.isEmpty() ? new StateNode[0] : resolve(c, target.split("\\s+"), within);
            if (initial && (events != null || cond != null)) {
                error(c, "an initial or history transition has no event or cond");
            }
            boolean internal = "internal".equals(c.getAttribute("type").trim());
            return new Transition(s, events, cond, targets, internal, block(c));
        }

        // ---- executable content ----------------------------------------------------------------

        Action[] block(Element parent) {
            List<Action> out = new ArrayList<>();
            for (Element c : children(parent)) {
                Action a = action(c);
                if (a != null) {
                    out.add(a);
                }
            }
            return out.toArray(new Action[0]);
        }

        Action action(Element c) {
            if (!SCXML_NS.equals(c.getNamespaceURI())) {
                Object payload = options.customActions() == null ? null : options.customActions().compile(c);
                if (payload == null) {
                    error(c, "<" + c.getTagName() + "> is not executable content this engine knows");
                    return null;
                }
                return payload == ChartOptions.CustomActions.NOTHING ? null : new CustomAction(payload);
            }
            standardContent.add("<" + c.getLocalName() + "> at line " + SpecDocuments.lineOf(c));
            if (!VALUE_ONLY_CONTENT.contains(c.getLocalName())) {
                controlContent.add("<" + c.getLocalName() + "> at line " + SpecDocuments.lineOf(c));
            }
            switch (c.getLocalName()) {
                case "raise": {
                    String ev = c.getAttribute("event").trim();
                    if (ev.isEmpty()) {
                        error(c, "<raise> needs an event");
                    }
                    return new RaiseAction(ev);
                }
                case "log":
                    return new LogAction(c.hasAttribute("label") ? c.getAttribute("label") : null,
                            c.hasAttribute("expr") ? expr(c, "expr") : null);
                case "assign": {
                    AssignAction.AssignType type;
                    try {
                        type = AssignAction.AssignType.of(c.hasAttribute("type") ? c.getAttribute("type") : null);
                    } catch (IllegalArgumentException ex) {
                        error(c, "<assign type='" + c.getAttribute("type") + "'> is not a type of the XPath datamodel");
                        return null;
                    }
                    if (!c.hasAttribute("location")) {
                        error(c, "<assign> needs a location");
                        return null;
                    }
                    Expr location = expr(c, "location");
                    String assigned = locationVariable(c.getAttribute("location"));
                    if (assigned != null && options.parameters().contains(assigned)) {
                        error(c, "<assign location='" + c.getAttribute("location")
                                + "'>: a parameter is read-only (override it with the deployment's parameters)");
                    } else if (options.strict() && !assignsDeclared(c.getAttribute("location"))) {
                        error(c, "<assign location='" + c.getAttribute("location")
                                + "'> does not start at a declared variable ($name)");
                    }
                    Expr value = c.hasAttribute("expr") ? expr(c, "expr") : null;
                    Element content = value == null && hasContent(c) ? c : null;
                    return new AssignAction(location, value, content, type,
                            c.hasAttribute("attr") ? c.getAttribute("attr") : null);
                }
                case "if":
                    return ifAction(c);
                case "foreach": {
                    Expr array = expr(c, "array");
                    String item = c.getAttribute("item");
                    String index = c.hasAttribute("index") ? c.getAttribute("index") : null;
                    if (options.strict() && (!XPathData.isVariableName(item)
                            || (index != null && !XPathData.isVariableName(index)))) {
                        error(c, "<foreach> item and index must be variable names");
                    }
                    return new ForeachAction(array, item, index, block(c));
                }
                case "send":
                    return send(c);
                case "cancel":
                    return new CancelAction(c.hasAttribute("sendid") ? c.getAttribute("sendid") : null,
                            c.hasAttribute("sendidexpr") ? expr(c, "sendidexpr") : null);
                case "script":
                    error(c, "<script> is not supported: the XPath datamodel has no scripts");
                    return null;
                default:
                    error(c, "<" + c.getLocalName() + "> is not executable content");
                    return null;
            }
        }

        boolean assignsDeclared(String location) {
            String name = locationVariable(location);
            return name != null && variableNames.contains(name) && !SYSTEM_VARIABLES.contains(name);
        }

        /** The variable a location starts at ({@code $name…}), or {@code null}. */
        String locationVariable(String location) {
            String l = location.trim();
            if (!l.startsWith("$")) {
                return null;
            }
            int end = 1;
            while (end < l.length() && (Character.isLetterOrDigit(l.charAt(end)) || "_.-".indexOf(l.charAt(end)) >= 0)) {
                end++;
            }
            return l.substring(1, end);
        }

        Action ifAction(Element c) {
            List<Expr> conds = new ArrayList<>();
            List<Action[]> blocks = new ArrayList<>();
            conds.add(expr(c, "cond"));
            List<Action> current = new ArrayList<>();
            boolean sawElse = false;
            for (Element k : children(c)) {
                if (isScxml(k, "elseif") || isScxml(k, "else")) {
                    if (sawElse) {
                        error(k, "nothing may follow <else> in an <if>");
                    }
                    blocks.add(current.toArray(new Action[0]));
                    current = new ArrayList<>();
                    sawElse = isScxml(k, "else");
                    conds.add(sawElse ? null : expr(k, "cond"));
                } else {
                    Action a = action(k);
                    if (a != null) {
                        current.add(a);
                    }
                }
            }
            blocks.add(current.toArray(new Action[0]));
            return new IfAction(conds.toArray(new Expr[0]), blocks.toArray(new Action[0][]));
        }

        Action send(Element c) {
            String[] namelist = c.hasAttribute("namelist") ? c.getAttribute("namelist").trim().split("\\s+") : null;
            DoneData data = doneData(c);
            long delay = 0;
            if (c.hasAttribute("delay")) {
                try {
                    delay = Delays.parse(c.getAttribute("delay"), where(c, "delay"));
                } catch (ChartError e) {
                    error(c, e.getMessage());
                }
            }
            String target = attr(c, "target");
            if (options.strict() && target != null && !target.equals("#_internal") && !target.startsWith("#_scxml_")) {
                error(c, "send target '" + target + "' is not supported: a spec sends only to itself "
                        + "(no target, #_internal); messages to other nodes are primitives");
            }
            String type = attr(c, "type");
            if (options.strict() && type != null && !type.equals(SendAction.SCXML_PROCESSOR) && !type.equals("scxml")) {
                error(c, "send type '" + type + "' is not supported: only the SCXML event processor");
            }
            if ((c.hasAttribute("event") && c.hasAttribute("eventexpr"))
                    || (c.hasAttribute("target") && c.hasAttribute("targetexpr"))
                    || (c.hasAttribute("delay") && c.hasAttribute("delayexpr"))) {
                error(c, "<send> may have one of event/eventexpr, target/targetexpr, delay/delayexpr");
            }
            return new SendAction(attr(c, "event"), c.hasAttribute("eventexpr") ? expr(c, "eventexpr") : null,
                    attr(c, "target"), c.hasAttribute("targetexpr") ? expr(c, "targetexpr") : null,
                    attr(c, "type"), c.hasAttribute("typeexpr") ? expr(c, "typeexpr") : null,
                    attr(c, "id"), c.hasAttribute("idlocation") ? expr(c, "idlocation") : null,
                    delay, c.hasAttribute("delayexpr") ? expr(c, "delayexpr") : null,
                    namelist, data.params(), data.contentExpr(), data.content());
        }

        Param param(Element k) {
            String name = k.getAttribute("name");
            if (name.isEmpty()) {
                error(k, "<param> needs a name");
            }
            return new Param(name, k.hasAttribute("expr") ? expr(k, "expr") : null,
                    k.hasAttribute("location") ? expr(k, "location") : null);
        }

        /** The {@code <param>}s and {@code <content>} of a {@code <donedata>} or {@code <send>}. */
        DoneData doneData(Element c) {
            List<Param> params = new ArrayList<>();
            Expr contentExpr = null;
            Element content = null;
            for (Element k : children(c)) {
                if (isScxml(k, "param")) {
                    params.add(param(k));
                } else if (isScxml(k, "content")) {
                    if (k.hasAttribute("expr")) {
                        contentExpr = expr(k, "expr");
                    } else {
                        content = k;
                    }
                } else {
                    error(k, "<" + c.getLocalName() + "> holds <param> and <content>, not <" + k.getTagName() + ">");
                }
            }
            return new DoneData(contentExpr, content, params.toArray(new Param[0]));
        }

        DataDecl dataDecl(Element d) {
            String id = d.getAttribute("id");
            if (!XPathData.isVariableName(id)) {
                error(d, "<data id='" + id + "'> is not a legal variable name");
            }
            String src = null;
            String srcError = null;
            if (d.hasAttribute("src")) {
                if (options.dataResolver() == null) {
                    error(d, "<data src> is not allowed: specs may not read external resources");
                } else {
                    try {
                        src = options.dataResolver().read(d.getAttribute("src"));
                    } catch (IOException e) {
                        srcError = "src '" + d.getAttribute("src") + "' cannot be read: " + e.getMessage();
                    }
                }
            }
            return new DataDecl(id, d.hasAttribute("expr") ? expr(d, "expr") : null, hasContent(d) ? d : null, src,
                    srcError);
        }

        // ---- expressions ------------------------------------------------------------------------

        Expr expr(Element e, String attribute) {
            String text = e.getAttribute(attribute);
            String where = where(e, attribute);
            String msg;
            try {
                if (sandbox != null) {
                    sandbox.checkText(text);
                }
                XPathExecutable exe = xpath.compile(text);
                if (sandbox != null) {
                    sandbox.checkCompiled(checker.compile(text));
                }
                // system variables ($_event, $_x, …) are built for Saxon when it evaluates: theirs
                // ($_x's entries the subset reads through its scope)
                return new Expr(text, exe, null, where,
                        SYSTEM_VARIABLES.stream().anyMatch(v -> !v.equals(PLATFORM) && namesVariable(text, v)) ? null
                        : SubsetCompiler.compile(text, historyReads));
            } catch (SaxonApiException ex) {
                msg = "'" + text + "' does not compile: " + ex.getMessage();
            } catch (io.statecast.messagestore.event.QueryException ex) {
                msg = "'" + text + "' is refused: " + ex.getMessage();
            }
            if (options.strict()) {
                error(e, msg);
            }
            return new Expr(text, null, msg, where, null);
        }

        String where(Element e, String attribute) {
            return "line " + SpecDocuments.lineOf(e) + ", <" + e.getLocalName() + " " + attribute + ">";
        }

        // ---- helpers ------------------------------------------------------------------------------

        String attr(Element c, String name) {
            return c.hasAttribute(name) ? c.getAttribute(name) : null;
        }

        boolean hasContent(Element e) {
            for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element || (n.getNodeType() == Node.TEXT_NODE && !n.getNodeValue().isBlank())
                        || n.getNodeType() == Node.CDATA_SECTION_NODE) {
                    return true;
                }
            }
            return false;
        }

        List<Element> children(Element e) {
            List<Element> out = new ArrayList<>();
            for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element c) {
                    out.add(c);
                }
            }
            return out;
        }

        boolean isScxml(Element e, String local) {
            return SCXML_NS.equals(e.getNamespaceURI()) && local.equals(e.getLocalName());
        }

        void error(Element e, String message) {
            problems.add(Problem.error(SpecDocuments.lineOf(e), SpecDocuments.columnOf(e), message));
        }

        void warning(Element e, String message) {
            warnings.add(source + ":" + SpecDocuments.lineOf(e) + ": " + message.toLowerCase(Locale.ROOT).charAt(0)
                    + message.substring(1));
        }
    }
}
