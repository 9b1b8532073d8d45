package io.statecast.messagestore.event;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * An XPath or XQuery of the documented subset compiled to Java evaluator objects that read the
 * typed history directly: no Saxon, no document, nothing built per evaluation but the values
 * themselves. Expressions outside the subset are evaluated by Saxon ({@link CompiledQuery},
 * {@link CompiledPath} hold both).
 *
 * <p>The subset (XPath 3.1 / XQuery 3.1 syntax; whitespace and {@code (: comments :)} anywhere
 * between tokens; names of events and variables are arbitrary):
 *
 * <pre>
 * Query      ::= ("declare" "variable" "$" Name "external" ";")* Expr     (XQuery only)
 * Expr       ::= ExprSingle ("," ExprSingle)*
 * ExprSingle ::= "let" "$" Name ":=" ExprSingle ("," "$" Name ":=" ExprSingle)* "return" ExprSingle
 *              | ("some" | "every") "$" Name "in" ExprSingle ("," "$" Name "in" ExprSingle)*
 *                    "satisfies" ExprSingle
 *              | "if" "(" Expr ")" "then" ExprSingle "else" ExprSingle
 *              | OrExpr
 * OrExpr     ::= AndExpr ("or" AndExpr)*
 * AndExpr    ::= Comparison ("and" Comparison)*
 * Comparison ::= Union (("=" | "!=" | "&lt;" | "&lt;=" | "&gt;" | "&gt;="
 *                        | "eq" | "ne" | "lt" | "le" | "gt" | "ge") Union)?
 * Union      ::= PathExpr (("|" | "union") PathExpr)*
 * PathExpr   ::= "/" RelPath? | "//" RelPath | RelPath
 * RelPath    ::= (Step | Postfix) (("/" | "//") (Step | "."))*
 * Step       ::= ("@"? (Name | "*")) Predicate*                (child, or attribute with "@")
 * Postfix    ::= Primary Predicate*
 * Primary    ::= StringLiteral | IntegerLiteral | "$" Name | "." | "(" Expr? ")"
 *              | ("exists" | "empty" | "not" | "boolean" | "count") "(" ExprSingle ")"
 *              | ("last" | "position" | "true" | "false") "(" ")"
 * Predicate  ::= "[" Expr "]"
 * </pre>
 *
 * Variables are a {@code let} or quantifier binding in scope, else a spec parameter or a variable
 * of the spec's datamodel (declared {@code external} in a query; every parameter and datamodel
 * variable is in scope in an action's XPath). A datamodel variable is its {@code <data>} element,
 * as in the datamodel's own expressions; the subset reads its value (comparisons, functions, the
 * result) but leaves paths, predicates and unions over it to Saxon. Anything
 * else — other functions, arithmetic, {@code for}, {@code intersect}, other axes ({@code ..},
 * {@code text()}, {@code following-sibling::}), decimals, casts — leaves the expression to Saxon. Values and
 * errors are XPath's: general comparisons of untyped history values, effective boolean value,
 * numeric predicates select by position, paths return document order.
 */
public final class CompiledExpression {

    private final String text;
    private final SubsetEval.Ev root;
    private final int slots;
    private final Set<String> parameters;
    /** {@code root.isBoolean()}, which walks the tree: asked once, not per evaluation. */
    private final boolean booleanRoot;

    private CompiledExpression(String text, SubsetParser.Parsed parsed) {
        this.text = text;
        this.root = parsed.root();
        this.booleanRoot = root.isBoolean();
        this.slots = parsed.slots();
        this.parameters = parsed.parameters();
    }

    /**
     * Compiles {@code text} if it is in the subset.
     *
     * @param xquery         a composite event's XQuery rather than an action's XPath
     * @param parameterNames the spec's parameters
     * @return the compiled expression, or {@code null} when Saxon must evaluate it
     */
    public static CompiledExpression compile(String text, boolean xquery, Set<String> parameterNames) {
        return compile(text, xquery, parameterNames, List.of());
    }

    /**
     * Compiles {@code text} if it is in the subset.
     *
     * @param xquery         a composite event's XQuery rather than an action's XPath
     * @param parameterNames the spec's parameters
     * @param dataIds        the spec's datamodel variables, in the order of their indexes
     *                       ({@link DatamodelValues})
     * @return the compiled expression, or {@code null} when Saxon must evaluate it
     */
    public static CompiledExpression compile(String text, boolean xquery, Set<String> parameterNames,
            List<String> dataIds) {
        try {
            return new CompiledExpression(text, SubsetParser.parse(text, xquery, parameterNames, dataIds));
        } catch (SubsetParser.Unsupported e) {
            return null;
        }
    }

    /**
     * Compiles a datamodel expression's read of the history, written with {@code $_x?history} as
     * the document ({@code $_x?history/HistoryOfEvents/Event[@name='data'][last()]}), if it is in
     * the subset (as for an action's XPath; absolute paths are refused, since the datamodel's
     * {@code /} is not the history).
     *
     * @return the compiled expression, or {@code null} when Saxon must evaluate it
     */
    public static CompiledExpression compilePlatformRead(String text, Set<String> parameterNames,
            List<String> dataIds) {
        try {
            return new CompiledExpression(text, SubsetParser.parsePlatform(text, parameterNames, dataIds));
        } catch (SubsetParser.Unsupported e) {
            return null;
        }
    }

    /**
     * Why {@code text} is outside the subset (the first construct the subset lacks, with its
     * offset), or {@code null} when it compiles. For tools that show which expressions run on Saxon.
     */
    public static String outsideSubset(String text, boolean xquery, Set<String> parameterNames) {
        return outsideSubset(text, xquery, parameterNames, List.of());
    }

    /** {@link #outsideSubset(String, boolean, Set)} for a spec with datamodel variables {@code dataIds}. */
    public static String outsideSubset(String text, boolean xquery, Set<String> parameterNames, List<String> dataIds) {
        Objects.requireNonNull(text, "text");
        try {
            SubsetParser.parse(text, xquery, parameterNames, dataIds);
            return null;
        } catch (SubsetParser.Unsupported e) {
            return e.getMessage();
        }
    }

    /** The expression as written. */
    public String text() {
        return text;
    }

    /** The spec parameters it reads. */
    public Set<String> parameters() {
        return parameters;
    }

    /**
     * The truth of a composite event's query on {@code history}, as {@link CompiledQuery#isTrue}
     * reads Saxon's result: non-empty, and every item true or the text {@code true}.
     */
    public boolean isTrue(History history, QueryBindings bindings) throws EvaluationException {
        return isTrue(history, bindings, DatamodelValues.NONE);
    }

    /** {@link #isTrue(History, QueryBindings)} with the instance's datamodel variables {@code data}. */
    public boolean isTrue(History history, QueryBindings bindings, DatamodelValues data) throws EvaluationException {
        if (booleanRoot) {
            // one boolean: its truth is the result's (no list is made)
            try (SubsetEval.Ctx c = SubsetEval.Ctx.open(history, bindings, data, slots)) {
                return root.ebv(c);
            } catch (SubsetEval.DynamicError e) {
                throw new EvaluationException("'" + text + "' failed: " + e.getMessage(), e.fatal, e);
            } catch (StackOverflowError e) {
                throw new EvaluationException("'" + text + "' overflowed the stack", true, e);
            }
        }
        List<Object> v = run(history, bindings, data);
        if (v.isEmpty()) {
            return false;
        }
        for (Object item : v) {
            if (item instanceof Boolean b) {
                if (!b) {
                    return false;
                }
            } else if (!"true".equals(text(history, item).strip())) {
                return false;
            }
        }
        return true;
    }

    /**
     * What an action's XPath selects in {@code history}, as {@link QueryEvaluator#evaluatePath}
     * gives it for Saxon's result, except that a single address element comes back as its
     * {@link PathResult.Address}; {@code null} when empty.
     */
    public PathResult select(History history, QueryBindings bindings) throws EvaluationException {
        return select(history, bindings, DatamodelValues.NONE);
    }

    /** {@link #select(History, QueryBindings)} with the instance's datamodel variables {@code data}. */
    public PathResult select(History history, QueryBindings bindings, DatamodelValues data)
            throws EvaluationException {
        try (SubsetEval.Ctx c = SubsetEval.Ctx.open(history, bindings, data, slots)) {
            // the result is read here, before anything else runs: a path's one node may be the
            // context's scratch item rather than a new one
            c.lend = SubsetEval.takesLend(root);
            return select(history, root.eval(c));
        } catch (SubsetEval.DynamicError e) {
            throw new EvaluationException("'" + text + "' failed: " + e.getMessage(), e.fatal, e);
        } catch (StackOverflowError e) {
            throw new EvaluationException("'" + text + "' overflowed the stack", true, e);
        }
    }

    /**
     * A node's string value as an atomized item: {@code xs:untypedAtomic}, as every value of the
     * history and the datamodel is ({@link #atomized}).
     */
    public record Untyped(String text) {
        /** @param text the string value */
        public Untyped {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * The value atomized, for the datamodel's own evaluators ({@code exists($_x?history/…)} in a
     * {@code cond}): each node, of the history or a datamodel variable, as an {@link Untyped} of
     * its string value; each atomic value as it is ({@code String}, {@code Long}, {@code Boolean}).
     */
    public List<Object> atomized(History history, QueryBindings bindings, DatamodelValues data)
            throws EvaluationException {
        try (SubsetEval.Ctx c = SubsetEval.Ctx.open(history, bindings, data, slots)) {
            // read every item before anything else runs: a path's one node may be the context's
            // scratch item rather than a new one
            c.lend = SubsetEval.takesLend(root);
            List<Object> v = root.eval(c);
            int n = v.size();
            if (n == 0) {
                return List.of();
            }
            List<Object> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                Object item = v.get(i);
                out.add(item instanceof String || item instanceof Long || item instanceof Boolean ? item
                        : new Untyped(item instanceof DatamodelItem d ? d.text() : text(history, item)));
            }
            return out;
        } catch (SubsetEval.DynamicError e) {
            throw new EvaluationException("'" + text + "' failed: " + e.getMessage(), e.fatal, e);
        } catch (StackOverflowError e) {
            throw new EvaluationException("'" + text + "' overflowed the stack", true, e);
        }
    }

    /**
     * The entries (indexes in {@link History#entries()}) holding the history nodes the expression
     * selects: what {@code forgetEvents} removes ({@link History#forget} for Saxon's nodes).
     */
    int[] selectedEntries(History history, QueryBindings bindings, DatamodelValues data) throws EvaluationException {
        try (SubsetEval.Ctx c = SubsetEval.Ctx.open(history, bindings, data, slots)) {
            c.lend = SubsetEval.takesLend(root);
            List<Object> v = root.eval(c);
            int[] out = new int[v.size()];
            int n = 0;
            for (int i = 0; i < out.length; i++) {
                // read now: a path's one node may be the context's scratch item
                if (v.get(i) instanceof HistoryItem h && h.index >= 0) {
                    out[n++] = h.index;
                }
            }
            return n == out.length ? out : java.util.Arrays.copyOf(out, n);
        } catch (SubsetEval.DynamicError e) {
            throw new EvaluationException("'" + text + "' failed: " + e.getMessage(), e.fatal, e);
        } catch (StackOverflowError e) {
            throw new EvaluationException("'" + text + "' overflowed the stack", true, e);
        }
    }

    private static PathResult select(History history, List<Object> v) {
        int n = v.size();
        if (n == 0) {
            return null;
        }
        if (n == 1 && v.get(0) instanceof HistoryItem h && h.address() != null) {
            return new PathResult.Address(h.address());
        }
        PathResult first = result(history, v.get(0));
        if (n == 1) {
            return first;
        }
        List<PathResult> items = new ArrayList<>(n);
        items.add(first);
        for (int i = 1; i < n; i++) {
            PathResult r = result(history, v.get(i));
            if (r.getClass() != first.getClass()) {
                return first;
            }
            items.add(r);
        }
        if (first instanceof PathResult.Message) {
            List<io.statecast.overlay.message.OverlayMessage> messages = new ArrayList<>(n);
            for (PathResult r : items) {
                messages.add(((PathResult.Message) r).message());
            }
            return new PathResult.Messages(messages);
        }
        if (first instanceof PathResult.Text) {
            List<String> texts = new ArrayList<>(n);
            for (PathResult r : items) {
                texts.add(((PathResult.Text) r).text());
            }
            return new PathResult.Texts(texts);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (PathResult r : items) {
            bytes.writeBytes(((PathResult.Bytes) r).bytes());
        }
        return new PathResult.Bytes(bytes.toByteArray());
    }

    private static PathResult result(History history, Object item) {
        if (item instanceof HistoryItem h) {
            if (h.kind == HistoryItem.MESSAGE) {
                return new PathResult.Message(h.message());
            }
            byte[] p = h.payload();
            if (p != null) {
                return new PathResult.Bytes(p);
            }
        }
        return new PathResult.Text(text(history, item));
    }

    /** The string value of an item, as Saxon writes it. */
    private static String text(History history, Object item) {
        if (item instanceof HistoryItem h) {
            return h.stringValue(history);
        }
        return item.toString();
    }

    /**
     * The value as a sequence of {@link HistoryItem}, {@link DatamodelItem}, String, Long and
     * Boolean items (tests compare it with Saxon's).
     */
    List<Object> run(History history, QueryBindings bindings) throws EvaluationException {
        return run(history, bindings, DatamodelValues.NONE);
    }

    List<Object> run(History history, QueryBindings bindings, DatamodelValues data) throws EvaluationException {
        try (SubsetEval.Ctx c = SubsetEval.Ctx.open(history, bindings, data, slots)) {
            return root.eval(c);
        } catch (SubsetEval.DynamicError e) {
            throw new EvaluationException("'" + text + "' failed: " + e.getMessage(), e.fatal, e);
        } catch (StackOverflowError e) {
            throw new EvaluationException("'" + text + "' overflowed the stack", true, e);
        }
    }

    /**
     * The value with {@code context} rather than the document as context item (a message's key:
     * {@link MessageKeyExpression}).
     */
    List<Object> runAt(History history, HistoryItem context, QueryBindings bindings) throws EvaluationException {
        try (SubsetEval.Ctx c = SubsetEval.Ctx.open(history, bindings, DatamodelValues.NONE, slots)) {
            c.item = context;
            return root.eval(c);
        } catch (SubsetEval.DynamicError e) {
            throw new EvaluationException("'" + text + "' failed: " + e.getMessage(), e.fatal, e);
        } catch (StackOverflowError e) {
            throw new EvaluationException("'" + text + "' overflowed the stack", true, e);
        }
    }

    @Override
    public String toString() {
        return "CompiledExpression[" + text + "]";
    }
}
