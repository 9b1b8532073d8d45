package io.statecast.messagestore.chart;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import net.sf.saxon.Configuration;
import net.sf.saxon.dom.DocumentWrapper;
import net.sf.saxon.dom.NodeOverNodeInfo;
import net.sf.saxon.om.NodeInfo;
import net.sf.saxon.s9api.QName;
import net.sf.saxon.s9api.SaxonApiException;
import net.sf.saxon.s9api.XPathSelector;
import net.sf.saxon.s9api.XdmEmptySequence;
import net.sf.saxon.s9api.XdmItem;
import net.sf.saxon.s9api.XdmNode;
import net.sf.saxon.s9api.XdmValue;
import net.sf.saxon.tree.wrapper.VirtualNode;
import net.sf.saxon.type.StringToDouble;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * One session's XPath datamodel (Recommendation B.2): an XML document {@code <datamodel>} with one
 * {@code <data id="…">} element per variable; {@code $id} is bound to that element, so
 * {@code $x/text()} and {@code $x + 1} read it and {@code <assign location="$x">} replaces its
 * children. System variables ({@code _event}, {@code _sessionid}, {@code _name},
 * {@code _ioprocessors}) are elements of the same shape that assignments may not touch.
 *
 * <p>Expressions run on Saxon over a DOM wrapper of the document, made again after each change.
 * Expressions of the subset {@link SubsetCompiler} compiles run without Saxon or the DOM where
 * they stand in a {@code cond}, a {@code <log expr>}, a {@code <data expr>}, or the {@code expr}
 * of an {@code <assign location="$name">} replacing the children: such an assignment keeps the
 * value as a Java value in {@link #scalars}, and the variable's {@code <data>} element gets its
 * text only when something other than the subset reads the document ({@link #flush}).
 *
 * <p>The document itself is made when something first needs it ({@link #dom}): a session whose
 * declarations and expressions all stay in the subset never builds one (a DOM document costs tens
 * of kilobytes, far more than the rest of a short-lived instance). Until then a declared variable
 * is an empty {@code <data>} element or holds its scalar, and {@link #nodeCount} counts the nodes
 * the document would hold.
 */
final class XPathData implements SubsetExpr.Scope {

    private static final Set<String> SYSTEM = ChartCompiler.SYSTEM_VARIABLES;
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.\\-]*");
    /** The string value of an empty element. */
    private static final SubsetExpr.Untyped EMPTY = new SubsetExpr.Untyped("");

    private final Chart chart;
    private final Session session;
    private final ChartLimits limits;
    private final Configuration config;
    /** The document, {@code null} until {@link #dom} makes it. */
    private Document doc;
    private Element root;
    /** Every variable's element; empty (and immutable) until {@link #dom} makes the document. */
    private Map<String, Element> vars = Map.of();
    /**
     * Whether the chart's variables ({@link Chart#dataIds}) are declared: until the document is
     * made, each is an empty {@code <data>} element or holds its scalar.
     */
    private boolean declared;
    private DocumentWrapper wrapper;
    /**
     * Variables whose value a subset assignment left as a Java value, not yet written to their
     * element (whose children are stale meanwhile). The truth for those variables until {@link #flush}.
     */
    private final Map<String, SubsetExpr.Untyped> scalars = new HashMap<>(4);
    /** The variables as the compiled reads of the history see them, for the chart's list of them. */
    private io.statecast.messagestore.event.DatamodelValues historyData;
    private java.util.List<String> historyDataIds;
    private final StringToDouble toDouble;
    /** Saxon's values of the variables since the last change; made with the document. */
    private Map<String, XdmValue> bound = Map.of();
    /** Foreach variables bound to an item: a datamodel {@link Node}, or an {@link XdmValue}; made with the document. */
    private Map<String, Object> aliases = Map.of();
    /** Parameter values asked of the host so far (empty: it has none); made on first use. */
    private Map<String, java.util.Optional<String>> parameters;
    /** Nodes of the document after the last assignment (what {@link ChartLimits#maxDataNodes} bounds). */
    private long nodeCount;
    /** The event {@code _event} was built for: built only when an expression runs after a new event. */
    private ChartEvent boundEvent;

    /** A datamodel of the system variables alone, until {@link #declareAll}; no document yet. */
    XPathData(Chart chart, Session session, ChartLimits limits) {
        this.chart = chart;
        this.session = session;
        this.limits = limits;
        this.config = chart.processor().getUnderlyingConfiguration();
        this.toDouble = config.getConversionRules().getStringToDoubleConverter();
        this.nodeCount = SYSTEM_NODES;
    }

    /**
     * The document, made on first use: the system variables, then every declared variable (empty;
     * a scalar's text is written by {@link #flush}), as an eager document would have them.
     */
    private Document dom() {
        if (doc != null) {
            return doc;
        }
        try {
            doc = DocumentBuilderFactory.newDefaultInstance().newDocumentBuilder().newDocument();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's DOM implementation is unavailable", e);
        }
        root = doc.createElementNS(null, "datamodel");
        doc.appendChild(root);
        vars = new HashMap<>();
        bound = new HashMap<>();
        aliases = new HashMap<>();
        String sessionId = session.sessionId();
        setText(variable("_sessionid"), sessionId);
        setText(variable("_name"), chart.name());
        Element io = variable("_ioprocessors");
        Element p = doc.createElementNS(null, "processor");
        p.setAttribute("name", SendAction.SCXML_PROCESSOR);
        Element loc = doc.createElementNS(null, "location");
        loc.setTextContent("#_scxml_" + sessionId);
        p.appendChild(loc);
        io.appendChild(p);
        // the name of the SCXML processor in drafts before the Recommendation, which some of the
        // W3C's own tests still use
        Element legacy = (Element) p.cloneNode(true);
        legacy.setAttribute("name", "http://www.w3.org/TR/scxml/#SCXMLProcessor");
        io.appendChild(legacy);
        if (declared) {
            for (String id : chart.dataIds()) {
                variable(id);
            }
        }
        changed();
        return doc;
    }

    /**
     * The nodes of the document {@link #dom} makes, before any variable is declared:
     * {@code <datamodel>}; {@code _sessionid} and {@code _name} (element, id, text each);
     * {@code _ioprocessors} (element, id, and two {@code <processor name>} with a
     * {@code <location>} and its text).
     */
    private static final int SYSTEM_NODES = 1 + 3 + 3 + 2 + 2 * 4;

    /** The nodes of the document not yet made: each declared variable is its element, id and a scalar's text. */
    private long undocumentedCount() {
        long n = SYSTEM_NODES + (declared ? 2L * chart.dataIds().size() : 0);
        for (SubsetExpr.Untyped v : scalars.values()) {
            n += v.hasText ? 1 : 0;
        }
        return n;
    }

    /** Whether the document is made (what a session avoids while only the subset reads its variables). */
    boolean documentMade() {
        return doc != null;
    }

    /** Whether {@code $name} is a variable of the datamodel (system variables only once the document is made). */
    private boolean exists(String name) {
        return doc != null ? vars.containsKey(name) : declared && chart.dataIds().contains(name);
    }

    ChartLimits limits() {
        return limits;
    }

    static boolean isVariableName(String s) {
        return s != null && NAME.matcher(s).matches();
    }

    // ---- variables ---------------------------------------------------------------------------

    private Element variable(String id) {
        dom();
        Element e = vars.get(id);
        if (e == null) {
            e = doc.createElementNS(null, "data");
            e.setAttribute("id", id);
            root.appendChild(e);
            vars.put(id, e);
            changed();
        }
        return e;
    }


    void init(DataDecl d) throws ChartError {
        if (doc == null && initScalar(d)) {
            return;
        }
        flush();
        Element e = variable(d.id());
        clear(e);
        SubsetExpr.Untyped scalar = null;
        if (d.srcError() != null) {
            throw new ChartError("data '" + d.id() + "': " + d.srcError());
        }
        if (d.src() != null) {
            appendParsed(e, d.src());
        } else if (d.expr() != null) {
            scalar = atomic(d.expr());
            if (scalar == null) {
                appendAll(e, toDom(evaluate(d.expr())));
            }
        } else if (d.content() != null) {
            appendContent(e, d.content());
        }
        nodeCount = countNodes(root) + (scalar != null && scalar.hasText ? 1 : 0);
        if (scalar != null) {
            scalars.put(d.id(), scalar);
        }
        if (nodeCount > limits.maxDataNodes()) {
            scalars.remove(d.id());
            clear(e);
            nodeCount = countNodes(root);
            changed();
            throw new ChartError("data '" + d.id() + "' would make the datamodel hold more than "
                    + limits.maxDataNodes() + " nodes");
        }
        changed();
    }

    /**
     * {@link #init} without the document: a declaration with no value, or whose {@code expr} the
     * subset evaluates. False (nothing changed but the variable's old scalar, which an
     * initialisation replaces anyway) when the document is needed.
     */
    private boolean initScalar(DataDecl d) throws ChartError {
        if (d.srcError() != null || d.src() != null || d.content() != null || SYSTEM.contains(d.id())) {
            return false;
        }
        // the expression sees the variable empty, as the document's cleared element
        scalars.remove(d.id());
        SubsetExpr.Untyped scalar = null;
        if (d.expr() != null) {
            scalar = atomic(d.expr());
            if (scalar == null) {
                return false;
            }
        }
        if (!exists(d.id())) {
            return false; // not declared first
        }
        if (scalar != null) {
            scalars.put(d.id(), scalar);
        }
        long count = undocumentedCount();
        if (count > limits.maxDataNodes()) {
            scalars.remove(d.id());
            nodeCount = undocumentedCount();
            throw new ChartError("data '" + d.id() + "' would make the datamodel hold more than "
                    + limits.maxDataNodes() + " nodes");
        }
        nodeCount = count;
        changed();
        return true;
    }

    /**
     * Binds a foreach variable to {@code item} itself, not a copy: an {@code <assign>} to
     * {@code $item} inside the loop changes the array's node (the conformance tests require it).
     */
    void setVariable(String id, XdmItem item) throws ChartError {
        if (SYSTEM.contains(id)) {
            throw new ChartError("foreach may not assign the system variable " + id);
        }
        dom();
        flush();
        Element e = variable(id);
        Node n = item instanceof XdmNode x ? domOf(x) : null;
        if (n != null && n.getOwnerDocument() == doc) {
            aliases.put(id, n);
        } else {
            aliases.remove(id);
            List<Node> value = toDom(item);
            clear(e);
            appendAll(e, value);
        }
        changed();
    }

    /**
     * Declares the chart's variables ({@link Chart#dataIds}), each an empty {@code <data>} until it
     * is initialised.
     */
    void declareAll() {
        declared = true;
        if (doc == null) {
            nodeCount = undocumentedCount();
        } else {
            for (String id : chart.dataIds()) {
                variable(id);
            }
        }
    }

    /** Builds {@code _event} for {@code event} unless it is already the one bound. */
    private void bindEvent(ChartEvent event) {
        if (event == boundEvent) {
            return;
        }
        boundEvent = event;
        Element old = vars.remove("_event");
        if (old != null) {
            root.removeChild(old);
        }
        Element e = variable("_event");
        child(e, "name", event.name());
        child(e, "type", event.type().label());
        child(e, "sendid", event.sendId());
        child(e, "origin", event.origin());
        child(e, "origintype", event.originType());
        child(e, "invokeid", event.invokeId());
        Element data = doc.createElementNS(null, "data");
        if (event.data() != null) {
            for (Node n = event.data().getFirstChild(); n != null; n = n.getNextSibling()) {
                data.appendChild(doc.importNode(n, true));
            }
        }
        e.appendChild(data);
        changed();
    }

    private void child(Element parent, String name, String text) {
        Element c = doc.createElementNS(null, name);
        if (text != null) {
            c.setTextContent(text);
        }
        parent.appendChild(c);
    }

    // ---- evaluation --------------------------------------------------------------------------

    XdmValue evaluate(Expr e) throws ChartError {
        try {
            return selector(e).evaluate();
        } catch (SaxonApiException | RuntimeException ex) {
            throw new ChartError("'" + e.text() + "' cannot be evaluated: " + ex.getMessage() + " (" + e.where() + ")");
        }
    }

    /** The expression's effective boolean value. */
    boolean test(Expr e) throws ChartError {
        if (e.subset() != null) {
            try {
                return e.subset().ebv(this);
            } catch (SubsetExpr.Failure | SubsetExpr.Fallback saxon) {
                // Saxon decides errors and the corners the subset leaves to it: evaluated below
            }
        }
        try {
            return selector(e).effectiveBooleanValue();
        } catch (SaxonApiException | RuntimeException ex) {
            throw new ChartError("'" + e.text() + "' cannot be evaluated: " + ex.getMessage() + " (" + e.where() + ")");
        }
    }

    private XPathSelector selector(Expr e) throws ChartError {
        if (e.error() != null) {
            throw new ChartError(e.error() + " (" + e.where() + ")");
        }
        dom();
        flush();
        bindCurrentEvent();
        XPathSelector sel = e.executable().load();
        try {
            for (QName q : chart.variables()) {
                sel.setVariable(q, q.getLocalName().equals("_x")
                        ? (e.readsPlatform() ? session.host().platform(session) : XdmEmptySequence.getInstance())
                        : valueOf(q));
            }
        } catch (SaxonApiException | RuntimeException ex) {
            throw new ChartError("variables cannot be bound for '" + e.text() + "': " + ex.getMessage());
        }
        sel.getUnderlyingXPathContext().getXPathContextObject().getController()
                .setUserData(InFunction.KEY, InFunction.KEY, session);
        return sel;
    }

    String string(Expr e) throws ChartError {
        return stringOf(evaluate(e));
    }

    /** The string value of a {@code <log expr>}: {@link #string}, without Saxon when in the subset. */
    String logString(Expr e) throws ChartError {
        if (e.subset() != null) {
            try {
                return e.subset().string(this);
            } catch (SubsetExpr.Failure | SubsetExpr.Fallback saxon) {
                // Saxon decides errors and the corners the subset leaves to it: evaluated below
            }
        }
        return string(e);
    }

    /**
     * The value of an expression of the subset that yields an atomic value or the empty
     * sequence, as an assignment would leave it; {@code null} when Saxon must evaluate it.
     */
    private SubsetExpr.Untyped atomic(Expr e) throws ChartError {
        if (e.subset() == null || e.subset().yieldsNode()) {
            return null;
        }
        // the subset reads no system variable but $_x: _event need not be built
        try {
            return SubsetExpr.Untyped.of(e.subset().value(this));
        } catch (SubsetExpr.Failure | SubsetExpr.Fallback saxon) {
            // Saxon decides errors and the corners the subset leaves to it
            return null;
        }
    }

    private void bindCurrentEvent() {
        ChartEvent event = session.currentEvent();
        if (event != null) {
            bindEvent(event);
        }
    }

    /** Writes every scalar into its element, before anything reads the document itself. */
    private void flush() {
        if (scalars.isEmpty()) {
            return;
        }
        dom();
        for (Map.Entry<String, SubsetExpr.Untyped> s : scalars.entrySet()) {
            Element e = vars.get(s.getKey());
            clear(e);
            if (s.getValue().hasText) {
                e.appendChild(doc.createTextNode(s.getValue().text()));
            }
        }
        scalars.clear();
        changed();
    }

    // ---- the spec's composite queries and action XPaths ----------------------------------------

    /**
     * Whether {@code $name} is bound: to its {@code <data>} element (every declared variable is,
     * from the start) or a node a {@code <foreach>} left it on.
     */
    boolean datumBound(String name) {
        if (doc == null && SYSTEM.contains(name)) {
            dom();
        }
        return exists(name) || aliases.get(name) instanceof Node;
    }

    /** {@code $name}'s string value, as Saxon would atomize it; "" when unbound. */
    String datumText(String name) {
        Object alias = aliases.isEmpty() ? null : aliases.get(name);
        if (alias instanceof Node n) {
            return textContent(n);
        }
        SubsetExpr.Untyped s = scalars.get(name);
        if (s != null) {
            return s.text();
        }
        if (doc == null && SYSTEM.contains(name)) {
            dom();
        }
        Element e = vars.get(name);
        return e == null ? "" : textContent(e);
    }

    /** The XPath string value of a DOM node (an element's: its text, comments and processing instructions excluded). */
    private static String textContent(Node n) {
        String t = n.getTextContent();
        return t == null ? "" : t;
    }

    /**
     * {@code $name}'s value as the number an arithmetic assignment left, or {@code null} (see
     * {@code DatamodelItem#number}).
     */
    Number datumNumber(String name) {
        if (!aliases.isEmpty() && aliases.containsKey(name)) {
            return null;
        }
        SubsetExpr.Untyped s = scalars.get(name);
        return s != null && (s.typed instanceof Long || s.typed instanceof Double) ? (Number) s.typed : null;
    }

    /** {@code $name} for Saxon: its {@code <data>} element (pending values written to it first). */
    XdmValue datumValue(String name) {
        dom();
        flush();
        return valueOf(name);
    }

    // ---- the subset's view of the variables ----------------------------------------------------

    @Override
    public SubsetExpr.Untyped atomized(String name) throws SubsetExpr.Fallback {
        if (!aliases.isEmpty() && aliases.containsKey(name)) {
            throw SubsetExpr.Fallback.INSTANCE;
        }
        SubsetExpr.Untyped s = scalars.get(name);
        if (s != null) {
            return s;
        }
        if (doc == null && exists(name)) {
            return EMPTY; // an empty element's string value
        }
        Element e = vars.get(name);
        if (e == null && chart.isParameter(name)) {
            String p = parameterText(name);
            return p == null ? null : new SubsetExpr.Untyped(p);
        }
        return e == null ? null : new SubsetExpr.Untyped(e.getTextContent());
    }

    @Override
    public boolean bound(String name) throws SubsetExpr.Fallback {
        if (!aliases.isEmpty() && aliases.containsKey(name)) {
            throw SubsetExpr.Fallback.INSTANCE;
        }
        return exists(name) || (chart.isParameter(name) && parameterText(name) != null);
    }

    @Override
    public SubsetExpr.Untyped text(String name) throws SubsetExpr.Fallback {
        if ((!aliases.isEmpty() && aliases.containsKey(name)) || (chart.isParameter(name) && !exists(name))) {
            // a parameter is an atomic value, not an element: $P/text() is Saxon's type error
            throw SubsetExpr.Fallback.INSTANCE;
        }
        SubsetExpr.Untyped s = scalars.get(name);
        if (s != null) {
            if (!s.hasText) {
                return null;
            }
            if (s.text().isEmpty()) {
                throw SubsetExpr.Fallback.INSTANCE; // whether an empty text node is a node is the DOM wrapper's call
            }
            return s;
        }
        Element e = vars.get(name);
        if (e == null) {
            return null; // not a variable, or declared and empty while the document is not made
        }
        Node text = null;
        for (Node k = e.getFirstChild(); k != null; k = k.getNextSibling()) {
            short type = k.getNodeType();
            if (type == Node.TEXT_NODE || type == Node.CDATA_SECTION_NODE) {
                if (text != null || type != Node.TEXT_NODE || k.getNodeValue().isEmpty()) {
                    // adjacent or empty text nodes: how they map to XPath text nodes is the wrapper's call
                    throw SubsetExpr.Fallback.INSTANCE;
                }
                text = k;
            } else if (type != Node.ELEMENT_NODE) {
                throw SubsetExpr.Fallback.INSTANCE;
            }
        }
        return text == null ? null : new SubsetExpr.Untyped(text.getNodeValue());
    }

    @Override
    public boolean inState(String id) {
        return session.isActive(id);
    }

    @Override
    public StringToDouble toDouble() {
        return toDouble;
    }

    @Override
    public Object platform(String key) throws SubsetExpr.Fallback {
        return atomicOrFallback(session.host().platformEntry(session, key));
    }

    @Override
    public Object platformLookup(String map, String key) throws SubsetExpr.Fallback {
        return atomicOrFallback(session.host().platformLookup(session, map, key));
    }

    @Override
    public Object[] platformValues(String map) throws SubsetExpr.Fallback {
        Object[] values = session.host().platformValues(session, map);
        if (values == null) {
            throw SubsetExpr.Fallback.INSTANCE;
        }
        for (Object v : values) {
            atomicOrFallback(v);
        }
        return values;
    }

    @Override
    public java.util.List<Object> historyItems(SubsetExpr.HistoryCall call) throws SubsetExpr.Fallback {
        if (historyDataIds != call.dataIds) {
            // one list per chart: the view is made once per session
            historyData = session.datamodelValues(call.dataIds);
            historyDataIds = call.dataIds;
        }
        java.util.List<Object> items = session.host().historyItems(session, call.read, historyData);
        if (items == null) {
            throw SubsetExpr.Fallback.INSTANCE;
        }
        return items;
    }

    private static Object atomicOrFallback(Object v) throws SubsetExpr.Fallback {
        if (v == PlatformEntries.NOT_ATOMIC) {
            throw SubsetExpr.Fallback.INSTANCE;
        }
        return v;
    }

    private static String stringOf(XdmValue v) {
        if (v.size() == 1) {
            return v.itemAt(0).getStringValue();
        }
        StringBuilder sb = new StringBuilder();
        for (XdmItem i : v) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(i.getStringValue());
        }
        return sb.toString();
    }

    private XdmValue valueOf(QName q) {
        return valueOf(q.getLocalName());
    }

    private XdmValue valueOf(String name) {
        XdmValue v = bound.get(name);
        if (v == null) {
            Object alias = aliases.get(name);
            Node e = alias instanceof Node n ? n : vars.get(name);
            if (alias instanceof XdmValue value) {
                v = value;
            } else if (e == null && chart.isParameter(name)) {
                v = parameterValue(name);
            } else if (e == null) {
                v = XdmEmptySequence.getInstance();
            } else {
                if (wrapper == null) {
                    wrapper = new DocumentWrapper(doc, null, config);
                }
                v = new XdmNode(wrapper.wrap(e));
            }
            bound.put(name, v);
        }
        return v;
    }

    /** A parameter's text from the host, asked for once per session; {@code null} when it has none. */
    private String parameterText(String name) {
        if (parameters == null) {
            parameters = new HashMap<>();
        }
        return parameters.computeIfAbsent(name, n -> java.util.Optional.ofNullable(session.host().parameter(n)))
                .orElse(null);
    }

    /** A parameter as the value expressions see: {@code xs:untypedAtomic}, or empty without a value. */
    private XdmValue parameterValue(String name) {
        String t = parameterText(name);
        if (t == null) {
            return XdmEmptySequence.getInstance();
        }
        try {
            return new net.sf.saxon.s9api.XdmAtomicValue(t, net.sf.saxon.s9api.ItemType.UNTYPED_ATOMIC);
        } catch (SaxonApiException e) {
            throw new IllegalStateException("every string is an xs:untypedAtomic", e);
        }
    }

    private void changed() {
        wrapper = null;
        if (!bound.isEmpty()) {
            bound.clear();
        }
    }

    // ---- assignment ----------------------------------------------------------------------------

    void assign(AssignAction a) throws ChartError {
        if (assignScalar(a)) {
            return;
        }
        List<Node> targets = locate(a.location());
        List<Node> value = a.content() != null ? contentOf(a.content())
                : a.expr() != null ? toDom(evaluate(a.expr())) : List.of();
        long added = 0;
        for (Node n : value) {
            added += countNodes(n);
        }
        added *= targets.size();
        if (nodeCount + added > limits.maxDataNodes()) {
            throw new ChartError("the datamodel would hold more than " + limits.maxDataNodes()
                    + " nodes (" + a.location().where() + ")");
        }
        for (Node target : targets) {
            if (target instanceof Attr && a.type() != AssignAction.AssignType.DELETE) {
                for (Node n : value) {
                    if (n.getNodeType() == Node.ELEMENT_NODE) {
                        throw new ChartError("an attribute cannot hold elements (" + a.location().where() + ")");
                    }
                }
            }
        }
        for (Node target : targets) {
            Node parent = target.getParentNode();
            switch (a.type()) {
                case REPLACECHILDREN -> {
                    if (target instanceof Attr attr) {
                        attr.setValue(textOf(value));
                    } else {
                        clear(target);
                        appendAll(target, copies(value));
                    }
                }
                case FIRSTCHILD -> {
                    Node first = target.getFirstChild();
                    for (Node n : copies(value)) {
                        target.insertBefore(n, first);
                    }
                }
                case LASTCHILD -> appendAll(target, copies(value));
                case PREVIOUSSIBLING -> {
                    requireElementParent(parent, a);
                    for (Node n : copies(value)) {
                        parent.insertBefore(n, target);
                    }
                }
                case NEXTSIBLING -> {
                    requireElementParent(parent, a);
                    Node next = target.getNextSibling();
                    for (Node n : copies(value)) {
                        parent.insertBefore(n, next);
                    }
                }
                case REPLACE -> {
                    requireElementParent(parent, a);
                    for (Node n : copies(value)) {
                        parent.insertBefore(n, target);
                    }
                    parent.removeChild(target);
                }
                case DELETE -> {
                    if (target instanceof Attr attr) {
                        attr.getOwnerElement().removeAttributeNode(attr);
                    } else {
                        requireElementParent(parent, a);
                        parent.removeChild(target);
                    }
                }
                case ADDATTRIBUTE -> {
                    if (!(target instanceof Element el) || !isVariableName(a.attr())) {
                        throw new ChartError("addattribute needs an element location and an attr name ("
                                + a.location().where() + ")");
                    }
                    el.setAttribute(a.attr(), textOf(value));
                }
                default -> throw new IllegalStateException();
            }
        }
        nodeCount = countNodes(root);
        changed();
    }

    /**
     * An {@code <assign location="$name" expr>} replacing the children with a subset expression's
     * atomic value: kept as a Java value, the element left alone until {@link #flush}. False when
     * the assignment is not of that form, or the variable is not a plain variable of the chart.
     */
    private boolean assignScalar(AssignAction a) throws ChartError {
        String name = a.location().subset() == null ? null : a.location().subset().variableName();
        if (name == null || a.type() != AssignAction.AssignType.REPLACECHILDREN || a.content() != null
                || a.expr() == null || SYSTEM.contains(name) || aliases.containsKey(name)) {
            return false;
        }
        if (!exists(name)) {
            return false;
        }
        SubsetExpr.Untyped value = atomic(a.expr());
        if (value == null) {
            return false;
        }
        long added = value.hasText ? 1 : 0;
        if (nodeCount + added > limits.maxDataNodes()) {
            throw new ChartError("the datamodel would hold more than " + limits.maxDataNodes()
                    + " nodes (" + a.location().where() + ")");
        }
        SubsetExpr.Untyped old = scalars.put(name, value);
        long removed;
        if (old != null) {
            removed = old.hasText ? 1 : 0;
        } else {
            removed = 0;
            Element e = vars.get(name); // none while the document is not made: the variable is empty
            for (Node k = e == null ? null : e.getFirstChild(); k != null; k = k.getNextSibling()) {
                removed += countNodes(k);
            }
        }
        nodeCount += added - removed;
        return true;
    }

    private static long countNodes(Node n) {
        long c = 1;
        if (n instanceof Element e) {
            c += e.getAttributes().getLength();
        }
        for (Node k = n.getFirstChild(); k != null; k = k.getNextSibling()) {
            c += countNodes(k);
        }
        return c;
    }

    private void requireElementParent(Node parent, AssignAction a) throws ChartError {
        if (!(parent instanceof Element) || parent == root) {
            throw new ChartError("location '" + a.location().text() + "' has no parent element to change ("
                    + a.location().where() + ")");
        }
    }

    /** Assigns a string (an {@code idlocation}). */
    void assignString(Expr location, String value) throws ChartError {
        dom();
        flush();
        for (Node target : locate(location)) {
            if (target instanceof Attr attr) {
                attr.setValue(value);
            } else {
                setText(target, value);
            }
        }
        changed();
    }

    /** The datamodel nodes a location selects; an error if none, or one is not the chart's to change. */
    private List<Node> locate(Expr location) throws ChartError {
        XdmValue v = evaluate(location);
        if (v.size() == 0) {
            throw new ChartError("location '" + location.text() + "' selects nothing (" + location.where() + ")");
        }
        List<Node> nodes = new ArrayList<>(v.size());
        for (XdmItem i : v) {
            Node n = i instanceof XdmNode x ? domOf(x) : null;
            if (n == null || n.getOwnerDocument() != doc || n == root) {
                throw new ChartError("location '" + location.text() + "' is not a node of the datamodel ("
                        + location.where() + ")");
            }
            Element data = dataElementOf(n);
            if (data == null || SYSTEM.contains(data.getAttribute("id"))) {
                throw new ChartError("location '" + location.text() + "' is a system variable, which is read-only ("
                        + location.where() + ")");
            }
            nodes.add(n);
        }
        return nodes;
    }

    private Element dataElementOf(Node n) {
        Node cur = n instanceof Attr a ? a.getOwnerElement() : n;
        while (cur != null && cur.getParentNode() != root) {
            cur = cur.getParentNode();
        }
        return cur instanceof Element e ? e : null;
    }

    // ---- event data --------------------------------------------------------------------------

    /** The {@code <data>} payload of a {@code <send>}, detached; {@code null} when it has none. */
    Element payload(String[] namelist, Param[] params, Expr contentExpr, Element content) throws ChartError {
        dom();
        flush();
        if (content != null || contentExpr != null) {
            Element d = doc.createElementNS(null, "data");
            appendAll(d, content != null ? contentOf(content) : toDom(evaluate(contentExpr)));
            return d;
        }
        if ((namelist == null || namelist.length == 0) && (params == null || params.length == 0)) {
            return null;
        }
        Element d = doc.createElementNS(null, "data");
        if (namelist != null) {
            for (String name : namelist) {
                String id = name.startsWith("$") ? name.substring(1) : name;
                Element var = vars.get(id);
                if (var == null) {
                    throw new ChartError("namelist names '" + name + "', which is not a variable");
                }
                // the entry holds a copy of the variable's own <data> element, as the W3C's tests read it
                Element item = doc.createElementNS(null, "data");
                item.setAttribute("id", id);
                Element copy = (Element) var.cloneNode(true);
                copy.removeAttribute("id");
                item.appendChild(copy);
                d.appendChild(item);
            }
        }
        appendParams(d, params);
        return d;
    }

    Element doneData(DoneData dd) throws ChartError {
        return payload(null, dd.params(), dd.contentExpr(), dd.content());
    }

    private void appendParams(Element d, Param[] params) throws ChartError {
        if (params == null) {
            return;
        }
        for (Param p : params) {
            Element item = doc.createElementNS(null, "data");
            item.setAttribute("id", p.name());
            Expr source = p.expr() != null ? p.expr() : p.location();
            if (source != null) {
                XdmValue v = evaluate(source);
                if (p.location() != null && v.size() == 0) {
                    throw new ChartError("param '" + p.name() + "' location selects nothing (" + source.where() + ")");
                }
                appendAll(item, toDom(v));
            }
            d.appendChild(item);
        }
    }

    // ---- DOM helpers ---------------------------------------------------------------------------

    private static Node domOf(XdmNode x) {
        NodeInfo info = x.getUnderlyingNode();
        if (info instanceof VirtualNode vn && vn.getRealNode() instanceof Node n) {
            return n;
        }
        return null;
    }

    /** New nodes of this document holding a copy of {@code value}. */
    private List<Node> toDom(XdmValue value) {
        List<Node> out = new ArrayList<>();
        StringBuilder atoms = null;
        for (XdmItem item : value) {
            if (item instanceof XdmNode x) {
                if (atoms != null) {
                    out.add(doc.createTextNode(atoms.toString()));
                    atoms = null;
                }
                Node n = domOf(x);
                if (n == null) {
                    n = NodeOverNodeInfo.wrap(x.getUnderlyingNode());
                }
                if (n instanceof Document d) {
                    for (Node c = d.getFirstChild(); c != null; c = c.getNextSibling()) {
                        out.add(doc.importNode(c, true));
                    }
                } else if (n instanceof Attr a) {
                    out.add(doc.createTextNode(a.getValue()));
                } else {
                    out.add(doc.importNode(n, true));
                }
            } else {
                if (atoms == null) {
                    atoms = new StringBuilder();
                } else {
                    atoms.append(' ');
                }
                atoms.append(item.getStringValue());
            }
        }
        if (atoms != null) {
            out.add(doc.createTextNode(atoms.toString()));
        }
        return out;
    }

    private List<Node> contentOf(Element content) {
        List<Node> out = new ArrayList<>();
        NodeList kids = content.getChildNodes();
        boolean elements = false;
        for (int i = 0; i < kids.getLength(); i++) {
            elements |= kids.item(i).getNodeType() == Node.ELEMENT_NODE;
        }
        if (!elements) {
            out.add(doc.createTextNode(normalizeSpace(content.getTextContent())));
            return out;
        }
        for (int i = 0; i < kids.getLength(); i++) {
            Node k = kids.item(i);
            if (k.getNodeType() == Node.ELEMENT_NODE) {
                out.add(doc.importNode(k, true));
            }
        }
        return out;
    }

    private void appendContent(Element target, Element content) {
        appendAll(target, contentOf(content));
    }

    private void appendParsed(Element target, String text) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newDefaultInstance();
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setExpandEntityReferences(false);
            javax.xml.parsers.DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            Document parsed = b.parse(new InputSource(new StringReader(text)));
            target.appendChild(doc.importNode(parsed.getDocumentElement(), true));
        } catch (Exception notXml) {
            target.appendChild(doc.createTextNode(normalizeSpace(text)));
        }
    }

    /** Text content is white-space normalised, as the Recommendation asks of string values. */
    private static String normalizeSpace(String s) {
        return s.strip().replaceAll("\\s+", " ");
    }

    private List<Node> copies(List<Node> value) {
        List<Node> out = new ArrayList<>(value.size());
        for (Node n : value) {
            out.add(n.cloneNode(true));
        }
        return out;
    }

    private static String textOf(List<Node> value) {
        StringBuilder sb = new StringBuilder();
        for (Node n : value) {
            sb.append(n.getTextContent());
        }
        return sb.toString();
    }

    private static void appendAll(Node target, List<Node> nodes) {
        for (Node n : nodes) {
            target.appendChild(n);
        }
    }

    private static void clear(Node e) {
        while (e.getFirstChild() != null) {
            e.removeChild(e.getFirstChild());
        }
    }

    private void setText(Node e, String text) {
        clear(e);
        e.appendChild(doc.createTextNode(text == null ? "" : text));
    }
}
