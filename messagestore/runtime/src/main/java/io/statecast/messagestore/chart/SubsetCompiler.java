package io.statecast.messagestore.chart;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Compiles the XPath subset that the engine evaluates without Saxon into a {@link SubsetExpr};
 * any other text yields {@code null} and stays with Saxon. The subset is a sub-grammar of XPath
 * 3.1, recognised by its grammar, never by particular text or variable names:
 *
 * <pre>
 * Expr       ::= AndExpr ( "or" AndExpr )*
 * AndExpr    ::= CompExpr ( "and" CompExpr )*
 * CompExpr   ::= AddExpr ( ( "=" | "!=" | "&lt;" | "&lt;=" | "&gt;" | "&gt;=" ) AddExpr )?
 * AddExpr    ::= MulExpr ( ( "+" | "-" ) MulExpr )*
 * MulExpr    ::= Unary ( ( "*" | "div" | "idiv" | "mod" ) Unary )*
 * Unary      ::= ( "-" | "+" )* Primary
 * Primary    ::= IntegerLiteral | DecimalLiteral | DoubleLiteral | StringLiteral
 *              | "$" NCName ( "/" "text" "(" ")" )?
 *              | "(" Expr ")"
 *              | ( "true" | "false" ) "(" ")"
 *              | ( "not" | "string" | "number" | "string-length" | "ceiling" ) "(" Expr ")"
 *              | "concat" "(" Expr ( "," Expr )+ ")"
 *              | "In" "(" StringLiteral ")"
 *              | "$_x" "?" NCName ( "?" "(" Expr ")" )?
 *              | ( "max" | "min" ) "(" ( Item | "(" Item ( "," Item )* ")" ) ")"
 *              | ( "exists" | "empty" | "count" | "string" | "number" | "xs:integer" ) "(" HistoryRead ")"
 * Item       ::= Expr | "$_x" "?" NCName "?" "*"
 * </pre>
 *
 * A HistoryRead is an argument that names {@code $_x} and compiles in the history's subset with
 * {@code $_x?history} as the document ({@link HistoryReads}); it runs over the history's entries.
 *
 * {@code $_x} is the platform's map ({@link ChartHost#platform}); its entries are read through
 * the {@link SubsetExpr.Scope}, so that a host answers them without building the map.
 *
 * NCName is limited to ASCII ({@code [A-Za-z_][A-Za-z0-9_.-]*}); white space (space, tab, CR, LF)
 * may stand between tokens. Text the grammar does not derive (comments, paths, other functions,
 * sequences, {@code ||}, value comparisons, an integer beyond {@code long}) is left to Saxon.
 * {@link ChartCompiler} compiles the subset only for text Saxon compiled too, so static errors
 * stay Saxon's.
 */
final class SubsetCompiler {

    /**
     * Compiles the argument of {@code exists}, {@code empty}, {@code count}, {@code string},
     * {@code number} or {@code xs:integer} when it reads the history as {@code $_x?history}
     * ({@link io.statecast.messagestore.event.CompiledExpression#compilePlatformRead}).
     */
    interface HistoryReads {
        /** The argument's compiled form, or {@code null} when it is outside the history's subset. */
        io.statecast.messagestore.event.CompiledExpression compile(String text);

        /** The datamodel variables a compiled argument reads, by its indexes. */
        List<String> dataIds();
    }

    private final String s;
    private final HistoryReads reads;
    private int pos;

    private SubsetCompiler(String s, HistoryReads reads) {
        this.s = s;
        this.reads = reads;
    }

    /** The subset's form of {@code text}, or {@code null} when the text is outside the subset. */
    static SubsetExpr compile(String text) {
        return compile(text, null);
    }

    /**
     * The subset's form of {@code text}, with reads of the history ({@code exists($_x?history/…)})
     * compiled by {@code reads} (none when {@code null}); {@code null} when outside the subset.
     */
    static SubsetExpr compile(String text, HistoryReads reads) {
        if (text == null) {
            return null;
        }
        SubsetCompiler c = new SubsetCompiler(text, reads);
        try {
            SubsetExpr e = c.or();
            c.skipSpace();
            return c.pos == text.length() ? e : null;
        } catch (Outside outside) {
            return null;
        }
    }

    /** The text leaves the subset. */
    private static final class Outside extends Exception {
        private static final long serialVersionUID = 1L;

        Outside() {
            super(null, null, false, false);
        }
    }

    private SubsetExpr or() throws Outside {
        SubsetExpr e = and();
        while (keyword("or")) {
            e = new SubsetExpr.Logical(e, and(), true);
        }
        return e;
    }

    private SubsetExpr and() throws Outside {
        SubsetExpr e = comparison();
        while (keyword("and")) {
            e = new SubsetExpr.Logical(e, comparison(), false);
        }
        return e;
    }

    private SubsetExpr comparison() throws Outside {
        SubsetExpr e = additive();
        SubsetExpr.Cmp op = comparator();
        if (op == null) {
            return e;
        }
        SubsetExpr r = additive();
        if (comparator() != null) {
            throw new Outside(); // comparisons do not chain in XPath
        }
        return new SubsetExpr.Compare(op, e, r);
    }

    private SubsetExpr.Cmp comparator() {
        skipSpace();
        if (pos >= s.length()) {
            return null;
        }
        char c = s.charAt(pos);
        char n = pos + 1 < s.length() ? s.charAt(pos + 1) : 0;
        switch (c) {
            case '=':
                pos++;
                return SubsetExpr.Cmp.EQ;
            case '!':
                if (n == '=') {
                    pos += 2;
                    return SubsetExpr.Cmp.NE;
                }
                return null;
            case '<':
                if (n == '<') {
                    return null; // node comparison <<
                }
                pos += n == '=' ? 2 : 1;
                return n == '=' ? SubsetExpr.Cmp.LE : SubsetExpr.Cmp.LT;
            case '>':
                if (n == '>') {
                    return null;
                }
                pos += n == '=' ? 2 : 1;
                return n == '=' ? SubsetExpr.Cmp.GE : SubsetExpr.Cmp.GT;
            default:
                return null;
        }
    }

    private SubsetExpr additive() throws Outside {
        SubsetExpr e = multiplicative();
        while (true) {
            skipSpace();
            if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
                boolean plus = s.charAt(pos++) == '+';
                e = new SubsetExpr.Arith(plus ? SubsetExpr.Op.ADD : SubsetExpr.Op.SUB, e, multiplicative());
            } else {
                return e;
            }
        }
    }

    private SubsetExpr multiplicative() throws Outside {
        SubsetExpr e = unary();
        while (true) {
            skipSpace();
            SubsetExpr.Op op = null;
            if (pos < s.length() && s.charAt(pos) == '*') {
                pos++;
                op = SubsetExpr.Op.MUL;
            } else if (keyword("div")) {
                op = SubsetExpr.Op.DIV;
            } else if (keyword("idiv")) {
                op = SubsetExpr.Op.IDIV;
            } else if (keyword("mod")) {
                op = SubsetExpr.Op.MOD;
            }
            if (op == null) {
                return e;
            }
            e = new SubsetExpr.Arith(op, e, unary());
        }
    }

    private SubsetExpr unary() throws Outside {
        skipSpace();
        if (pos < s.length() && (s.charAt(pos) == '-' || s.charAt(pos) == '+')) {
            boolean negate = s.charAt(pos++) == '-';
            return new SubsetExpr.Sign(negate, unary());
        }
        return primary();
    }

    private SubsetExpr primary() throws Outside {
        skipSpace();
        if (pos >= s.length()) {
            throw new Outside();
        }
        char c = s.charAt(pos);
        if (c == '$') {
            pos++;
            String name = name();
            if (name == null) {
                throw new Outside();
            }
            int mark = pos;
            skipSpace();
            if (ChartCompiler.PLATFORM.equals(name)) {
                return platform(false);
            }
            if (pos < s.length() && s.charAt(pos) == '/' && !(pos + 1 < s.length() && s.charAt(pos + 1) == '/')) {
                pos++;
                skipSpace();
                if (!"text".equals(name())) {
                    throw new Outside();
                }
                expect('(');
                expect(')');
                return new SubsetExpr.Text(name);
            }
            pos = mark;
            return new SubsetExpr.Var(name);
        }
        if (c == '(') {
            if (pos + 1 < s.length() && s.charAt(pos + 1) == ':') {
                throw new Outside(); // a comment
            }
            pos++;
            SubsetExpr e = or();
            expect(')');
            return e;
        }
        if (c == '\'' || c == '"') {
            return new SubsetExpr.Literal(string());
        }
        if (isDigit(c) || c == '.') {
            return number();
        }
        if (reads != null && s.startsWith("xs:integer", pos)) {
            pos += "xs:integer".length();
            expect('(');
            SubsetExpr h = historyCall(SubsetExpr.HistoryCall.Kind.INTEGER);
            if (h == null) {
                throw new Outside();
            }
            return h;
        }
        String name = name();
        if (name == null) {
            throw new Outside();
        }
        return call(name);
    }

    /**
     * After {@code fn(}: the call when its argument reads {@code $_x?history} and compiles in the
     * history's subset; {@code null} (the cursor unmoved) when it does not name {@code $_x}.
     */
    private SubsetExpr historyCall(SubsetExpr.HistoryCall.Kind kind) throws Outside {
        int start = pos;
        int end = argumentEnd(start);
        String argument = s.substring(start, end);
        if (!ChartCompiler.namesVariable(argument, ChartCompiler.PLATFORM)) {
            return null;
        }
        io.statecast.messagestore.event.CompiledExpression read = reads.compile(argument);
        if (read == null) {
            throw new Outside();
        }
        pos = end + 1;
        return new SubsetExpr.HistoryCall(kind, read, reads.dataIds());
    }

    /** The index of the {@code )} that closes the argument list starting at {@code from}. */
    private int argumentEnd(int from) throws Outside {
        int depth = 1;
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\'' || c == '"') {
                int close = s.indexOf(c, i + 1); // a doubled quote closes and opens again
                if (close < 0) {
                    throw new Outside();
                }
                i = close;
            } else if (c == '(') {
                if (i + 1 < s.length() && s.charAt(i + 1) == ':') {
                    throw new Outside(); // a comment may hold anything
                }
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            } else if (c == '{' || c == '}') {
                throw new Outside();
            }
        }
        throw new Outside();
    }

    /**
     * After {@code $_x}: {@code ?NAME}, {@code ?NAME?(Expr)}, or (only as an item of
     * {@code max}/{@code min}, {@code wildcard}) {@code ?NAME?*}, which yields a {@link Wildcard}.
     */
    private SubsetExpr platform(boolean wildcard) throws Outside {
        expect('?');
        skipSpace();
        String key = name();
        if (key == null || ChartCompiler.HISTORY.equals(key)) {
            throw new Outside(); // ?1, ?*, ?(…) on $_x itself; the history document is Saxon's
        }
        int mark = pos;
        skipSpace();
        if (pos < s.length() && s.charAt(pos) == '?') {
            pos++;
            skipSpace();
            if (pos < s.length() && s.charAt(pos) == '*') {
                if (!wildcard) {
                    throw new Outside();
                }
                pos++;
                return new Wildcard(key);
            }
            expect('(');
            SubsetExpr k = or();
            expect(')');
            mark = pos;
            skipSpace();
            if (pos < s.length() && (s.charAt(pos) == '?' || s.charAt(pos) == '(' || s.charAt(pos) == '[')) {
                throw new Outside();
            }
            pos = mark;
            return new SubsetExpr.PlatformLookup(key, k);
        }
        if (pos < s.length() && (s.charAt(pos) == '(' || s.charAt(pos) == '[')) {
            throw new Outside(); // a dynamic call or a predicate
        }
        pos = mark;
        return new SubsetExpr.PlatformEntry(key);
    }

    /** {@code $_x?map?*} as an item of {@code max}/{@code min}; never evaluated on its own. */
    private static final class Wildcard extends SubsetExpr {
        final String map;

        Wildcard(String map) {
            this.map = map;
        }

        @Override
        Object value(Scope scope) {
            throw new IllegalStateException("a wildcard lookup outside max/min");
        }
    }

    /** The argument of {@code max}/{@code min}: one item, or a parenthesised list of them. */
    private SubsetExpr aggregate(boolean max) throws Outside {
        List<SubsetExpr> items = new ArrayList<>();
        skipSpace();
        int mark = pos;
        boolean list = false;
        if (pos < s.length() && s.charAt(pos) == '(' && !(pos + 1 < s.length() && s.charAt(pos + 1) == ':')) {
            try {
                pos++;
                items.add(item());
                while (true) {
                    skipSpace();
                    if (pos < s.length() && s.charAt(pos) == ',') {
                        pos++;
                        items.add(item());
                    } else {
                        break;
                    }
                }
                expect(')');
                skipSpace();
                list = pos < s.length() && s.charAt(pos) == ')';
            } catch (Outside notAList) {
                list = false;
            }
        }
        if (!list) {
            pos = mark;
            items.clear();
            items.add(item());
        }
        expect(')');
        SubsetExpr[] exprs = new SubsetExpr[items.size()];
        String[] wildcards = new String[items.size()];
        for (int i = 0; i < exprs.length; i++) {
            if (items.get(i) instanceof Wildcard w) {
                wildcards[i] = w.map;
            } else {
                exprs[i] = items.get(i);
            }
        }
        return new SubsetExpr.Aggregate(max, exprs, wildcards);
    }

    private SubsetExpr item() throws Outside {
        skipSpace();
        int mark = pos;
        if (s.startsWith("$" + ChartCompiler.PLATFORM, pos)) {
            pos += 1 + ChartCompiler.PLATFORM.length();
            if (pos >= s.length() || !isNameChar(s.charAt(pos))) {
                skipSpace();
                SubsetExpr w = platform(true);
                if (w instanceof Wildcard) {
                    skipSpace();
                    if (pos < s.length() && (s.charAt(pos) == ',' || s.charAt(pos) == ')')) {
                        return w;
                    }
                    throw new Outside();
                }
            }
            pos = mark;
        }
        return or();
    }

    private SubsetExpr call(String name) throws Outside {
        if ("max".equals(name) || "min".equals(name)) {
            expect('(');
            return aggregate("max".equals(name));
        }
        expect('(');
        SubsetExpr.HistoryCall.Kind kind = reads == null ? null : switch (name) {
            case "exists" -> SubsetExpr.HistoryCall.Kind.EXISTS;
            case "empty" -> SubsetExpr.HistoryCall.Kind.EMPTY;
            case "count" -> SubsetExpr.HistoryCall.Kind.COUNT;
            case "string" -> SubsetExpr.HistoryCall.Kind.STRING;
            case "number" -> SubsetExpr.HistoryCall.Kind.NUMBER;
            default -> null;
        };
        if (kind != null) {
            SubsetExpr h = historyCall(kind);
            if (h != null) {
                return h;
            }
        }
        List<SubsetExpr> args = new ArrayList<>();
        skipSpace();
        if (pos < s.length() && s.charAt(pos) == ')') {
            pos++;
        } else if ("In".equals(name)) {
            skipSpace();
            if (pos >= s.length() || (s.charAt(pos) != '\'' && s.charAt(pos) != '"')) {
                throw new Outside();
            }
            String id = string();
            expect(')');
            return new SubsetExpr.In(id);
        } else {
            args.add(or());
            while (true) {
                skipSpace();
                if (pos < s.length() && s.charAt(pos) == ',') {
                    pos++;
                    args.add(or());
                } else {
                    expect(')');
                    break;
                }
            }
        }
        int n = args.size();
        SubsetExpr.Fn fn = switch (name) {
            case "true" -> n == 0 ? SubsetExpr.Fn.TRUE : null;
            case "false" -> n == 0 ? SubsetExpr.Fn.FALSE : null;
            case "not" -> n == 1 ? SubsetExpr.Fn.NOT : null;
            case "string" -> n == 1 ? SubsetExpr.Fn.STRING : null;
            case "number" -> n == 1 ? SubsetExpr.Fn.NUMBER : null;
            case "ceiling" -> n == 1 ? SubsetExpr.Fn.CEILING : null;
            case "string-length" -> n == 1 ? SubsetExpr.Fn.STRING_LENGTH : null;
            case "concat" -> n >= 2 ? SubsetExpr.Fn.CONCAT : null;
            default -> null;
        };
        if (fn == null) {
            throw new Outside();
        }
        return new SubsetExpr.Call(fn, args.toArray(new SubsetExpr[0]));
    }

    // ---- tokens ---------------------------------------------------------------------------------

    private SubsetExpr number() throws Outside {
        int start = pos;
        while (pos < s.length() && isDigit(s.charAt(pos))) {
            pos++;
        }
        boolean decimal = false;
        if (pos < s.length() && s.charAt(pos) == '.') {
            decimal = true;
            pos++;
            while (pos < s.length() && isDigit(s.charAt(pos))) {
                pos++;
            }
        }
        String digits = s.substring(start, pos);
        if (digits.equals(".")) {
            throw new Outside(); // the context item
        }
        boolean exponent = false;
        if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
            exponent = true;
            pos++;
            if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
                pos++;
            }
            int e = pos;
            while (pos < s.length() && isDigit(s.charAt(pos))) {
                pos++;
            }
            if (e == pos) {
                throw new Outside();
            }
        }
        // XPath forbids a name or a dot straight after a numeric literal
        if (pos < s.length() && (isNameStart(s.charAt(pos)) || s.charAt(pos) == '.' || s.charAt(pos) > 127)) {
            throw new Outside();
        }
        String literal = s.substring(start, pos);
        if (exponent) {
            return new SubsetExpr.Literal(Double.parseDouble(literal));
        }
        if (decimal) {
            return new SubsetExpr.Literal(new BigDecimal(literal.endsWith(".") ? literal + "0" : literal));
        }
        try {
            return new SubsetExpr.Literal(Long.parseLong(literal));
        } catch (NumberFormatException beyondLong) {
            throw new Outside();
        }
    }

    private String string() throws Outside {
        char q = s.charAt(pos++);
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= s.length()) {
                throw new Outside();
            }
            char c = s.charAt(pos++);
            if (c == q) {
                if (pos < s.length() && s.charAt(pos) == q) {
                    sb.append(q); // a doubled quote stands for one
                    pos++;
                } else {
                    return sb.toString();
                }
            } else {
                sb.append(c);
            }
        }
    }

    /** An ASCII NCName at the cursor, or {@code null}; a non-ASCII name leaves the subset. */
    private String name() throws Outside {
        if (pos >= s.length() || !isNameStart(s.charAt(pos))) {
            if (pos < s.length() && s.charAt(pos) > 127) {
                throw new Outside();
            }
            return null;
        }
        int start = pos;
        while (pos < s.length() && isNameChar(s.charAt(pos))) {
            pos++;
        }
        if (pos < s.length() && (s.charAt(pos) > 127 || s.charAt(pos) == ':')) {
            throw new Outside(); // a non-ASCII name, a prefixed name or an axis
        }
        return s.substring(start, pos);
    }

    /** Consumes {@code word} when it stands at the cursor as a whole name. */
    private boolean keyword(String word) {
        skipSpace();
        if (!s.startsWith(word, pos)) {
            return false;
        }
        int end = pos + word.length();
        if (end < s.length() && (isNameChar(s.charAt(end)) || s.charAt(end) > 127)) {
            return false;
        }
        pos = end;
        return true;
    }

    private void expect(char c) throws Outside {
        skipSpace();
        if (pos >= s.length() || s.charAt(pos) != c) {
            throw new Outside();
        }
        pos++;
    }

    private void skipSpace() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                return;
            }
            pos++;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isNameStart(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    }

    private static boolean isNameChar(char c) {
        return isNameStart(c) || isDigit(c) || c == '-' || c == '.';
    }
}
