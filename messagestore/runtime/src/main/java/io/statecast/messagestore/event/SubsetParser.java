package io.statecast.messagestore.event;

import io.statecast.messagestore.event.SubsetEval.Axis;
import io.statecast.messagestore.event.SubsetEval.Ev;
import io.statecast.messagestore.event.SubsetEval.Function;
import io.statecast.messagestore.event.SubsetEval.Op;
import io.statecast.messagestore.event.SubsetLexer.Kind;
import io.statecast.messagestore.event.SubsetLexer.Token;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Recursive-descent parser of the XPath/XQuery subset that runs as Java over the typed history
 * ({@link CompiledExpression} documents the grammar). It builds the evaluator tree directly;
 * variables are resolved lexically to slots as they are parsed, so their names do not matter.
 * Text outside the grammar throws {@link Unsupported}: the expression stays with Saxon, which
 * has already compiled (and so validated) the same text.
 */
final class SubsetParser {

    /** The text uses something outside the subset. */
    static final class Unsupported extends Exception {
        private static final long serialVersionUID = 1L;

        Unsupported(String what, int offset) {
            super(what + " (at offset " + offset + ")", null, false, false);
        }
    }

    /** A variable in scope; {@code data}: its value may hold a datamodel variable's node. */
    private record Binding(String name, int slot, boolean data) {
    }

    private final List<Token> tokens;
    private final boolean xquery;
    private final Set<String> parameters;
    private final List<String> dataIds;
    /**
     * A datamodel expression's read of the history: {@code $_x?history} is the document node, and
     * an absolute path is refused (there {@code /} is not the history).
     */
    private final boolean platformHistory;
    private final Set<String> externals = new LinkedHashSet<>();
    private final List<Binding> scope = new ArrayList<>();
    private final Set<String> usedParameters = new HashSet<>();
    private int at;
    private int slots;

    private SubsetParser(List<Token> tokens, boolean xquery, Set<String> parameters, List<String> dataIds,
            boolean platformHistory) {
        this.tokens = tokens;
        this.xquery = xquery;
        this.parameters = parameters;
        this.dataIds = dataIds;
        this.platformHistory = platformHistory;
    }

    /**
     * A parsed expression.
     *
     * @param root       its evaluator
     * @param slots      the variable slots it needs
     * @param parameters the spec parameters it reads
     */
    record Parsed(Ev root, int slots, Set<String> parameters) {
    }

    /**
     * Parses {@code text}.
     *
     * @param xquery     a composite event's XQuery (may have a prolog declaring external
     *                   parameters and datamodel variables) rather than an action's XPath (every
     *                   spec parameter and datamodel variable in scope)
     * @param parameters the spec's parameter names
     * @param dataIds    the spec's datamodel variables ({@code <data id>}), in the order that
     *                   gives each its index ({@link SubsetEval.DataRef})
     */
    static Parsed parse(String text, boolean xquery, Set<String> parameters, List<String> dataIds) throws Unsupported {
        SubsetParser p = new SubsetParser(SubsetLexer.tokens(text, xquery), xquery, parameters, dataIds, false);
        if (xquery) {
            p.prolog();
        }
        Ev root = p.expr();
        p.expect(Kind.END, "");
        return new Parsed(root, p.slots, Set.copyOf(p.usedParameters));
    }

    /**
     * Parses an XPath of the datamodel ({@code cond}, {@code <assign expr>}) that reads the
     * history as {@code $_x?history}: that lookup is the history's document node, the rest is the
     * subset as for an action's XPath, except absolute paths (whose root, in the datamodel, is not
     * the history).
     */
    static Parsed parsePlatform(String text, Set<String> parameters, List<String> dataIds) throws Unsupported {
        SubsetParser p = new SubsetParser(SubsetLexer.tokens(text, false, true), false, parameters, dataIds, true);
        Ev root = p.expr();
        p.expect(Kind.END, "");
        return new Parsed(root, p.slots, Set.copyOf(p.usedParameters));
    }

    // ------------------------------------------------------------------ token helpers

    private Token peek() {
        return tokens.get(at);
    }

    private Token peek(int ahead) {
        return tokens.get(Math.min(at + ahead, tokens.size() - 1));
    }

    private Token next() {
        return tokens.get(at++);
    }

    private boolean accept(String symbolOrName) {
        if (peek().is(symbolOrName)) {
            at++;
            return true;
        }
        return false;
    }

    private Token expect(Kind kind, String text) throws Unsupported {
        Token t = peek();
        if (t.kind() != kind || (!text.isEmpty() && !t.text().equals(text))) {
            throw unexpected();
        }
        return next();
    }

    private Unsupported unexpected() {
        Token t = peek();
        return new Unsupported(t.kind() == Kind.END ? "an unexpected end" : "'" + t.text() + "'", t.start());
    }

    // ------------------------------------------------------------------ grammar

    /** {@code (declare variable $name external ;)*}. */
    private void prolog() throws Unsupported {
        while (peek().is("declare")) {
            next();
            expect(Kind.NAME, "variable");
            expect(Kind.SYMBOL, "$");
            String name = varName();
            expect(Kind.NAME, "external");
            expect(Kind.SYMBOL, ";");
            externals.add(name);
        }
    }

    private String varName() throws Unsupported {
        Token t = expect(Kind.NAME, "");
        if (t.text().indexOf(':') >= 0) {
            throw new Unsupported("prefixed variable names", t.start());
        }
        return t.text();
    }

    /** {@code ExprSingle ("," ExprSingle)*}. */
    private Ev expr() throws Unsupported {
        Ev first = exprSingle();
        if (!peek().is(",")) {
            return first;
        }
        List<Ev> parts = new ArrayList<>();
        parts.add(first);
        while (accept(",")) {
            parts.add(exprSingle());
        }
        return new SubsetEval.Concat(parts.toArray(Ev[]::new));
    }

    private Ev exprSingle() throws Unsupported {
        Token t = peek();
        if (t.kind() == Kind.NAME && peek(1).is("$")) {
            switch (t.text()) {
                case "let":
                    return let();
                case "some":
                case "every":
                    return quantified();
                case "for":
                    throw new Unsupported("for expressions", t.start());
                default:
                    break;
            }
        }
        if (t.is("if") && peek(1).is("(")) {
            next();
            next();
            Ev cond = expr();
            expect(Kind.SYMBOL, ")");
            expect(Kind.NAME, "then");
            Ev then = exprSingle();
            expect(Kind.NAME, "else");
            return new SubsetEval.If(cond, then, exprSingle());
        }
        return or();
    }

    /** {@code let $v := E (, $w := E)* (let …)* return E}: nested single bindings. */
    private Ev let() throws Unsupported {
        int depth = scope.size();
        List<Integer> slotList = new ArrayList<>();
        List<Ev> values = new ArrayList<>();
        do {
            next(); // let, or the comma
            do {
                expect(Kind.SYMBOL, "$");
                String name = varName();
                expect(Kind.SYMBOL, ":=");
                Ev value = exprSingle();
                int slot = slots++;
                scope.add(new Binding(name, slot, SubsetEval.mayReturnData(value)));
                slotList.add(slot);
                values.add(value);
            } while (peek().is(",") && peek(1).is("$") && advance());
        } while (xquery && peek().is("let") && peek(1).is("$"));
        if (peek().is("where") || peek().is("order") || peek().is("for")) {
            throw new Unsupported("FLWOR clauses other than let", peek().start());
        }
        expect(Kind.NAME, "return");
        Ev body = exprSingle();
        scope.subList(depth, scope.size()).clear();
        for (int i = values.size() - 1; i >= 0; i--) {
            body = new SubsetEval.Let(slotList.get(i), values.get(i), body);
        }
        return body;
    }

    private boolean advance() {
        at++;
        return true;
    }

    /** {@code some|every $v in E (, $w in E)* satisfies E}: nested single bindings. */
    private Ev quantified() throws Unsupported {
        boolean every = next().text().equals("every");
        int depth = scope.size();
        List<Integer> slotList = new ArrayList<>();
        List<Ev> domains = new ArrayList<>();
        do {
            expect(Kind.SYMBOL, "$");
            String name = varName();
            expect(Kind.NAME, "in");
            Ev domain = exprSingle();
            int slot = slots++;
            scope.add(new Binding(name, slot, SubsetEval.mayReturnData(domain)));
            slotList.add(slot);
            domains.add(domain);
        } while (accept(","));
        expect(Kind.NAME, "satisfies");
        Ev test = exprSingle();
        scope.subList(depth, scope.size()).clear();
        for (int i = domains.size() - 1; i >= 0; i--) {
            test = new SubsetEval.Quantified(every, slotList.get(i), domains.get(i), test);
        }
        return test;
    }

    private Ev or() throws Unsupported {
        Ev left = and();
        while (accept("or")) {
            Ev right = and();
            if (left instanceof SubsetEval.NameIn a && right instanceof SubsetEval.NameIn b) {
                Set<String> names = new LinkedHashSet<>(a.names);
                names.addAll(b.names);
                left = new SubsetEval.NameIn(names);
            } else {
                left = new SubsetEval.Logic(false, left, right);
            }
        }
        return left;
    }

    private Ev and() throws Unsupported {
        Ev left = comparison();
        while (accept("and")) {
            left = new SubsetEval.Logic(true, left, comparison());
        }
        return left;
    }

    private Ev comparison() throws Unsupported {
        Ev left = union();
        Op op = switch (peek().kind() == Kind.SYMBOL ? peek().text() : "") {
            case "=" -> Op.EQ;
            case "!=" -> Op.NE;
            case "<" -> Op.LT;
            case "<=" -> Op.LE;
            case ">" -> Op.GT;
            case ">=" -> Op.GE;
            default -> null;
        };
        Op valueOp = op != null || peek().kind() != Kind.NAME ? null : switch (peek().text()) {
            case "eq" -> Op.EQ;
            case "ne" -> Op.NE;
            case "lt" -> Op.LT;
            case "le" -> Op.LE;
            case "gt" -> Op.GT;
            case "ge" -> Op.GE;
            default -> null;
        };
        if (valueOp != null) {
            next();
            Ev right = union();
            checkFollower();
            return new SubsetEval.ValueCompare(valueOp, left, right);
        }
        if (op == null) {
            checkFollower();
            return left;
        }
        next();
        Ev right = union();
        checkFollower();
        // @name = 'literal' (either way round) tests the event's name directly
        if (op == Op.EQ) {
            String n = nameLiteral(left, right);
            if (n == null) {
                n = nameLiteral(right, left);
            }
            if (n != null) {
                return new SubsetEval.NameIn(Set.of(n));
            }
        }
        return new SubsetEval.Compare(op, left, right);
    }

    /** {@code PathExpr (("|" | "union") PathExpr)*}. */
    private Ev union() throws Unsupported {
        Ev left = path();
        while (peek().is("|") || peek().kind() == Kind.NAME && peek().text().equals("union")) {
            int offset = next().start();
            Ev right = path();
            if (SubsetEval.mayReturnData(left) || SubsetEval.mayReturnData(right)) {
                throw new Unsupported("a union with a datamodel variable", offset);
            }
            left = new SubsetEval.Union(left, right);
        }
        return left;
    }

    /**
     * After an operand only these may follow in the subset; anything else (an arithmetic,
     * value-comparison, union or other operator) is outside it.
     */
    private void checkFollower() throws Unsupported {
        Token t = peek();
        if (t.kind() == Kind.END || t.is(")") || t.is("]") || t.is(",") || t.is("and") || t.is("or")
                || t.is("return") || t.is("then") || t.is("else") || t.is("satisfies") || t.is("let")
                || t.is("=") || t.is("!=") || t.is("<") || t.is("<=") || t.is(">") || t.is(">=")
                || t.is("eq") || t.is("ne") || t.is("lt") || t.is("le") || t.is("gt") || t.is("ge")) {
            return;
        }
        throw unexpected();
    }

    /** The literal in {@code @name = 'literal'}, or {@code null} when the two operands are not that. */
    private static String nameLiteral(Ev attribute, Ev literal) {
        if (attribute instanceof SubsetEval.Path p && p.start instanceof SubsetEval.ContextItem && p.steps.length == 1
                && p.steps[0].axis == Axis.ATTRIBUTE && HistoryVocabulary.NAME_ATTRIBUTE.equals(p.steps[0].name)
                && p.steps[0].predicates.length == 0 && literal instanceof SubsetEval.Literal l
                && l.value instanceof String s) {
            return s;
        }
        return null;
    }

    /** {@code / RelPath? | // RelPath | RelPath}. */
    private Ev path() throws Unsupported {
        Ev start;
        List<SubsetEval.Step> steps = new ArrayList<>();
        if (platformHistory && (peek().is("/") || peek().is("//"))) {
            throw new Unsupported("an absolute path (the history is $_x?history here)", peek().start());
        }
        if (peek().is("/")) {
            next();
            start = new SubsetEval.Root();
            if (!startsAxisStep()) {
                return start;
            }
            steps.add(step(Axis.CHILD));
        } else if (peek().is("//")) {
            next();
            start = new SubsetEval.Root();
            steps.add(step(Axis.DESCENDANT_CHILD));
        } else if (startsAxisStep()) {
            start = new SubsetEval.ContextItem();
            steps.add(step(Axis.CHILD));
        } else {
            start = postfix();
            if ((peek().is("/") || peek().is("//")) && SubsetEval.mayReturnData(start)) {
                // the subset reads a datamodel variable's value, it does not walk its element
                throw new Unsupported("a path from a datamodel variable", peek().start());
            }
        }
        while (peek().is("/") || peek().is("//")) {
            Axis axis = next().is("/") ? Axis.CHILD : Axis.DESCENDANT_CHILD;
            if (peek().is(".")) { // a/. is a
                next();
                if (peek().is("[")) {
                    throw new Unsupported("predicates on '.' in a path", peek().start());
                }
                if (axis == Axis.DESCENDANT_CHILD) {
                    throw new Unsupported("'//.'", peek().start());
                }
                continue;
            }
            steps.add(step(axis));
        }
        return steps.isEmpty() ? start : new SubsetEval.Path(start, steps.toArray(SubsetEval.Step[]::new));
    }

    /** A name test, {@code *} or {@code @}: not a function call, not a keyword starting an expression. */
    private boolean startsAxisStep() {
        Token t = peek();
        if (t.is("@") || t.is("*")) {
            return true;
        }
        return t.kind() == Kind.NAME && !peek(1).is("(");
    }

    private SubsetEval.Step step(Axis axis) throws Unsupported {
        if (accept("@")) {
            if (axis == Axis.DESCENDANT_CHILD) {
                throw new Unsupported("'//@'", peek().start());
            }
            axis = Axis.ATTRIBUTE;
        }
        String name;
        if (accept("*")) {
            name = null;
        } else {
            Token t = expect(Kind.NAME, "");
            if (peek().is("(")) {
                throw new Unsupported("kind tests and function calls as steps", t.start());
            }
            if (t.text().indexOf(':') >= 0) {
                throw new Unsupported("prefixed names", t.start());
            }
            name = t.text();
        }
        return new SubsetEval.Step(axis, name, predicates());
    }

    private Ev[] predicates() throws Unsupported {
        List<Ev> out = new ArrayList<>();
        while (accept("[")) {
            out.add(expr());
            expect(Kind.SYMBOL, "]");
        }
        return out.toArray(Ev[]::new);
    }

    /** {@code Primary Predicate*}. */
    private Ev postfix() throws Unsupported {
        Ev primary = primary();
        if (peek().is("[") && SubsetEval.mayReturnData(primary)) {
            throw new Unsupported("a predicate on a datamodel variable", peek().start());
        }
        Ev[] preds = predicates();
        return preds.length == 0 ? primary : new SubsetEval.Filter(primary, preds);
    }

    private Ev primary() throws Unsupported {
        Token t = peek();
        switch (t.kind()) {
            case STRING:
                next();
                return new SubsetEval.Literal(t.text());
            case INTEGER:
                next();
                try {
                    return new SubsetEval.Literal(Long.parseLong(t.text()));
                } catch (NumberFormatException e) {
                    throw new Unsupported("integers beyond 64 bits", t.start());
                }
            case NAME:
                if (peek(1).is("(")) {
                    return call();
                }
                throw unexpected();
            default:
                break;
        }
        if (accept("$")) {
            String name = varName();
            if (platformHistory && name.equals("_x")) {
                expect(Kind.SYMBOL, "?");
                Token key = expect(Kind.NAME, "");
                if (!key.text().equals("history")) {
                    throw new Unsupported("$_x?" + key.text(), key.start());
                }
                return new SubsetEval.HistoryDocument();
            }
            return variable(name, t.start());
        }
        if (accept(".")) {
            return new SubsetEval.ContextItem();
        }
        if (accept("(")) {
            if (accept(")")) {
                return new SubsetEval.EmptySeq();
            }
            Ev e = expr();
            expect(Kind.SYMBOL, ")");
            return e;
        }
        throw unexpected();
    }

    private Ev variable(String name, int offset) throws Unsupported {
        for (int i = scope.size() - 1; i >= 0; i--) {
            if (scope.get(i).name().equals(name)) {
                return new SubsetEval.VarRef(scope.get(i).slot(), scope.get(i).data());
            }
        }
        if (xquery ? externals.contains(name) : parameters.contains(name) || dataIds.contains(name)) {
            // a datamodel variable unless it is a parameter (the spec loader refuses a name that is both)
            int data = parameters.contains(name) ? -1 : dataIds.indexOf(name);
            if (data >= 0) {
                return new SubsetEval.DataRef(data);
            }
            usedParameters.add(name);
            return new SubsetEval.ParamRef(name);
        }
        throw new Unsupported("variable $" + name + " is not in scope", offset);
    }

    private Ev call() throws Unsupported {
        Token t = next();
        String name = t.text().startsWith("fn:") ? t.text().substring(3) : t.text();
        Function f = switch (name) {
            case "exists" -> Function.EXISTS;
            case "empty" -> Function.EMPTY;
            case "not" -> Function.NOT;
            case "boolean" -> Function.BOOLEAN;
            case "count" -> Function.COUNT;
            case "last" -> Function.LAST;
            case "position" -> Function.POSITION;
            case "true" -> Function.TRUE;
            case "false" -> Function.FALSE;
            default -> throw new Unsupported("function " + t.text() + "()", t.start());
        };
        expect(Kind.SYMBOL, "(");
        boolean noArgument = f == Function.LAST || f == Function.POSITION || f == Function.TRUE || f == Function.FALSE;
        Ev arg = null;
        if (!noArgument) {
            arg = exprSingle();
        }
        expect(Kind.SYMBOL, ")");
        return new SubsetEval.Call(f, arg);
    }
}
