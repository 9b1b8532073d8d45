package io.statecast.messagestore.chart;

import io.statecast.messagestore.event.CompiledExpression;
import java.math.BigDecimal;
import java.math.BigInteger;
import net.sf.saxon.str.StringView;
import net.sf.saxon.type.StringToDouble;
import net.sf.saxon.value.BigDecimalValue;
import net.sf.saxon.value.DoubleValue;

/**
 * An expression of the XPath subset that {@link SubsetCompiler} compiles, as a tree of small
 * evaluators over the datamodel's variables; an {@link Expr} of the subset carries one beside
 * Saxon's compiled form. Evaluation follows XPath 3.1 with the datamodel's typing: every variable
 * is a node whose atomized value is {@code xs:untypedAtomic}.
 *
 * <p>Values while evaluating: {@code null} (the empty sequence), {@link Long} ({@code xs:integer}),
 * {@link BigDecimal} ({@code xs:decimal}), {@link Double} ({@code xs:double}), {@link String}
 * ({@code xs:string}), {@link Boolean} ({@code xs:boolean}) and {@link Untyped}
 * ({@code xs:untypedAtomic}).
 *
 * <p>What the subset cannot settle exactly (an integer overflow, a non-terminating decimal
 * quotient, a variable bound by {@code <foreach>}, a variable of several text nodes) throws
 * {@link Fallback}: the caller evaluates the expression with Saxon instead.
 */
abstract class SubsetExpr {

    /** The datamodel as the subset reads it. */
    interface Scope {
        /** {@code $name} atomized: {@code null} when unbound, else its string value as {@link Untyped}. */
        Untyped atomized(String name) throws Fallback;

        /** Whether {@code $name} is bound to a node (its effective boolean value). */
        boolean bound(String name) throws Fallback;

        /** {@code $name/text()} atomized: {@code null} when it has no text node. */
        Untyped text(String name) throws Fallback;

        /** {@code In(id)}. */
        boolean inState(String id);

        /** The configuration's {@code xs:string → xs:double} rules. */
        StringToDouble toDouble();

        /**
         * {@code $_x?key}: {@code null} when absent, else a {@link Long}, {@link Double} or
         * {@link String}; an entry that is not one atomic value (a map, a sequence, a node) throws
         * {@link Fallback}.
         */
        Object platform(String key) throws Fallback;

        /**
         * {@code $_x?map?(key)} for a string key: {@code null} when the map has no such key, else
         * the entry as for {@link #platform}; {@link Fallback} when {@code $_x?map} is not a map.
         */
        Object platformLookup(String map, String key) throws Fallback;

        /** {@code $_x?map?*}: the map's values, each as for {@link #platform}; {@link Fallback} when not a map. */
        Object[] platformValues(String map) throws Fallback;

        /**
         * The items of {@code call}'s read of the instance's history, atomized
         * ({@link CompiledExpression#atomized}); {@link Fallback} when the host cannot answer it
         * (no history, or an evaluation error, which Saxon then reports).
         */
        java.util.List<Object> historyItems(HistoryCall call) throws Fallback;
    }

    /** The subset cannot settle this evaluation exactly; Saxon must. Immutable: no stack, no suppression. */
    static final class Fallback extends Exception {
        private static final long serialVersionUID = 1L;
        static final Fallback INSTANCE = new Fallback();

        private Fallback() {
            super("outside the subset", null, false, false);
        }
    }

    /** A dynamic error of XPath, with its error code. */
    static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        Failure(String code, String message) {
            super(code + ": " + message);
        }
    }

    /**
     * An {@code xs:untypedAtomic}: the string value of a variable. A value assigned from the
     * subset keeps the Java value it was computed as ({@code typed}) so that reading it back as a
     * number skips formatting and parsing; its string is made when first asked for.
     */
    static final class Untyped {
        /** The assigned value, or {@code null} when the text came from the document. */
        final Object typed;
        /** Whether the variable holds a text node (false for an empty sequence assigned). */
        final boolean hasText;
        private String text;

        Untyped(String text) {
            this.typed = null;
            this.text = text;
            this.hasText = true;
        }

        /** The value an assignment of {@code value} leaves: {@code null} is the empty sequence. */
        static Untyped of(Object value) {
            return new Untyped(value);
        }

        private Untyped(Object value) {
            this.typed = value;
            this.hasText = value != null;
            this.text = value == null ? "" : null;
        }

        String text() {
            if (text == null) {
                text = stringOf(typed);
            }
            return text;
        }

        /** Cast to {@code xs:double} (XPath: an untypedAtomic operand of arithmetic or a numeric comparison). */
        double toDouble(Scope s) throws Failure {
            if (typed instanceof Double d) {
                return d;
            }
            if (typed instanceof Long l) {
                return l;
            }
            try {
                return parse(s, text());
            } catch (NumberFormatException e) {
                throw new Failure("FORG0001", "cannot convert '" + text() + "' to xs:double");
            }
        }
    }

    // ---- the tree -----------------------------------------------------------------------------

    /** The value: {@code null} for the empty sequence, else one atomic value. */
    abstract Object value(Scope s) throws Failure, Fallback;

    /** The effective boolean value. */
    boolean ebv(Scope s) throws Failure, Fallback {
        return ebvOf(value(s));
    }

    /** Whether the value is a node (the variable itself or its text), not an atomic value. */
    boolean yieldsNode() {
        return false;
    }

    /** The variable's name when this is a bare {@code $name}, else {@code null}. */
    String variableName() {
        return null;
    }

    /** The string value of the result (what {@code <log>} shows). */
    final String string(Scope s) throws Failure, Fallback {
        Object v = value(s);
        return v == null ? "" : stringOf(v);
    }

    static final class Literal extends SubsetExpr {
        private final Object value;

        Literal(Object value) {
            this.value = value;
        }

        @Override
        Object value(Scope s) {
            return value;
        }
    }

    static final class Var extends SubsetExpr {
        private final String name;

        Var(String name) {
            this.name = name;
        }

        @Override
        Object value(Scope s) throws Fallback {
            return s.atomized(name);
        }

        @Override
        boolean ebv(Scope s) throws Fallback {
            return s.bound(name);
        }

        @Override
        boolean yieldsNode() {
            return true;
        }

        @Override
        String variableName() {
            return name;
        }
    }

    static final class Text extends SubsetExpr {
        private final String name;

        Text(String name) {
            this.name = name;
        }

        @Override
        Object value(Scope s) throws Fallback {
            return s.text(name);
        }

        @Override
        boolean ebv(Scope s) throws Fallback {
            return s.text(name) != null;
        }

        @Override
        boolean yieldsNode() {
            return true;
        }
    }

    /**
     * {@code or} and {@code and}, short-circuiting. An operand that fails makes the whole
     * expression fail: the caller then asks Saxon, whose order of evaluation decides (XPath lets
     * either operand go first).
     */
    static final class Logical extends SubsetExpr {
        private final SubsetExpr a;
        private final SubsetExpr b;
        private final boolean or;

        Logical(SubsetExpr a, SubsetExpr b, boolean or) {
            this.a = a;
            this.b = b;
            this.or = or;
        }

        @Override
        Object value(Scope s) throws Failure, Fallback {
            return ebv(s);
        }

        @Override
        boolean ebv(Scope s) throws Failure, Fallback {
            boolean left = a.ebv(s);
            return left == or ? left : b.ebv(s);
        }
    }

    static final class Not extends SubsetExpr {
        private final SubsetExpr a;

        Not(SubsetExpr a) {
            this.a = a;
        }

        @Override
        Object value(Scope s) throws Failure, Fallback {
            return !a.ebv(s);
        }
    }

    /** The six general comparisons. */
    enum Cmp { EQ, NE, LT, LE, GT, GE }

    static final class Compare extends SubsetExpr {
        private final Cmp op;
        private final SubsetExpr a;
        private final SubsetExpr b;

        Compare(Cmp op, SubsetExpr a, SubsetExpr b) {
            this.op = op;
            this.a = a;
            this.b = b;
        }

        @Override
        Object value(Scope s) throws Failure, Fallback {
            return ebv(s);
        }

        @Override
        boolean ebv(Scope s) throws Failure, Fallback {
            Object x = a.value(s);
            Object y = b.value(s);
            if (x == null || y == null) {
                return false;
            }
            if ((x instanceof Untyped && y instanceof Double d && nanOrNegativeZero(d))
                    || (y instanceof Untyped && x instanceof Double e && nanOrNegativeZero(e))) {
                throw Fallback.INSTANCE; // see below: Saxon's own order, and it may skip the cast
            }
            // general comparison: an untypedAtomic takes the other operand's type (string when both are untyped)
            if (x instanceof Untyped ux) {
                x = y instanceof Untyped || y instanceof String ? ux.text()
                        : isNumeric(y) ? (Object) ux.toDouble(s)
                        : y instanceof Boolean ? (Object) toBoolean(ux) : ux.text();
            }
            if (y instanceof Untyped uy) {
                y = x instanceof String ? uy.text()
                        : isNumeric(x) ? (Object) uy.toDouble(s)
                        : x instanceof Boolean ? (Object) toBoolean(uy) : uy.text();
            }
            if (x instanceof Double || y instanceof Double) {
                if (!isNumeric(x) || !isNumeric(y)) {
                    throw incomparable(x, y);
                }
                double p = toDoubleNumeric(x);
                double q = toDoubleNumeric(y);
                if (nanOrNegativeZero(p) || nanOrNegativeZero(q)) {
                    // Saxon orders a NaN or negative zero read from text its own way (NaN above
                    // every number, -0 below 0 except against an integer): it decides those
                    throw Fallback.INSTANCE;
                }
                return switch (op) {
                    case EQ -> p == q;
                    case NE -> p != q;
                    case LT -> p < q;
                    case LE -> p <= q;
                    case GT -> p > q;
                    case GE -> p >= q;
                };
            }
            int c;
            if (isNumeric(x) && isNumeric(y)) {
                c = x instanceof Long l && y instanceof Long m ? Long.compare(l, m) : decimal(x).compareTo(decimal(y));
            } else if (x instanceof String p && y instanceof String q) {
                c = compareCodepoints(p, q);
            } else if (x instanceof Boolean p && y instanceof Boolean q) {
                c = Boolean.compare(p, q);
            } else {
                throw incomparable(x, y);
            }
            return switch (op) {
                case EQ -> c == 0;
                case NE -> c != 0;
                case LT -> c < 0;
                case LE -> c <= 0;
                case GT -> c > 0;
                case GE -> c >= 0;
            };
        }

        private static Failure incomparable(Object x, Object y) {
            return new Failure("XPTY0004", "cannot compare " + typeName(x) + " with " + typeName(y));
        }
    }

    /** The arithmetic operators. */
    enum Op { ADD, SUB, MUL, DIV, IDIV, MOD }

    static final class Arith extends SubsetExpr {
        private final Op op;
        private final SubsetExpr a;
        private final SubsetExpr b;

        Arith(Op op, SubsetExpr a, SubsetExpr b) {
            this.op = op;
            this.a = a;
            this.b = b;
        }

        @Override
        Object value(Scope s) throws Failure, Fallback {
            Object x = a.value(s);
            if (x == null) {
                // as Saxon does: an empty left operand decides without the right one
                return null;
            }
            // an untypedAtomic operand converts as it is read; operand types are checked once both
            // are known to be non-empty, as in Saxon
            x = untypedToDouble(x, s);
            Object y = untypedToDouble(b.value(s), s);
            if (y == null) {
                return null;
            }
            x = numeric(x, s);
            y = numeric(y, s);
            if (x instanceof Double || y instanceof Double) {
                double p = toDoubleNumeric(x);
                double q = toDoubleNumeric(y);
                return switch (op) {
                    case ADD -> p + q;
                    case SUB -> p - q;
                    case MUL -> p * q;
                    case DIV -> p / q;
                    case MOD -> p % q;
                    case IDIV -> throw Fallback.INSTANCE;
                };
            }
            if (x instanceof Long l && y instanceof Long m) {
                try {
                    return switch (op) {
                        case ADD -> Math.addExact(l, m);
                        case SUB -> Math.subtractExact(l, m);
                        case MUL -> Math.multiplyExact(l, m);
                        case DIV -> divide(BigDecimal.valueOf(l), BigDecimal.valueOf(m));
                        case MOD -> {
                            zero(m == 0);
                            yield l % m;
                        }
                        case IDIV -> {
                            zero(m == 0);
                            if (l == Long.MIN_VALUE && m == -1) {
                                throw Fallback.INSTANCE;
                            }
                            yield l / m;
                        }
                    };
                } catch (ArithmeticException overflow) {
                    // xs:integer is unbounded: Saxon carries on in BigInteger
                    throw Fallback.INSTANCE;
                }
            }
            BigDecimal p = decimal(x);
            BigDecimal q = decimal(y);
            return switch (op) {
                case ADD -> p.add(q);
                case SUB -> p.subtract(q);
                case MUL -> p.multiply(q);
                case DIV -> divide(p, q);
                case MOD -> {
                    zero(q.signum() == 0);
                    yield p.remainder(q);
                }
                case IDIV -> {
                    zero(q.signum() == 0);
                    BigInteger i = p.divideToIntegralValue(q).toBigInteger();
                    if (i.bitLength() > 63) {
                        throw Fallback.INSTANCE;
                    }
                    yield i.longValue();
                }
            };
        }

        private static void zero(boolean divisorIsZero) throws Failure {
            if (divisorIsZero) {
                throw new Failure("FOAR0001", "division by zero");
            }
        }

        /**
         * An exact decimal quotient of at most 18 fractional digits; a longer or non-terminating
         * one is rounded by Saxon's own rules, so Saxon computes it.
         */
        private static BigDecimal divide(BigDecimal p, BigDecimal q) throws Failure, Fallback {
            if (q.signum() == 0) {
                throw new Failure("FOAR0001", "division by zero");
            }
            try {
                BigDecimal r = p.divide(q);
                if (r.scale() > 18) {
                    throw Fallback.INSTANCE;
                }
                return r;
            } catch (ArithmeticException nonTerminating) {
                throw Fallback.INSTANCE;
            }
        }
    }

    /** Unary minus or plus: an untypedAtomic operand becomes {@code xs:double}. */
    static final class Sign extends SubsetExpr {
        private final boolean negate;
        private final SubsetExpr a;

        Sign(boolean negate, SubsetExpr a) {
            this.negate = negate;
            this.a = a;
        }

        @Override
        Object value(Scope s) throws Failure, Fallback {
            Object x = a.value(s);
            if (x == null) {
                return null;
            }
            x = numeric(x, s);
            if (!negate) {
                return x;
            }
            if (x instanceof Long l) {
                if (l == Long.MIN_VALUE) {
                    throw Fallback.INSTANCE;
                }
                return -l;
            }
            if (x instanceof BigDecimal d) {
                return d.negate();
            }
            return -(Double) x;
        }
    }

    /** The subset's functions of the standard library. */
    enum Fn { TRUE, FALSE, NOT, STRING, NUMBER, CONCAT, STRING_LENGTH, CEILING }

    static final class Call extends SubsetExpr {
        private final Fn fn;
        private final SubsetExpr[] args;

        Call(Fn fn, SubsetExpr[] args) {
            this.fn = fn;
            this.args = args;
        }

        @Override
        Object value(Scope s) throws Failure, Fallback {
            switch (fn) {
                case TRUE:
                    return Boolean.TRUE;
                case FALSE:
                    return Boolean.FALSE;
                case NOT:
                    return !args[0].ebv(s);
                case STRING:
                    return args[0].string(s);
                case STRING_LENGTH:
                    // the argument is xs:string?: an untypedAtomic casts, a number or boolean is a type error
                    Object v = args[0].value(s);
                    if (v != null && !(v instanceof String) && !(v instanceof Untyped)) {
                        throw new Failure("XPTY0004", "string-length() of " + typeName(v));
                    }
                    String t = v == null ? "" : stringOf(v);
                    return (long) t.codePointCount(0, t.length());
                case CONCAT:
                    StringBuilder sb = new StringBuilder();
                    for (SubsetExpr e : args) {
                        sb.append(e.string(s));
                    }
                    return sb.toString();
                case NUMBER:
                    return number(args[0].value(s), s);
                case CEILING:
                    return ceiling(args[0].value(s), s);
                default:
                    throw new IllegalStateException();
            }
        }

        /** {@code fn:ceiling}: of the argument's numeric type (untyped as a double); NaN and zeros to Saxon. */
        private static Object ceiling(Object v, Scope s) throws Failure, Fallback {
            Object n = v instanceof Untyped u ? (Object) u.toDouble(s) : v;
            if (n == null || n instanceof Long) {
                return n;
            }
            if (n instanceof BigDecimal d) {
                return d.setScale(0, java.math.RoundingMode.CEILING);
            }
            if (n instanceof Double d) {
                double c = Math.ceil(d);
                if (Double.isNaN(c) || c == 0) {
                    throw Fallback.INSTANCE; // which zero, and NaN: Saxon's call
                }
                return c;
            }
            throw Fallback.INSTANCE; // a string or boolean: a type error, Saxon's message
        }

        static Double number(Object v, Scope s) {
            if (v == null) {
                return Double.NaN;
            }
            if (v instanceof Double d) {
                return d;
            }
            if (v instanceof Long l) {
                return (double) l;
            }
            if (v instanceof BigDecimal d) {
                return d.doubleValue();
            }
            if (v instanceof Boolean b) {
                return b ? 1.0 : 0.0;
            }
            if (v instanceof Untyped u && (u.typed instanceof Double || u.typed instanceof Long)) {
                return toDoubleNumeric(u.typed);
            }
            String text = v instanceof Untyped u ? u.text() : (String) v;
            try {
                return parse(s, text);
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }
    }

    /**
     * {@code exists}, {@code empty}, {@code count}, {@code string}, {@code number} or
     * {@code xs:integer} of an expression that reads the instance's history through
     * {@code $_x?history/…}: the expression itself runs as the history's compiled subset
     * ({@link CompiledExpression}, over the entries, no document), this node reduces its items.
     */
    static final class HistoryCall extends SubsetExpr {
        enum Kind { EXISTS, EMPTY, COUNT, STRING, NUMBER, INTEGER }

        final Kind kind;
        /** The argument, {@code $_x?history} read as the history's document node. */
        final CompiledExpression read;
        /** The datamodel variables {@link #read} names, by the index it reads them with. */
        final java.util.List<String> dataIds;

        HistoryCall(Kind kind, CompiledExpression read, java.util.List<String> dataIds) {
            this.kind = kind;
            this.read = read;
            this.dataIds = dataIds;
        }

        @Override
        Object value(Scope s) throws Failure, Fallback {
            java.util.List<Object> items = s.historyItems(this);
            switch (kind) {
                case EXISTS:
                    return !items.isEmpty();
                case EMPTY:
                    return items.isEmpty();
                case COUNT:
                    return (long) items.size();
                default:
                    break;
            }
            if (items.size() > 1) {
                throw Fallback.INSTANCE; // a sequence where one item is allowed: Saxon's type error
            }
            Object v = items.isEmpty() ? null : items.get(0) instanceof CompiledExpression.Untyped u
                    ? new Untyped(u.text()) : items.get(0);
            switch (kind) {
                case STRING:
                    return v == null ? "" : stringOf(v);
                case NUMBER:
                    return Call.number(v, s);
                default:
                    return integer(v);
            }
        }

        /** {@code xs:integer(v)} of a whole number written in decimal; anything else is Saxon's to cast or refuse. */
        private static Long integer(Object v) throws Fallback {
            if (v == null) {
                return null;
            }
            if (v instanceof Long l) {
                return l;
            }
            if (!(v instanceof Untyped || v instanceof String)) {
                throw Fallback.INSTANCE;
            }
            String t = stringOf(v);
            int from = 0;
            int to = t.length();
            while (from < to && isXmlSpace(t.charAt(from))) {
                from++;
            }
            while (to > from && isXmlSpace(t.charAt(to - 1))) {
                to--;
            }
            int digits = from < to && (t.charAt(from) == '+' || t.charAt(from) == '-') ? from + 1 : from;
            if (digits == to || to - digits > 18) {
                throw Fallback.INSTANCE; // not a number, or too long for a long: Saxon's error or BigInteger
            }
            for (int i = digits; i < to; i++) {
                if (t.charAt(i) < '0' || t.charAt(i) > '9') {
                    throw Fallback.INSTANCE;
                }
            }
            return Long.parseLong(t, from, to, 10);
        }

        private static boolean isXmlSpace(char c) {
            return c == ' ' || c == '\t' || c == '\r' || c == '\n';
        }
    }

    /** {@code $_x?key}: one of the platform's entries. */
    static final class PlatformEntry extends SubsetExpr {
        private final String key;

        PlatformEntry(String key) {
            this.key = key;
        }

        @Override
        Object value(Scope s) throws Fallback {
            return s.platform(key);
        }
    }

    /**
     * {@code $_x?map?(key)}: a lookup in one of the platform's maps (keyed by strings). An empty
     * key is the empty sequence; a key that is not a string or untyped value goes to Saxon.
     */
    static final class PlatformLookup extends SubsetExpr {
        private final String map;
        private final SubsetExpr key;

        PlatformLookup(String map, SubsetExpr key) {
            this.map = map;
            this.key = key;
        }

        @Override
        Object value(Scope s) throws Failure, Fallback {
            Object k = key.value(s);
            if (k == null) {
                s.platformValues(map); // still a type error when $_x?map is not a map: Saxon's call
                return null;
            }
            if (k instanceof String text) {
                return s.platformLookup(map, text);
            }
            if (k instanceof Untyped u) {
                return s.platformLookup(map, u.text());
            }
            throw Fallback.INSTANCE;
        }
    }

    /**
     * {@code max(…)} and {@code min(…)} over numbers: the items of a parenthesised list (each an
     * expression of the subset, or {@code $_x?map?*}). Untyped values become doubles, as XPath's
     * {@code fn:max} casts them; the result has the items' common numeric type. Strings,
     * booleans, NaN and negative zero go to Saxon.
     */
    static final class Aggregate extends SubsetExpr {
        private final boolean max;
        private final SubsetExpr[] items;
        /** For each item, the map whose values it is ({@code $_x?map?*}), or {@code null} for {@code items[i]}. */
        private final String[] wildcards;

        Aggregate(boolean max, SubsetExpr[] items, String[] wildcards) {
            this.max = max;
            this.items = items;
            this.wildcards = wildcards;
        }

        @Override
        Object value(Scope s) throws Failure, Fallback {
            Object best = null;
            boolean anyDouble = false;
            boolean anyDecimal = false;
            for (int i = 0; i < items.length; i++) {
                if (wildcards[i] != null) {
                    for (Object v : s.platformValues(wildcards[i])) {
                        Object n = item(v, s);
                        anyDouble |= n instanceof Double;
                        anyDecimal |= n instanceof BigDecimal;
                        best = better(best, n);
                    }
                } else {
                    Object v = items[i].value(s);
                    if (v != null) {
                        Object n = item(v, s);
                        anyDouble |= n instanceof Double;
                        anyDecimal |= n instanceof BigDecimal;
                        best = better(best, n);
                    }
                }
            }
            if (best == null) {
                return null;
            }
            if (anyDouble) {
                return toDoubleNumeric(best);
            }
            return anyDecimal ? decimal(best) : best;
        }

        private static Object item(Object v, Scope s) throws Failure, Fallback {
            Object n = v instanceof Untyped u ? (Object) u.toDouble(s) : v;
            if (!isNumeric(n)) {
                throw Fallback.INSTANCE;
            }
            if (n instanceof Double d && (nanOrNegativeZero(d) || d == 0)) {
                throw Fallback.INSTANCE; // NaN, and which zero wins: Saxon's call
            }
            return n;
        }

        private Object better(Object best, Object n) {
            if (best == null) {
                return n;
            }
            int c;
            if (best instanceof Double || n instanceof Double) {
                c = Double.compare(toDoubleNumeric(n), toDoubleNumeric(best));
            } else if (best instanceof Long a && n instanceof Long b) {
                c = Long.compare(b, a);
            } else {
                c = decimal(n).compareTo(decimal(best));
            }
            return (max ? c > 0 : c < 0) ? n : best;
        }
    }

    static final class In extends SubsetExpr {
        private final String id;

        In(String id) {
            this.id = id;
        }

        @Override
        Object value(Scope s) {
            return s.inState(id);
        }
    }

    // ---- values ---------------------------------------------------------------------------------

    /** The XPath string value of an atomic value (canonical forms, as Saxon writes them). */
    static String stringOf(Object v) {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof Untyped u) {
            return u.text();
        }
        if (v instanceof Long l) {
            return Long.toString(l);
        }
        if (v instanceof Double d) {
            return DoubleValue.makeDoubleValue(d).getStringValue();
        }
        if (v instanceof BigDecimal d) {
            return new BigDecimalValue(d).getStringValue();
        }
        if (v instanceof Boolean b) {
            return b ? "true" : "false";
        }
        throw new IllegalArgumentException(String.valueOf(v));
    }

    static boolean ebvOf(Object v) {
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof String s) {
            return !s.isEmpty();
        }
        if (v instanceof Untyped u) {
            return !u.text().isEmpty();
        }
        if (v instanceof Long l) {
            return l != 0;
        }
        if (v instanceof BigDecimal d) {
            return d.signum() != 0;
        }
        double d = (Double) v;
        return d != 0 && !Double.isNaN(d);
    }

    private static double parse(Scope s, String text) {
        return s.toDouble().stringToNumber(StringView.of(text));
    }

    private static boolean isNumeric(Object v) {
        return v instanceof Long || v instanceof Double || v instanceof BigDecimal;
    }

    /** An arithmetic operand: untypedAtomic becomes xs:double; strings and booleans are type errors. */
    private static Object numeric(Object v, Scope s) throws Failure {
        if (v == null || isNumeric(v)) {
            return v;
        }
        if (v instanceof Untyped u) {
            return u.toDouble(s);
        }
        throw new Failure("XPTY0004", "arithmetic on " + typeName(v));
    }

    private static boolean nanOrNegativeZero(double d) {
        return Double.isNaN(d) || Double.doubleToRawLongBits(d) == Long.MIN_VALUE;
    }

    private static Object untypedToDouble(Object v, Scope s) throws Failure {
        return v instanceof Untyped u ? (Object) u.toDouble(s) : v;
    }

    private static double toDoubleNumeric(Object v) {
        if (v instanceof Double d) {
            return d;
        }
        if (v instanceof Long l) {
            return l;
        }
        return ((BigDecimal) v).doubleValue();
    }

    private static BigDecimal decimal(Object v) {
        return v instanceof Long l ? BigDecimal.valueOf(l) : (BigDecimal) v;
    }

    private static boolean toBoolean(Untyped u) throws Failure {
        String t = u.text().strip();
        return switch (t) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw new Failure("FORG0001", "cannot convert '" + u.text() + "' to xs:boolean");
        };
    }

    /** Compares by Unicode code point, as the default collation does (not by UTF-16 unit). */
    private static int compareCodepoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int p = a.codePointAt(i);
            int q = b.codePointAt(j);
            if (p != q) {
                return Integer.compare(p, q);
            }
            i += Character.charCount(p);
            j += Character.charCount(q);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    private static String typeName(Object v) {
        return v instanceof String ? "xs:string" : v instanceof Boolean ? "xs:boolean"
                : v instanceof Long ? "xs:integer" : v instanceof BigDecimal ? "xs:decimal"
                : v instanceof Double ? "xs:double" : "xs:untypedAtomic";
    }
}
