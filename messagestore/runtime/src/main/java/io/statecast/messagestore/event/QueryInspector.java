package io.statecast.messagestore.event;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import net.sf.saxon.expr.AttributeGetter;
import net.sf.saxon.expr.AxisExpression;
import net.sf.saxon.expr.BinaryExpression;
import net.sf.saxon.expr.ContextItemExpression;
import net.sf.saxon.expr.DynamicFunctionCall;
import net.sf.saxon.expr.Expression;
import net.sf.saxon.expr.FilterExpression;
import net.sf.saxon.expr.Literal;
import net.sf.saxon.expr.Operand;
import net.sf.saxon.expr.RangeExpression;
import net.sf.saxon.expr.RootExpression;
import net.sf.saxon.expr.SlashExpression;
import net.sf.saxon.expr.StaticFunctionCall;
import net.sf.saxon.expr.StringLiteral;
import net.sf.saxon.expr.UserFunctionCall;
import net.sf.saxon.expr.parser.OperatorSymbol;
import net.sf.saxon.om.AxisInfo;
import net.sf.saxon.om.GroundedValue;
import net.sf.saxon.om.NamespaceUri;
import net.sf.saxon.om.StructuredQName;
import net.sf.saxon.pattern.nodetest.NodeTest;
import net.sf.saxon.pattern.qname.QNameTest;
import net.sf.saxon.s9api.Location;
import net.sf.saxon.type.UType;
import net.sf.saxon.value.IntegerValue;

/**
 * Static inspection of a compiled expression tree: the sandbox rules that Saxon's configuration
 * cannot express, and the history read analysis.
 *
 * <p>Refused: functions that reach outside the history (files, URIs, collections, environment),
 * {@code fn:trace} (log spam), function items and dynamic calls (they allow recursion without a
 * declared function), recursive user-defined functions (directly or mutually), and ranges whose
 * bounds are not literals or span more than the limit.
 *
 * <p>This walks Saxon's internal expression tree, so it is tied to the Saxon version; anything
 * it does not recognise is treated conservatively (for reads: "reads all events").
 */
final class QueryInspector {

    /** Functions in the fn namespace a spec may not call, with the reason given to the author. */
    private static final Map<String, String> DENIED_FUNCTIONS = deniedFunctions();

    /** Wrappers that pass their single operand's nodes through unchanged. */
    private static final Set<String> TRANSPARENT = Set.of(
            "ItemChecker", "CardinalityChecker", "DocumentSorter", "TreatExpression", "FirstItemExpression",
            "LastItemExpression", "SubscriptExpression", "Atomizer", "SequenceCoercer", "UntypedSequenceConverter",
            "AtomicSequenceConverter", "SingletonAtomizer", "ConsumingOperand");

    private final long maxRangeSize;

    QueryInspector(long maxRangeSize) {
        this.maxRangeSize = maxRangeSize;
    }

    private static Map<String, String> deniedFunctions() {
        String files = "specs may not read files, URIs or collections";
        Map<String, String> m = new HashMap<>();
        for (String f : List.of("doc", "doc-available", "collection", "uri-collection", "unparsed-text",
                "unparsed-text-lines", "unparsed-text-available", "json-doc", "put")) {
            m.put(f, files);
        }
        m.put("environment-variable", "specs may not read the environment");
        m.put("available-environment-variables", "specs may not read the environment");
        m.put("parse-xml", "specs may not parse XML at run time (DTDs, entities)");
        m.put("parse-xml-fragment", "specs may not parse XML at run time (DTDs, entities)");
        m.put("function-lookup", "function items are not allowed (they allow unbounded recursion)");
        m.put("load-xquery-module", "specs may not load modules");
        m.put("transform", "specs may not run XSLT");
        m.put("invisible-xml", "specs may not compile grammars");
        m.put("trace", "fn:trace writes to the node's log; use the history instead");
        m.put("message", "fn:message writes to the node's log; use the history instead");
        return Map.copyOf(m);
    }

    /** The fn namespace as written in a URI-qualified name or a namespace declaration. */
    private static final String FN_URI = "http://www.w3.org/2005/xpath-functions";

    /**
     * Refuses a call of a denied function found in the expression's <em>text</em>, before Saxon
     * compiles it: Saxon's optimiser folds some calls away ({@code exists(doc('file:///etc/passwd'))}
     * becomes {@code true()}, since {@code doc} returns one document or fails), so the compiled
     * tree no longer shows what the author wrote. A name followed by {@code (} or {@code #} (after
     * white space or comments) is a call or a function reference in XPath and XQuery; string
     * literals and comments are skipped. A denied local name counts unprefixed, as {@code fn:…},
     * as {@code Q{…xpath-functions}…}, and under any prefix once the text names the fn namespace
     * (it may bind another prefix to it). Conservative: the text of a direct element constructor
     * is scanned too, so {@code <a>doc(1)</a>} is refused although it calls nothing.
     *
     * @throws QueryException naming the function and its line and column within the expression
     */
    static void checkCallsInText(String text) throws QueryException {
        boolean fnNamedElsewhere = text.contains(FN_URI);
        int n = text.length();
        int i = 0;
        while (i < n) {
            char ch = text.charAt(i);
            if (ch == '"' || ch == '\'') {
                int end = text.indexOf(ch, i + 1);
                i = end < 0 ? n : end + 1; // a doubled quote is an empty literal's end and start: same result
                continue;
            }
            if (ch == '(' && i + 1 < n && text.charAt(i + 1) == ':') {
                i = skipComment(text, i);
                continue;
            }
            if (ch == 'Q' && i + 1 < n && text.charAt(i + 1) == '{') {
                int close = text.indexOf('}', i + 2);
                if (close < 0) {
                    return; // malformed: Saxon reports it
                }
                String uri = text.substring(i + 2, close).strip();
                int end = nameEnd(text, close + 1);
                check(text, i, text.substring(close + 1, end), FN_URI.equals(uri), end);
                i = Math.max(end, close + 1);
                continue;
            }
            if (isNameStart(ch) && (i == 0 || !isNameChar(text.charAt(i - 1)) && text.charAt(i - 1) != '$')) {
                int end = nameEnd(text, i);
                String name = text.substring(i, end);
                int colon = name.indexOf(':');
                if (colon < 0) {
                    check(text, i, name, true, end);
                } else {
                    String prefix = name.substring(0, colon);
                    check(text, i, name.substring(colon + 1), prefix.equals("fn") || fnNamedElsewhere, end);
                }
                i = end;
                continue;
            }
            i++;
        }
    }

    private static void check(String text, int start, String local, boolean fn, int end) throws QueryException {
        if (!fn) {
            return;
        }
        String why = DENIED_FUNCTIONS.get(local);
        if (why == null) {
            return;
        }
        int k = end;
        while (k < text.length()) {
            char c = text.charAt(k);
            if (Character.isWhitespace(c)) {
                k++;
            } else if (c == '(' && k + 1 < text.length() && text.charAt(k + 1) == ':') {
                k = skipComment(text, k);
            } else {
                break;
            }
        }
        if (k < text.length() && (text.charAt(k) == '(' || text.charAt(k) == '#')) {
            int line = 1;
            int col = 1;
            for (int j = 0; j < start; j++) {
                if (text.charAt(j) == '\n') {
                    line++;
                    col = 1;
                } else {
                    col++;
                }
            }
            throw new QueryException("fn:" + local + "() is not allowed: " + why, line, col);
        }
    }

    /** The index after the comment starting at {@code i} (comments nest), or the end of the text. */
    private static int skipComment(String text, int i) {
        int depth = 0;
        int n = text.length();
        while (i < n) {
            if (text.startsWith("(:", i)) {
                depth++;
                i += 2;
            } else if (text.startsWith(":)", i)) {
                depth--;
                i += 2;
                if (depth == 0) {
                    return i;
                }
            } else {
                i++;
            }
        }
        return n;
    }

    /** The end of the (possibly prefixed) name starting at {@code i}: NCName, then at most one {@code :NCName}. */
    private static int nameEnd(String text, int i) {
        int n = text.length();
        int k = i;
        while (k < n && isNameChar(text.charAt(k))) {
            k++;
        }
        if (k + 1 < n && text.charAt(k) == ':' && isNameStart(text.charAt(k + 1))) {
            k++;
            while (k < n && isNameChar(text.charAt(k))) {
                k++;
            }
        }
        return k;
    }

    private static boolean isNameStart(char c) {
        return Character.isLetter(c) || c == '_';
    }

    private static boolean isNameChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.';
    }

    /**
     * Applies the sandbox rules to the main expression, the bodies of user functions and the
     * initializers of global variables.
     *
     * @param functions user-defined functions: name → body
     * @throws QueryException naming the first construct refused, with its position
     */
    void checkSandbox(Expression main, Map<StructuredQName, Expression> functions, List<Expression> globals)
            throws QueryException {
        checkTree(main);
        for (Expression body : functions.values()) {
            checkTree(body);
        }
        for (Expression g : globals) {
            checkTree(g);
        }
        checkRecursion(functions);
    }

    private void checkTree(Expression root) throws QueryException {
        Deque<Expression> todo = new ArrayDeque<>();
        todo.push(root);
        while (!todo.isEmpty()) {
            Expression e = todo.pop();
            checkNode(e);
            for (Operand o : e.operands()) {
                todo.push(o.getChildExpression());
            }
        }
    }

    private void checkNode(Expression e) throws QueryException {
        if (e instanceof StaticFunctionCall call && !(e instanceof UserFunctionCall)) {
            StructuredQName name = call.getFunctionName();
            if (name != null && NamespaceUri.FN.equals(name.getNamespaceUri())) {
                String why = DENIED_FUNCTIONS.get(name.getLocalPart());
                if (why != null) {
                    throw refused("fn:" + name.getLocalPart() + "() is not allowed: " + why, e);
                }
            }
        }
        if (e instanceof DynamicFunctionCall
                || e.getClass().getName().startsWith("net.sf.saxon.functions.hof.")) {
            throw refused("function items and dynamic function calls are not allowed "
                    + "(they allow unbounded recursion): " + e.toShortString(), e);
        }
        if (e instanceof Literal lit && lit.getGroundedValue().getLength() > maxRangeSize) {
            // Saxon folds "1 to N" with literal bounds into a literal range.
            throw refused("a literal sequence of " + lit.getGroundedValue().getLength()
                    + " items (a range?) is more than the limit of " + maxRangeSize, e);
        }
        if (e instanceof RangeExpression r) {
            Long lo = integerLiteral(r.getStartExpression());
            Long hi = integerLiteral(r.getEndExpression());
            if (lo == null || hi == null) {
                throw refused("a range 'a to b' needs literal bounds (a message must not decide how long a "
                        + "query runs): " + e.toShortString(), e);
            }
            if (hi - lo + 1 > maxRangeSize) {
                throw refused("range " + lo + " to " + hi + " has " + (hi - lo + 1) + " items, more than the limit of "
                        + maxRangeSize, e);
            }
        }
    }

    private static Long integerLiteral(Expression e) {
        if (e instanceof Literal lit) {
            GroundedValue v = lit.getGroundedValue();
            if (v.getLength() == 1 && v.itemAt(0) instanceof IntegerValue iv) {
                try {
                    return iv.longValue();
                } catch (net.sf.saxon.trans.XPathException tooBig) {
                    return null;
                }
            }
        }
        return null;
    }

    private static void checkRecursion(Map<StructuredQName, Expression> functions) throws QueryException {
        Map<StructuredQName, List<UserFunctionCall>> calls = new LinkedHashMap<>();
        for (Map.Entry<StructuredQName, Expression> f : functions.entrySet()) {
            List<UserFunctionCall> out = new ArrayList<>();
            Deque<Expression> todo = new ArrayDeque<>();
            todo.push(f.getValue());
            while (!todo.isEmpty()) {
                Expression e = todo.pop();
                if (e instanceof UserFunctionCall u) {
                    out.add(u);
                }
                for (Operand o : e.operands()) {
                    todo.push(o.getChildExpression());
                }
            }
            calls.put(f.getKey(), out);
        }
        // Depth-first search for a cycle; the path names it for the author.
        Map<StructuredQName, Integer> state = new HashMap<>(); // 1 = on stack, 2 = done
        for (StructuredQName start : calls.keySet()) {
            List<StructuredQName> path = new ArrayList<>();
            UserFunctionCall hit = findCycle(start, calls, state, path);
            if (hit != null) {
                StringBuilder chain = new StringBuilder();
                for (StructuredQName n : path) {
                    chain.append(n.getDisplayName()).append(" -> ");
                }
                chain.append(hit.getFunctionName().getDisplayName());
                throw refused("recursive function " + hit.getFunctionName().getDisplayName()
                        + " is not allowed (" + chain + "): recursion could run without bound", hit);
            }
        }
    }

    private static UserFunctionCall findCycle(StructuredQName f, Map<StructuredQName, List<UserFunctionCall>> calls,
            Map<StructuredQName, Integer> state, List<StructuredQName> path) {
        Integer s = state.get(f);
        if (s != null) {
            return null;
        }
        state.put(f, 1);
        path.add(f);
        for (UserFunctionCall c : calls.getOrDefault(f, List.of())) {
            StructuredQName g = c.getFunctionName();
            Integer gs = state.get(g);
            if (gs != null && gs == 1) {
                return c;
            }
            UserFunctionCall deeper = findCycle(g, calls, state, path);
            if (deeper != null) {
                return deeper;
            }
        }
        path.remove(path.size() - 1);
        state.put(f, 2);
        return null;
    }

    private static QueryException refused(String message, Expression at) {
        Location loc = at.getLocation();
        int line = loc == null ? 0 : Math.max(0, loc.getLineNumber());
        int col = loc == null ? 0 : Math.max(0, loc.getColumnNumber());
        return new QueryException(message, line, col);
    }

    // ------------------------------------------------------------------ history reads

    /**
     * Which events the expressions may read (see {@link HistoryReads}). The main expression and
     * global initializers see the history document as context item; function bodies have none.
     */
    static HistoryReads reads(Expression main, Iterable<Expression> functionBodies, List<Expression> globals) {
        ReadWalk walk = new ReadWalk();
        walk.analyze(main, true);
        for (Expression body : functionBodies) {
            walk.analyze(body, false);
        }
        for (Expression g : globals) {
            walk.analyze(g, true);
        }
        return walk.all ? HistoryReads.ALL : new HistoryReads(false, walk.names);
    }

    private static final class ReadWalk {
        private boolean all;
        private final Set<String> names = new TreeSet<>();

        void analyze(Expression root, boolean outerFocus) {
            Map<Expression, Set<String>> handled = new IdentityHashMap<>();
            collectNamedEventSteps(root, handled);
            visit(root, null, outerFocus, handled);
        }

        private void collectNamedEventSteps(Expression root, Map<Expression, Set<String>> handled) {
            Deque<Expression> todo = new ArrayDeque<>();
            todo.push(root);
            while (!todo.isEmpty()) {
                Expression e = todo.pop();
                if (e instanceof FilterExpression f) {
                    AxisExpression step = lastAxis(f.getBase());
                    Set<String> named = nameLiterals(f.getFilter());
                    if (step != null && named != null && canMatchElement(step.getNodeTest(), HistoryVocabulary.EVENT)) {
                        handled.put(step, named);
                    }
                }
                for (Operand o : e.operands()) {
                    todo.push(o.getChildExpression());
                }
            }
        }

        private void visit(Expression e, Expression parent, boolean outerFocus, Map<Expression, Set<String>> handled) {
            if (all) {
                return;
            }
            if (e instanceof AxisExpression ax) {
                Set<String> named = handled.get(ax);
                if (named != null) {
                    names.addAll(named);
                } else if (axisReachesEvents(ax)) {
                    all = true;
                    return;
                }
            }
            if (isContainer(e, outerFocus) && !allowedContainerUse(e, parent)) {
                // The document or HistoryOfEvents element is used as a value (atomized, copied,
                // bound to a variable): it may expose every event.
                all = true;
                return;
            }
            for (Operand o : e.operands()) {
                visit(o.getChildExpression(), e, outerFocus && o.hasSameFocus(), handled);
            }
        }

        private static boolean axisReachesEvents(AxisExpression ax) {
            NodeTest t = ax.getNodeTest();
            int axis = ax.getAxis();
            switch (axis) {
                case AxisInfo.ATTRIBUTE, AxisInfo.NAMESPACE, AxisInfo.SELF, AxisInfo.PARENT, AxisInfo.ANCESTOR,
                        AxisInfo.ANCESTOR_OR_SELF:
                    return false;
                case AxisInfo.CHILD:
                    // Children of Event elements are reached only through an Event step, which is
                    // checked where it occurs.
                    return canMatchElement(t, HistoryVocabulary.EVENT);
                default:
                    // descendant, following, preceding, siblings: may land anywhere.
                    if (t == null || t.getUType().overlaps(UType.TEXT)) {
                        return true;
                    }
                    if (canMatchElement(t, HistoryVocabulary.EVENT)) {
                        return true;
                    }
                    for (String n : HistoryVocabulary.EVENT_CONTENT_NAMES) {
                        if (canMatchElement(t, n)) {
                            return true;
                        }
                    }
                    return false;
            }
        }

        private static boolean isContainer(Expression e, boolean outerFocus) {
            if (e instanceof RootExpression) {
                return true;
            }
            if (e instanceof ContextItemExpression) {
                return outerFocus;
            }
            if (e instanceof StaticFunctionCall call && !(e instanceof UserFunctionCall)) {
                StructuredQName n = call.getFunctionName();
                return n != null && NamespaceUri.FN.equals(n.getNamespaceUri()) && n.getLocalPart().equals("root");
            }
            if (e instanceof AxisExpression ax) {
                int axis = ax.getAxis();
                if (axis == AxisInfo.PARENT || axis == AxisInfo.ANCESTOR || axis == AxisInfo.ANCESTOR_OR_SELF
                        || axis == AxisInfo.PRECEDING_OR_ANCESTOR) {
                    return true;
                }
                NodeTest t = ax.getNodeTest();
                return t == null || t.getUType().overlaps(UType.DOCUMENT)
                        || canMatchElement(t, HistoryVocabulary.HISTORY);
            }
            if (e instanceof SlashExpression s) {
                return isContainer(s.getStep(), false);
            }
            if (e instanceof FilterExpression f) {
                return isContainer(f.getBase(), outerFocus);
            }
            if (TRANSPARENT.contains(e.getClass().getSimpleName())) {
                for (Operand o : e.operands()) {
                    if (isContainer(o.getChildExpression(), outerFocus && o.hasSameFocus())) {
                        return true;
                    }
                }
            }
            return false;
        }

        private static boolean allowedContainerUse(Expression e, Expression parent) {
            if (parent instanceof SlashExpression s) {
                return true; // as the start it is navigated from; as the step, the path is checked itself
            }
            if (parent instanceof FilterExpression f) {
                return f.getBase() == e; // the filter itself is checked as a container
            }
            return parent != null && TRANSPARENT.contains(parent.getClass().getSimpleName());
        }

        private static AxisExpression lastAxis(Expression e) {
            if (e instanceof AxisExpression ax) {
                return ax;
            }
            if (e instanceof SlashExpression s) {
                return lastAxis(s.getStep());
            }
            if (TRANSPARENT.contains(e.getClass().getSimpleName())) {
                for (Operand o : e.operands()) {
                    return lastAxis(o.getChildExpression());
                }
            }
            return null;
        }

        /**
         * The names selected by a predicate {@code @name = 'a'} (either order, = or eq), by
         * {@code @name = ('a', 'b')}, or by an {@code or} of such predicates; else null.
         */
        private static Set<String> nameLiterals(Expression predicate) {
            Expression p = unwrap(predicate);
            if (!(p instanceof BinaryExpression b)) {
                return null;
            }
            OperatorSymbol op = b.getOperator();
            if (op == OperatorSymbol.OR) {
                Set<String> l = nameLiterals(b.getLhsExpression());
                Set<String> r = nameLiterals(b.getRhsExpression());
                if (l == null || r == null) {
                    return null;
                }
                Set<String> both = new TreeSet<>(l);
                both.addAll(r);
                return both;
            }
            if (op != OperatorSymbol.EQUALS && op != OperatorSymbol.FEQ) {
                return null;
            }
            Expression l = unwrap(b.getLhsExpression());
            Expression r = unwrap(b.getRhsExpression());
            if (isNameAttribute(l)) {
                return stringLiterals(r);
            }
            if (isNameAttribute(r)) {
                return stringLiterals(l);
            }
            return null;
        }

        private static Set<String> stringLiterals(Expression e) {
            if (e instanceof StringLiteral s) {
                return Set.of(s.stringify());
            }
            if (e instanceof Literal lit) {
                GroundedValue v = lit.getGroundedValue();
                Set<String> out = new TreeSet<>();
                for (int i = 0; i < v.getLength(); i++) {
                    if (!(v.itemAt(i) instanceof net.sf.saxon.value.StringValue sv)) {
                        return null;
                    }
                    out.add(sv.getStringValue());
                }
                return out.isEmpty() ? null : out;
            }
            return null;
        }

        private static boolean isNameAttribute(Expression e) {
            if (e instanceof AttributeGetter g) {
                return g.getAttributeName().getLocalPart().equals(HistoryVocabulary.NAME_ATTRIBUTE)
                        && g.getAttributeName().getURI().isEmpty();
            }
            if (e instanceof AxisExpression ax && ax.getAxis() == AxisInfo.ATTRIBUTE) {
                QNameTest q = ax.getNodeTest() == null ? null : ax.getNodeTest().getQNameTest();
                return q != null && q.matches(noNamespace(HistoryVocabulary.NAME_ATTRIBUTE))
                        && !q.matches(noNamespace("x" + HistoryVocabulary.NAME_ATTRIBUTE));
            }
            return false;
        }

        private static Expression unwrap(Expression e) {
            Expression cur = e;
            while (TRANSPARENT.contains(cur.getClass().getSimpleName())) {
                Expression only = null;
                int n = 0;
                for (Operand o : cur.operands()) {
                    only = o.getChildExpression();
                    n++;
                }
                if (n != 1) {
                    break;
                }
                cur = only;
            }
            return cur;
        }
    }

    /** Whether node test {@code t} can match an element named {@code local} in no namespace. */
    static boolean canMatchElement(NodeTest t, String local) {
        if (t == null) {
            return true;
        }
        if (!t.getUType().overlaps(UType.ELEMENT)) {
            return false;
        }
        QNameTest q = t.getQNameTest();
        return q == null || q.matches(noNamespace(local));
    }

    private static StructuredQName noNamespace(String local) {
        return new StructuredQName("", NamespaceUri.NULL, local);
    }
}
