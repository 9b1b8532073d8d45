package io.statecast.messagestore.event;

import io.statecast.overlay.address.LogicalAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The evaluator objects a compiled subset expression is made of ({@link SubsetParser} builds the
 * tree, {@link CompiledExpression} runs it). A value is a sequence, a {@code List<Object>} whose
 * items are {@link HistoryItem} nodes, {@link DatamodelItem} nodes (a datamodel variable's
 * {@code <data>} element), {@code String} ({@code xs:string}), {@code Long} ({@code xs:integer})
 * or {@code Boolean}. Node values are untyped atomic, as in the history document. Semantics
 * follow XPath 3.1 (general comparisons, effective boolean value, predicates, document order); a
 * test compares every construct with Saxon on random histories and datamodel values.
 */
final class SubsetEval {

    private SubsetEval() {
    }

    /** A dynamic error (XPath's err:XPTY0004, FORG0001, FORG0006, XPDY0002, …): the evaluation fails as Saxon's would. */
    static final class DynamicError extends Exception {
        private static final long serialVersionUID = 1L;
        /** The evaluation ran out of steps ({@link Ctx#tick}): the expression must not run again. */
        final boolean fatal;

        DynamicError(String message) {
            this(message, false);
        }

        DynamicError(String message, boolean fatal) {
            super(message, null, false, false);
            this.fatal = fatal;
        }
    }

    private static final Object[] NO_VARS = new Object[0];
    static final List<Object> TRUE = List.of(Boolean.TRUE);
    static final List<Object> FALSE = List.of(Boolean.FALSE);
    private static final List<Object>[] SMALL_INTEGERS = smallIntegers();

    @SuppressWarnings("unchecked")
    private static List<Object>[] smallIntegers() {
        List<Object>[] out = new List[64];
        for (int i = 0; i < out.length; i++) {
            out[i] = List.of((long) i);
        }
        return out;
    }

    /** The sequence of one boolean, without a new list. */
    static List<Object> bool(boolean b) {
        return b ? TRUE : FALSE;
    }

    /** The sequence of one integer; counts and positions below 64 without a new list. */
    static List<Object> integer(long n) {
        return n >= 0 && n < SMALL_INTEGERS.length ? SMALL_INTEGERS[(int) n] : List.of(n);
    }

    /** The sequence of one item: a node is its own sequence (no list made). */
    static List<Object> one(Object x) {
        return x instanceof HistoryItem h ? h : x instanceof DatamodelItem d ? d : List.of(x);
    }

    /** Whether {@code x} is a node: of the history, or a datamodel variable's element. */
    private static boolean isNode(Object x) {
        return x instanceof HistoryItem || x instanceof DatamodelItem;
    }

    /** A spare context per thread: an evaluation then allocates no context of its own. */
    private static final ThreadLocal<Ctx[]> SPARE = ThreadLocal.withInitial(() -> new Ctx[1]);

    /** The state of one evaluation: the history, variable slots, the focus and the steps left. */
    static final class Ctx implements AutoCloseable {
        History history;
        QueryBindings bindings;
        /** The instance's datamodel variables ({@link DataRef}). */
        DatamodelValues data;
        Object[] vars;
        Object item;
        int position;
        int last;
        private long stepsLeft;
        private int slots;
        /** Where {@link #close} returns this context for the thread's next evaluation, null if not pooled. */
        private Ctx[] home;
        /**
         * The node a path is at between two steps that each select one node ({@link Path#eval}):
         * written over at each such step instead of making an item; never part of a value.
         */
        final HistoryItem scratch = new HistoryItem(null, -1, HistoryItem.DOCUMENT, 0);
        /**
         * Set by the caller of the outermost {@link Path} that reads its one-node result before any
         * other evaluation: that path may then return {@link #scratch} itself. Consumed on entry.
         */
        boolean lend;
        /** Per variable slot, the item a {@link Let} keeps its one node in (see {@link Let#ownItem}). */
        private HistoryItem[] slotItems = new HistoryItem[0];

        /** Slot {@code slot}'s own item, made to be the node {@code n}. */
        HistoryItem slotItem(int slot, HistoryItem n) {
            if (slotItems.length <= slot) {
                slotItems = Arrays.copyOf(slotItems, Math.max(slot + 1, vars.length));
            }
            HistoryItem it = slotItems[slot];
            if (it == null) {
                it = slotItems[slot] = n.copy();
                return it;
            }
            it.entry = n.entry;
            it.index = n.index;
            it.kind = n.kind;
            it.sub = n.sub;
            return it;
        }

        Ctx(History history, QueryBindings bindings, DatamodelValues data, int slots) {
            this.vars = NO_VARS;
            reset(history, bindings, data, slots);
        }

        /**
         * A context for one evaluation on this thread: the thread's spare when it is free (a
         * nested evaluation gets a new one). {@link #close} it when the value has been read.
         */
        static Ctx open(History history, QueryBindings bindings, DatamodelValues data, int slots) {
            Ctx[] spare = SPARE.get();
            Ctx c = spare[0];
            if (c == null) {
                c = new Ctx(history, bindings, data, slots);
            } else {
                spare[0] = null;
                c.reset(history, bindings, data, slots);
            }
            c.home = spare;
            return c;
        }

        private void reset(History history, QueryBindings bindings, DatamodelValues data, int slots) {
            this.history = history;
            this.bindings = bindings;
            this.data = data;
            if (vars.length < slots) {
                vars = new Object[slots];
            }
            this.slots = slots;
            this.item = HistoryItem.DOCUMENT_NODE;
            this.position = 1;
            this.last = 1;
            this.stepsLeft = MAX_STEPS;
            this.lend = false;
        }

        /** Drops what the evaluation referenced (no history is kept alive) and makes the context the thread's spare. */
        @Override
        public void close() {
            history = null;
            bindings = null;
            data = null;
            item = null;
            scratch.entry = null;
            for (int i = 0, n = Math.min(slots, slotItems.length); i < n; i++) {
                if (slotItems[i] != null) {
                    slotItems[i].entry = null;
                }
            }
            Arrays.fill(vars, 0, slots, null);
            if (home != null) {
                home[0] = this;
                home = null;
            }
        }

        /**
         * Counts one step of a loop that can nest (a quantifier's item, a comparison's pair, a
         * predicate's item, a node a path step starts from or a descendant walk visits). A
         * single pass over the history takes at most a few steps per entry; only nesting
         * multiplies them, so running out means a runaway expression, stopped here — unlike
         * Saxon, which the watchdog can only abandon.
         */
        void tick() throws DynamicError {
            if (--stepsLeft < 0) {
                throw new DynamicError("evaluation took more than " + MAX_STEPS + " steps", true);
            }
        }

        /** Counts {@code n} steps at once. */
        void charge(long n) throws DynamicError {
            stepsLeft -= n;
            tick();
        }

        /** The string value of {@code n}, counting a step per node it spans (the root's span the whole history). */
        String stringValue(HistoryItem n) throws DynamicError {
            if (n.kind == HistoryItem.DOCUMENT || n.kind == HistoryItem.ROOT) {
                stepsLeft -= history.size() * NODES_PER_ENTRY;
                tick();
            }
            return n.stringValue(history);
        }
    }

    /**
     * Steps one evaluation may take. A million: 30–80 ms warm, up to 250 ms in a cold JVM, on the
     * reference machine (2 shared vCPUs; measured with cubic and whole-document-text expressions
     * over 400 entries) — the order of the run-time limit of Saxon's evaluations
     * ({@code QueryLimits}); a walk over every node of a 1,000-entry history takes about 12,000.
     */
    static final long MAX_STEPS = 1_000_000;
    /** Nodes of an entry's subtree, about: an event with its message and fields, or a node record. */
    private static final long NODES_PER_ENTRY = 12;

    /** An expression. */
    abstract static class Ev {
        abstract List<Object> eval(Ctx c) throws DynamicError;

        /** The effective boolean value. */
        boolean ebv(Ctx c) throws DynamicError {
            return SubsetEval.ebv(eval(c));
        }

        /** Whether the value is always one boolean (a predicate of it is never positional). */
        boolean isBoolean() {
            return false;
        }
    }

    // ------------------------------------------------------------------ lending the scratch item

    /**
     * Whether {@code e} reads and clears {@link Ctx#lend} on entry, so that setting it before
     * {@code e.eval} lends the scratch item to {@code e}'s value alone (set before any other
     * evaluator, the flag could reach a path whose value is then overwritten by another's).
     */
    static boolean takesLend(Ev e) {
        return e instanceof Path || e instanceof If || e instanceof Let;
    }

    /**
     * Whether {@code e}'s value may hold the value of variable {@code slot} (or nodes of it):
     * true where a reference to it is passed through rather than consumed by a comparison,
     * function, quantifier, predicate or path step.
     */
    static boolean mayReturn(Ev e, int slot) {
        if (e instanceof VarRef v) {
            return v.slot == slot;
        }
        if (e instanceof Let l) {
            return mayReturn(l.body, slot) || mayReturn(l.value, slot) && mayReturn(l.body, l.slot);
        }
        if (e instanceof If i) {
            return mayReturn(i.then, slot) || mayReturn(i.otherwise, slot);
        }
        if (e instanceof Concat cc) {
            for (Ev p : cc.parts) {
                if (mayReturn(p, slot)) {
                    return true;
                }
            }
            return false;
        }
        if (e instanceof Filter f) {
            return mayReturn(f.base, slot);
        }
        if (e instanceof Path p) {
            // a step selects other nodes than its input
            return p.steps.length == 0 && mayReturn(p.start, slot);
        }
        if (e instanceof Union u) {
            return mayReturn(u.left, slot) || mayReturn(u.right, slot);
        }
        // literals, parameters, the context item, '/', booleans, counts and comparisons
        return false;
    }

    /**
     * Whether {@code e}'s value may hold a datamodel variable's node ({@link DataRef}, or a
     * variable bound to a value that may). The subset does not navigate such nodes (a path step,
     * predicate or union over one is Saxon's), so the parser refuses those uses.
     */
    static boolean mayReturnData(Ev e) {
        if (e instanceof DataRef) {
            return true;
        }
        if (e instanceof VarRef v) {
            return v.data;
        }
        if (e instanceof Let l) {
            return mayReturnData(l.body);
        }
        if (e instanceof If i) {
            return mayReturnData(i.then) || mayReturnData(i.otherwise);
        }
        if (e instanceof Concat cc) {
            for (Ev p : cc.parts) {
                if (mayReturnData(p)) {
                    return true;
                }
            }
            return false;
        }
        if (e instanceof Filter f) {
            return mayReturnData(f.base);
        }
        if (e instanceof Path p) {
            return p.steps.length == 0 && mayReturnData(p.start);
        }
        if (e instanceof Union u) {
            return mayReturnData(u.left) || mayReturnData(u.right);
        }
        return false;
    }

    // ------------------------------------------------------------------ primaries

    /** A string or integer literal. */
    static final class Literal extends Ev {
        final Object value;
        private final List<Object> list;

        Literal(Object value) {
            this.value = value;
            this.list = List.of(value);
        }

        @Override
        List<Object> eval(Ctx c) {
            return list;
        }
    }

    /** {@code ()}. */
    static final class EmptySeq extends Ev {
        @Override
        List<Object> eval(Ctx c) {
            return List.of();
        }
    }

    /** {@code (a, b, …)}. */
    static final class Concat extends Ev {
        final Ev[] parts;

        Concat(Ev[] parts) {
            this.parts = parts;
        }

        @Override
        List<Object> eval(Ctx c) throws DynamicError {
            List<Object> out = null;
            List<Object> only = List.of();
            for (Ev p : parts) {
                List<Object> v = p.eval(c);
                if (v.isEmpty()) {
                    continue;
                }
                if (out == null && only.isEmpty()) {
                    only = v;
                    continue;
                }
                if (out == null) {
                    out = new ArrayList<>(only);
                }
                out.addAll(v);
            }
            return out == null ? only : out;
        }
    }

    /** A let- or quantifier-bound variable. */
    static final class VarRef extends Ev {
        final int slot;
        /** Whether its value may hold a datamodel variable's node ({@link #mayReturnData}). */
        final boolean data;

        VarRef(int slot, boolean data) {
            this.slot = slot;
            this.data = data;
        }

        @SuppressWarnings("unchecked")
        @Override
        List<Object> eval(Ctx c) {
            return (List<Object>) c.vars[slot];
        }
    }

    /** A spec parameter ({@code declare variable $p external} in a query; every parameter in an XPath). */
    static final class ParamRef extends Ev {
        final String name;

        ParamRef(String name) {
            this.name = name;
        }

        @Override
        List<Object> eval(Ctx c) throws DynamicError {
            List<Object> v = c.bindings.javaSequence(name);
            if (v == null) {
                throw new DynamicError("no value for parameter $" + name);
            }
            return v;
        }
    }

    /**
     * A datamodel variable ({@code <data id>}), by its index in the spec's data ids: the
     * instance's current value, read through the evaluation's {@link Ctx#data} (no name lookup, no
     * list: the variable's item is its own sequence).
     */
    static final class DataRef extends Ev {
        final int index;

        DataRef(int index) {
            this.index = index;
        }

        @Override
        List<Object> eval(Ctx c) {
            DatamodelItem d = c.data.item(index);
            return d == null ? List.of() : d;
        }

        @Override
        boolean ebv(Ctx c) {
            // a node: true whenever the variable is bound
            return c.data.item(index) != null;
        }
    }

    /** {@code .}. */
    static final class ContextItem extends Ev {
        @Override
        List<Object> eval(Ctx c) throws DynamicError {
            if (c.item == null) {
                throw new DynamicError("the context item is absent");
            }
            return one(c.item);
        }
    }

    /** {@code /}: the document node. */
    /** {@code $_x?history} in a datamodel expression: the history's document node, whatever the context item. */
    static final class HistoryDocument extends Ev {

        @Override
        List<Object> eval(Ctx c) {
            return HistoryItem.DOCUMENT_NODE;
        }
    }

    static final class Root extends Ev {

        @Override
        List<Object> eval(Ctx c) throws DynamicError {
            if (!(c.item instanceof HistoryItem)) {
                throw new DynamicError("'/' needs a node as context item");
            }
            return HistoryItem.DOCUMENT_NODE;
        }
    }

    // ------------------------------------------------------------------ control

    /** {@code let $v := value return body} (one binding; several nest). */
    static final class Let extends Ev {
        final int slot;
        final Ev value;
        final Ev body;

        /**
         * Whether a one-node value is kept in the slot's own item of the context rather than a
         * new one: when the body's value can never hold the variable's (so nothing refers to the
         * item after the body, and the let cannot run again while it is in use).
         */
        final boolean ownItem;
        private final boolean lendValue;
        private final boolean lendBody;

        Let(int slot, Ev value, Ev body) {
            this.slot = slot;
            this.value = value;
            this.body = body;
            this.ownItem = !mayReturn(body, slot);
            this.lendValue = ownItem && takesLend(value);
            this.lendBody = takesLend(body);
        }

        private void bind(Ctx c) throws DynamicError {
            c.lend = lendValue;
            List<Object> v = value.eval(c);
            c.vars[slot] = v == c.scratch ? c.slotItem(slot, c.scratch) : v;
        }

        @Override
        List<Object> eval(Ctx c) throws DynamicError {
            boolean lend = c.lend;
            bind(c);
            c.lend = lend && lendBody;
            return body.eval(c);
        }

        @Override
        boolean ebv(Ctx c) throws DynamicError {
            bind(c);
            return body.ebv(c);
        }

        @Override
        boolean isBoolean() {
            return body.isBoolean();
        }
    }

    /** {@code if (cond) then a else b}. */
    static final class If extends Ev {
        final Ev cond;
        final Ev then;
        final Ev otherwise;

        If(Ev cond, Ev then, Ev otherwise) {
            this.cond = cond;
            this.then = then;
            this.otherwise = otherwise;
        }

        @Override
        List<Object> eval(Ctx c) throws DynamicError {
            boolean lend = c.lend;
            c.lend = false;
            if (cond.ebv(c)) {
                c.lend = lend && takesLend(then);
                return then.eval(c);
            }
            c.lend = lend && takesLend(otherwise);
            return otherwise.eval(c);
        }

        @Override
        boolean ebv(Ctx c) throws DynamicError {
            return cond.ebv(c) ? then.ebv(c) : otherwise.ebv(c);
        }

        @Override
        boolean isBoolean() {
            return then.isBoolean() && otherwise.isBoolean();
        }
    }

    /** {@code some|every $v in domain satisfies test} (one binding; several nest). */
    static final class Quantified extends Ev {
        final boolean every;
        final int slot;
        final Ev domain;
        final Ev test;

        Quantified(boolean every, int slot, Ev domain, Ev test) {
            this.every = every;
            this.slot = slot;
            this.domain = domain;
            this.test = test;
        }

        @Override
        List<Object> eval(Ctx c) throws DynamicError {
            return bool(ebv(c));
        }

        @Override
        boolean ebv(Ctx c) throws DynamicError {
            List<Object> d = domain.eval(c);
            for (int i = 0, n = d.size(); i < n; i++) {
                c.tick();
                c.vars[slot] = one(d.get(i));
                if (test.ebv(c) != every) {
                    return !every;
                }
            }
            return every;
        }

        @Override
        boolean isBoolean() {
            return true;
        }
    }

    /** {@code a and b}, {@code a or b}. */
    static final class Logic extends Ev {
        final boolean and;
        final Ev left;
        final Ev right;

        Logic(boolean and, Ev left, Ev right) {
            this.and = and;
            this.left = left;
            this.right = right;
        }

        @Override
        List<Object> eval(Ctx c) throws DynamicError {
            return bool(ebv(c));
        }

        @Override
        boolean ebv(Ctx c) throws DynamicError {
            return and ? left.ebv(c) && right.ebv(c) : left.ebv(c) || right.ebv(c);
        }

        @Override
        boolean isBoolean() {
            return true;
        }
    }

    // ------------------------------------------------------------------ functions

    /** The built-in functions of the subset. */
    enum Function {
        EXISTS, EMPTY, NOT, BOOLEAN, COUNT, LAST, POSITION, TRUE, FALSE
    }

    /** A call of a built-in function. */
    static final class Call extends Ev {
        final Function function;
        final Ev arg;

        Call(Function function, Ev arg) {
            this.function = function;
            this.arg = arg;
        }

        @Override
        List<Object> eval(Ctx c) throws DynamicError {
            return switch (function) {
                case COUNT -> integer(lent(c).size());
                case LAST -> integer(focus(c).last);
                case POSITION -> integer(focus(c).position);
                default -> bool(ebv(c));
            };
        }

        /** The argument's value, whose size alone is read: it may be the scratch item. */
        private List<Object> lent(Ctx c) throws DynamicError {
            c.lend = takesLend(arg);
            return arg.eval(c);
        }

        private static Ctx focus(Ctx c) throws DynamicError {
            if (c.item == null) {
                throw new DynamicError("the focus is absent");
            }
            return c;
        }

        @Override
        boolean ebv(Ctx c) throws DynamicError {
            return switch (function) {
                case EXISTS -> !lent(c).isEmpty();
                case EMPTY -> lent(c).isEmpty();
                case NOT -> !arg.ebv(c);
                case BOOLEAN -> arg.ebv(c);
                case TRUE -> true;
                case FALSE -> false;
                default -> SubsetEval.ebv(eval(c));
            };
        }

        @Override
        boolean isBoolean() {
            return function != Function.COUNT && function != Function.LAST && function != Function.POSITION;
        }
    }

    // ------------------------------------------------------------------ comparisons

    /** General comparison operators. */
    enum Op {
        EQ, NE, LT, LE, GT, GE
    }

    /** A general comparison: true when some pair of atomized items compares true. */
    static final class Compare extends Ev {
        final Op op;
        final Ev left;
        final Ev right;

        private final boolean lendLeft;
        private final boolean lendRight;

        Compare(Op op, Ev left, Ev right) {
            this.op = op;
            this.left = left;
            this.right = right;
            this.lendLeft = takesLend(left) && right instanceof Literal;
            this.lendRight = takesLend(right);
        }

        @Override
        List<Object> eval(Ctx c) throws DynamicError {
            return bool(ebv(c));
        }

        @Override
        boolean ebv(Ctx c) throws DynamicError {
            // the operand evaluated last may be the scratch item, the first only when the last is a literal
            c.lend = lendLeft;
            List<Object> a = left.eval(c);
            if (a.isEmpty()) {
                return false;
            }
            c.lend = lendRight;
            List<Object> b = right.eval(c);
            for (int i = 0, n = a.size(); i < n; i++) {
                Object x = a.get(i);
                for (int j = 0, m = b.size(); j < m; j++) {
                    c.tick();
                    if (compare(c, op, x, b.get(j))) {
                        return true;
                    }
                }
            }
            return false;
        }

        @Override
        boolean isBoolean() {
            return true;
        }
    }

    /**
     * A value comparison ({@code eq}, {@code lt}, …): each operand atomizes to at most one item
     * (else an error), an empty operand gives the empty sequence, an untyped value is compared as
     * a string.
     */
    static final class ValueCompare extends Ev {
        final Op op;
        final Ev left;
        final Ev right;

        ValueCompare(Op op, Ev left, Ev right) {
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override
        List<Object> eval(Ctx c) throws DynamicError {
            Object a = single(c, left);
            if (a == null) {
                return List.of();
            }
            Object b = single(c, right);
            if (b == null) {
                return List.of();
            }
            return bool(compare(c, op, a, b));
        }

        @Override
        boolean ebv(Ctx c) throws DynamicError {
            List<Object> v = eval(c);
            return !v.isEmpty() && (Boolean) v.get(0);
        }

        /**
         * The operand's one atomized item (an untyped value becomes its string), or null when
         * empty; a node is read before anything else runs, so it may be the scratch item.
         */
        private static Object single(Ctx c, Ev e) throws DynamicError {
            c.lend = takesLend(e);
            List<Object> v = e.eval(c);
            if (v.size() > 1) {
                throw new DynamicError("a value comparison needs at most one item, got " + v.size());
            }
            if (v.isEmpty()) {
                return null;
            }
            Object x = v.get(0);
            if (x instanceof DatamodelItem d) {
                return d.text();
            }
            return x instanceof HistoryItem h ? c.stringValue(h) : x;
        }
    }

    /** {@code a | b}: the nodes of both in document order, without duplicates. */
    static final class Union extends Ev {
        final Ev left;
        final Ev right;

        Union(Ev left, Ev right) {
            this.left = left;
            this.right = right;
        }

        @Override
        List<Object> eval(Ctx c) throws DynamicError {
            List<Object> a = left.eval(c);
            List<Object> b = right.eval(c);
            List<Object> out = new ArrayList<>(a.size() + b.size());
            out.addAll(a);
            out.addAll(b);
            for (Object x : out) {
                if (!(x instanceof HistoryItem)) {
                    throw new DynamicError("a union needs nodes, got an atomic value");
                }
            }
            c.charge(out.size());
            sortAndDeduplicate(out);
            return out;
        }
    }

    /**
     * {@code @name = 'a' or @name = "b" …}, recognised in the tree (any spelling compiles to the
     * same comparisons): tested on the entry without making attribute nodes.
     */
    static final class NameIn extends Ev {
        final Set<String> names;

        NameIn(Set<String> names) {
            this.names = Set.copyOf(names);
        }

        @Override
        List<Object> eval(Ctx c) throws DynamicError {
            return bool(ebv(c));
        }

        @Override
        boolean ebv(Ctx c) throws DynamicError {
            if (!(c.item instanceof HistoryItem h)) {
                throw new DynamicError("an attribute step needs a node as context item");
            }
            if (h.kind == HistoryItem.MESSAGE_FIELD) {
                // a <Field>'s name attribute: the field's name
                return names.contains(h.fieldName());
            }
            return h.kind == HistoryItem.EVENT && matches(h.entry);
        }

        boolean matches(HistoryEntry e) {
            String n = HistoryItem.eventName(e);
            return n != null && names.contains(n);
        }

        @Override
        boolean isBoolean() {
            return true;
        }
    }

    static boolean compare(Ctx c, Op op, Object x, Object y) throws DynamicError {
        if (x instanceof HistoryItem a && y instanceof HistoryItem b) {
            if (op == Op.EQ || op == Op.NE) {
                // address texts are equal exactly when the addresses are: no text is made
                LogicalAddress la = a.address();
                LogicalAddress lb = la == null ? null : b.address();
                if (lb != null) {
                    return la.equals(lb) == (op == Op.EQ);
                }
            }
            return compareStrings(op, c.stringValue(a), c.stringValue(b));
        }
        if (x instanceof DatamodelItem d && isNumeric(y)) {
            Number n = d.number();
            if (n != null) {
                // the text of a number the datamodel keeps as one parses to that number
                return compareDoubles(op, n.doubleValue(), ((Number) y).doubleValue());
            }
        } else if (y instanceof DatamodelItem d && isNumeric(x)) {
            Number n = d.number();
            if (n != null) {
                return compareDoubles(op, ((Number) x).doubleValue(), n.doubleValue());
            }
        }
        String u = untyped(c, x);
        String v = untyped(c, y);
        if (u != null && v != null) {
            return compareStrings(op, u, v);
        }
        if (u != null) {
            return compareUntyped(op, u, y, false);
        }
        if (v != null) {
            return compareUntyped(op, v, x, true);
        }
        if (x instanceof String s && y instanceof String t) {
            return compareStrings(op, s, t);
        }
        if (x instanceof Boolean p && y instanceof Boolean q) {
            return result(op, Boolean.compare(p, q));
        }
        if (isNumeric(x) && isNumeric(y)) {
            return compareNumbers(op, x, y);
        }
        throw new DynamicError("cannot compare " + typeName(x) + " with " + typeName(y));
    }

    /** An untyped value {@code u} against typed {@code other}; {@code swapped}: {@code other} is on the left. */
    private static boolean compareUntyped(Op op, String u, Object other, boolean swapped)
            throws DynamicError {
        if (other instanceof String s) {
            return swapped ? compareStrings(op, s, u) : compareStrings(op, u, s);
        }
        if (isNumeric(other)) {
            Double d = parseDouble(u);
            if (d == null) {
                throw new DynamicError("'" + u + "' is not a number");
            }
            return swapped ? compareNumbers(op, other, d) : compareNumbers(op, d, other);
        }
        Boolean b = parseBoolean(u);
        if (b == null) {
            throw new DynamicError("'" + u + "' is not a boolean");
        }
        boolean o = (Boolean) other;
        return result(op, swapped ? Boolean.compare(o, b) : Boolean.compare(b, o));
    }

    private static boolean compareStrings(Op op, String a, String b) {
        if (op == Op.EQ) {
            return a.equals(b);
        }
        if (op == Op.NE) {
            return !a.equals(b);
        }
        return result(op, codepointCompare(a, b));
    }

    private static int codepointCompare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }

    /** A node's untyped atomic value (its string value), or {@code null} when {@code x} is atomic. */
    private static String untyped(Ctx c, Object x) throws DynamicError {
        if (x instanceof HistoryItem h) {
            return c.stringValue(h);
        }
        return x instanceof DatamodelItem d ? d.text() : null;
    }

    private static boolean compareNumbers(Op op, Object x, Object y) {
        if (x instanceof Long a && y instanceof Long b) {
            return result(op, Long.compare(a, b));
        }
        return compareDoubles(op, ((Number) x).doubleValue(), ((Number) y).doubleValue());
    }

    private static boolean compareDoubles(Op op, double a, double b) {
        if (Double.isNaN(a) || Double.isNaN(b)) {
            return op == Op.NE;
        }
        return result(op, a < b ? -1 : a > b ? 1 : 0);
    }

    private static boolean result(Op op, int cmp) {
        return switch (op) {
            case EQ -> cmp == 0;
            case NE -> cmp != 0;
            case LT -> cmp < 0;
            case LE -> cmp <= 0;
            case GT -> cmp > 0;
            case GE -> cmp >= 0;
        };
    }

    private static boolean isNumeric(Object o) {
        return o instanceof Long || o instanceof Double;
    }

    private static String typeName(Object o) {
        return o instanceof String ? "xs:string" : o instanceof Boolean ? "xs:boolean" : "a number";
    }

    /** The xs:double an untyped value casts to, or {@code null} when it does not. */
    static Double parseDouble(String text) {
        String t = text.strip();
        switch (t) {
            case "INF", "+INF":
                return Double.POSITIVE_INFINITY;
            case "-INF":
                return Double.NEGATIVE_INFINITY;
            case "NaN":
                return Double.NaN;
            default:
                break;
        }
        // the xs:double lexical form: sign? (digits ('.' digits?)? | '.' digits) (('e'|'E') sign? digits)?
        int i = 0;
        int n = t.length();
        if (i < n && (t.charAt(i) == '+' || t.charAt(i) == '-')) {
            i++;
        }
        int digits = 0;
        while (i < n && Character.isDigit(t.charAt(i)) && t.charAt(i) < 128) {
            i++;
            digits++;
        }
        if (i < n && t.charAt(i) == '.') {
            i++;
            while (i < n && t.charAt(i) >= '0' && t.charAt(i) <= '9') {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            return null;
        }
        if (i < n && (t.charAt(i) == 'e' || t.charAt(i) == 'E')) {
            i++;
            if (i < n && (t.charAt(i) == '+' || t.charAt(i) == '-')) {
                i++;
            }
            int exp = 0;
            while (i < n && t.charAt(i) >= '0' && t.charAt(i) <= '9') {
                i++;
                exp++;
            }
            if (exp == 0) {
                return null;
            }
        }
        return i == n ? Double.parseDouble(t) : null;
    }

    private static Boolean parseBoolean(String text) {
        return switch (text.strip()) {
            case "true", "1" -> Boolean.TRUE;
            case "false", "0" -> Boolean.FALSE;
            default -> null;
        };
    }

    /** XPath's effective boolean value of a sequence. */
    static boolean ebv(List<Object> v) throws DynamicError {
        if (v instanceof HistoryItem || v instanceof DatamodelItem) {
            return true;
        }
        if (v.isEmpty()) {
            return false;
        }
        Object first = v.get(0);
        if (isNode(first)) {
            return true;
        }
        if (v.size() > 1) {
            throw new DynamicError("effective boolean value of a sequence of " + v.size() + " atomic values");
        }
        if (first instanceof Boolean b) {
            return b;
        }
        if (first instanceof String s) {
            return !s.isEmpty();
        }
        double d = ((Number) first).doubleValue();
        return d != 0 && !Double.isNaN(d);
    }

    // ------------------------------------------------------------------ paths and predicates

    /** Axes of a step. */
    enum Axis {
        /** {@code name}: children. */
        CHILD,
        /** {@code //name}: children of the context node and of each of its descendants. */
        DESCENDANT_CHILD,
        /** {@code @name}. */
        ATTRIBUTE
    }

    /**
     * An axis step with a name test ({@code null} for {@code *}) and predicates, applied to each
     * node of its input.
     */
    static final class Step {
        final Axis axis;
        final String name;
        final Ev[] predicates;

        /** The predicates after a leading {@link NameIn}, and after that and a positional one (used by rootChildren). */
        private final Ev[] afterNames;
        private final Ev[] afterPosition;

        /** Which children of {@code <HistoryOfEvents>} the name test accepts: EVENT, NODE, -1 (any), -2 (none). */
        private final int rootKind;
        /** The name resolved once against the history's vocabulary ({@link HistoryItem#code}), for child(). */
        private final int code;

        Step(Axis axis, String name, Ev[] predicates) {
            this.axis = axis;
            this.name = name;
            this.predicates = predicates;
            int p = predicates.length > 0 && predicates[0] instanceof NameIn ? 1 : 0;
            this.afterNames = Arrays.copyOfRange(predicates, p, predicates.length);
            this.afterPosition = Arrays.copyOfRange(predicates, Math.min(p + 1, predicates.length), predicates.length);
            this.rootKind = name == null ? -1 : name.equals(HistoryVocabulary.EVENT) ? HistoryItem.EVENT
                    : name.equals(HistoryVocabulary.NODE) ? HistoryItem.NODE : -2;
            this.code = name == null ? 0 : HistoryItem.code(name);
        }

        /**
         * What the step selects from {@code node} when that is at most one node without
         * evaluating predicates in a focus: the node, {@code null} for none, or {@link #MANY}
         * when the general {@link #apply} must run. Lets the common chain
         * {@code /HistoryOfEvents/Event[@name=…][last()]/Message/Child} run without lists. A node
         * made here is {@link Ctx#scratch} (evaluates nothing else, so the scratch cannot change
         * under it); {@link Path#eval} copies it when it is kept.
         */
        Object single(Ctx c, HistoryItem node) throws DynamicError {
            if (axis != Axis.CHILD || name == null) {
                return MANY;
            }
            if (node.kind == HistoryItem.ROOT) {
                int p = afterNames.length < predicates.length ? 1 : 0;
                if (p < predicates.length && afterPosition.length == 0 && positional(predicates[p])) {
                    return rootScan(c, p, c.scratch);
                }
                return p == predicates.length ? onlyRootChild(c, p == 1 ? (NameIn) predicates[0] : null) : MANY;
            }
            if (predicates.length > 0) {
                return MANY;
            }
            if (node.kind == HistoryItem.GROUP) {
                // Parent holds at most one address, and a leaf's Children none
                int k = node.groupSize();
                return k == 0 || code != HistoryItem.CODE_ADDRESS ? null : k == 1 ? node.groupAddress(0, c.scratch) : MANY;
            }
            if (node.kind == HistoryItem.FIELDS && node.fieldCount() > 1) {
                return code == HistoryItem.CODE_FIELD ? MANY : null;
            }
            return node.child(code, c.scratch);
        }

        /** The one entry the name test and {@code names} accept, null for none, {@link #MANY} for several. */
        private Object onlyRootChild(Ctx c, NameIn names) throws DynamicError {
            History h = c.history;
            int want = rootKind;
            if (want == -2) {
                return null;
            }
            int found = -1;
            for (int i = 0, n = h.size(); i < n; i++) {
                c.tick();
                if (acceptsRoot(h, i, h.entryAt(i), want, names)) {
                    if (found >= 0) {
                        return MANY;
                    }
                    found = i;
                }
            }
            return found < 0 ? null : HistoryItem.top(h.entryAt(found), found, c.scratch);
        }

        private static boolean positional(Ev e) {
            return isLast(e) || e instanceof Literal l && l.value instanceof Long;
        }

        /** The entry {@code predicates[p]} (last() or k) selects among those the name test and a leading NameIn accept. */
        private HistoryItem rootScan(Ctx c, int p, HistoryItem into) throws DynamicError {
            History h = c.history;
            int want = rootKind;
            if (want == -2) {
                return null;
            }
            NameIn names = p == 1 ? (NameIn) predicates[0] : null;
            boolean last = isLast(predicates[p]);
            long k = last ? 1 : (Long) ((Literal) predicates[p]).value;
            int n = h.size();
            long seen = 0;
            for (int j = 0; j < n && k >= 1; j++) {
                int i = last ? n - 1 - j : j;
                c.tick();
                HistoryEntry e = h.entryAt(i);
                if (acceptsRoot(h, i, e, want, names) && ++seen == k) {
                    return HistoryItem.top(e, i, into);
                }
            }
            return null;
        }

        /** Appends what the step selects from {@code node} (in document order for one node, except DESCENDANT_CHILD). */
        void apply(Ctx c, HistoryItem node, List<Object> out) throws DynamicError {
            switch (axis) {
                case ATTRIBUTE -> {
                    List<Object> sel = new ArrayList<>(2);
                    for (HistoryItem a : node.attributes()) {
                        if (name == null || name.equals(a.name())) {
                            sel.add(a);
                        }
                    }
                    addAll(out, filter(c, sel, predicates));
                }
                case CHILD -> children(c, node, out);
                default -> descend(c, node, out);
            }
        }

        /**
         * Appends, in document order, the children of {@code node} and of each of its descendants
         * that the step selects: each selected child just before its own subtree (so no sort is
         * needed), walking only into subtrees that can hold the name.
         */
        private void descend(Ctx c, HistoryItem node, List<Object> out) throws DynamicError {
            c.tick();
            boolean asChild = name == null || mayBeChild(node.kind, name);
            boolean below = name == null || mayBeBelow(node.kind, name) && (node.kind != HistoryItem.ROOT
                    || HistoryVocabulary.EVENT_CONTENT_NAMES.contains(name) || HistoryVocabulary.NODE_NAMES.contains(name));
            if (!below) {
                if (asChild) {
                    children(c, node, out);
                }
                return;
            }
            List<Object> selected = new ArrayList<>();
            if (asChild) {
                children(c, node, selected);
            }
            int next = 0;
            for (HistoryItem ch : node.children(c.history)) {
                if (next < selected.size() && selected.get(next).equals(ch)) {
                    out.add(ch);
                    next++;
                }
                descend(c, ch, out);
            }
        }

        private void children(Ctx c, HistoryItem node, List<Object> out) throws DynamicError {
            if (node.kind == HistoryItem.ROOT) {
                rootChildren(c, out);
                return;
            }
            if (predicates.length == 0) {
                node.children(c.history, name, out);
                return;
            }
            List<Object> sel = new ArrayList<>(4);
            node.children(c.history, name, sel);
            addAll(out, filter(c, sel, predicates));
        }

        /**
         * The children of {@code <HistoryOfEvents>} read straight from the entries: a leading
         * {@link NameIn} predicate is tested on the entry, and a following {@code [last()]} or
         * {@code [k]} stops the scan at the one it selects. Only the selected entries get an item.
         */
        private void rootChildren(Ctx c, List<Object> out) throws DynamicError {
            History h = c.history;
            int want = rootKind;
            if (want == -2) {
                return;
            }
            int p = 0;
            NameIn names = null;
            if (predicates.length > 0 && predicates[0] instanceof NameIn ni) {
                names = ni;
                p = 1;
            }
            if (p < predicates.length && positional(predicates[p])) {
                HistoryItem found = rootScan(c, p, null);
                if (found != null) {
                    if (afterPosition.length == 0) {
                        out.add(found);
                    } else {
                        addAll(out, filter(c, found, afterPosition));
                    }
                }
                return;
            }
            List<Object> sel = p == predicates.length ? out : new ArrayList<>();
            for (int i = 0, n = h.size(); i < n; i++) {
                c.tick();
                HistoryEntry e = h.entryAt(i);
                if (acceptsRoot(h, i, e, want, names)) {
                    sel.add(HistoryItem.top(e, i));
                }
            }
            if (sel != out) {
                addAll(out, filter(c, sel, afterNames));
            }
        }

        private static boolean acceptsRoot(History h, int i, HistoryEntry e, int want, NameIn names) {
            if (!h.hasXml(i)) {
                return false;
            }
            boolean node = e instanceof HistoryEntry.NodeRecord;
            if (want >= 0 && (want == HistoryItem.NODE) != node) {
                return false;
            }
            return names == null || !node && names.matches(e);
        }
    }

    /** Appends without {@code addAll}'s copy of the source into an array. */
    private static void addAll(List<Object> out, List<Object> items) {
        for (int i = 0, n = items.size(); i < n; i++) {
            out.add(items.get(i));
        }
    }

    /** {@link Step#single}'s answer when the step may select several nodes. */
    static final Object MANY = new Object();

    static boolean isLast(Ev e) {
        return e instanceof Call call && call.function == Function.LAST;
    }

    /** Whether an element named {@code name} can be a child of a node of {@code kind}. */
    static boolean mayBeChild(int kind, String name) {
        return switch (kind) {
            case HistoryItem.DOCUMENT -> name.equals(HistoryVocabulary.HISTORY);
            case HistoryItem.ROOT -> name.equals(HistoryVocabulary.EVENT) || name.equals(HistoryVocabulary.NODE);
            case HistoryItem.EVENT -> name.equals(HistoryVocabulary.MESSAGE) || name.equals(HistoryVocabulary.TIMER);
            case HistoryItem.MESSAGE -> HistoryItem.fieldOf(name) >= 0 || name.equals(History.FIELDS);
            case HistoryItem.FIELDS -> name.equals(History.FIELD);
            case HistoryItem.TIMER -> name.equals(HistoryVocabulary.TIMER_IDENTIFIER);
            case HistoryItem.NODE -> HistoryVocabulary.NODE_NAMES.contains(name) && !name.equals(HistoryVocabulary.NODE);
            case HistoryItem.GROUP -> name.equals("LogicalAddress");
            default -> false;
        };
    }

    /** Whether an element named {@code name} can be a descendant (below a child) of a node of {@code kind}. */
    static boolean mayBeBelow(int kind, String name) {
        return switch (kind) {
            case HistoryItem.DOCUMENT, HistoryItem.ROOT -> true;
            case HistoryItem.EVENT -> HistoryVocabulary.EVENT_CONTENT_NAMES.contains(name);
            case HistoryItem.MESSAGE -> name.equals(History.FIELD);
            case HistoryItem.NODE -> name.equals("LogicalAddress");
            default -> false;
        };
    }

    /** A path: a start expression, then steps. */
    static final class Path extends Ev {
        final Ev start;
        final Step[] steps;

        Path(Ev start, Step[] steps) {
            this.start = start;
            this.steps = steps;
        }

        @Override
        List<Object> eval(Ctx c) throws DynamicError {
            boolean lend = c.lend;
            c.lend = false;
            List<Object> list = start.eval(c);
            // while the value is one node, a step that selects at most one node makes no list,
            // and the nodes passed through are the context's scratch item, not new items
            HistoryItem single = list instanceof HistoryItem h ? h
                    : list.size() == 1 && list.get(0) instanceof HistoryItem h1 ? h1 : null;
            boolean changed = false;
            for (Step s : steps) {
                if (single != null) {
                    Object r = s.single(c, single);
                    if (r == null) {
                        return List.of();
                    }
                    if (r != MANY) {
                        single = (HistoryItem) r;
                        changed = true;
                        continue;
                    }
                    if (single == c.scratch) {
                        // apply evaluates predicates, whose paths reuse the scratch
                        single = single.copy();
                    }
                    list = new ArrayList<>(4);
                    s.apply(c, single, list);
                    if (s.axis == Axis.DESCENDANT_CHILD) {
                        sortAndDeduplicate(list);
                    }
                } else {
                    int n = list.size();
                    if (n == 0) {
                        return list;
                    }
                    List<Object> next = new ArrayList<>(n * 2);
                    for (int i = 0; i < n; i++) {
                        c.tick();
                        if (!(list.get(i) instanceof HistoryItem node)) {
                            throw new DynamicError("a path step needs nodes, got an atomic value");
                        }
                        s.apply(c, node, next);
                    }
                    c.charge(next.size()); // the sort below
                    sortAndDeduplicate(next);
                    list = next;
                }
                changed = false;
                single = list.size() == 1 ? (HistoryItem) list.get(0) : null;
            }
            if (!changed) {
                return list;
            }
            return single == c.scratch && !lend ? single.copy() : single;
        }
    }

    /** A filter expression: {@code primary[p1][p2]…}. */
    static final class Filter extends Ev {
        final Ev base;
        final Ev[] predicates;

        Filter(Ev base, Ev[] predicates) {
            this.base = base;
            this.predicates = predicates;
        }

        @Override
        List<Object> eval(Ctx c) throws DynamicError {
            return filter(c, base.eval(c), predicates);
        }
    }

    /** Applies predicates in turn; a numeric predicate value selects by position. */
    static List<Object> filter(Ctx c, List<Object> items, Ev[] predicates) throws DynamicError {
        for (Ev p : predicates) {
            int n = items.size();
            if (n == 0) {
                return items;
            }
            if (p instanceof Literal l && l.value instanceof Long k) {
                items = k >= 1 && k <= n ? one(items.get((int) (k - 1))) : List.of();
                continue;
            }
            if (isLast(p)) {
                items = one(items.get(n - 1));
                continue;
            }
            Object item = c.item;
            int position = c.position;
            int last = c.last;
            List<Object> out = new ArrayList<>(n);
            boolean bool = p.isBoolean();
            try {
                c.last = n;
                for (int i = 0; i < n; i++) {
                    c.tick();
                    Object x = items.get(i);
                    c.item = x;
                    c.position = i + 1;
                    boolean keep;
                    if (bool) {
                        keep = p.ebv(c);
                    } else {
                        List<Object> v = p.eval(c);
                        if (v.size() == 1 && isNumeric(v.get(0))) {
                            keep = ((Number) v.get(0)).doubleValue() == i + 1;
                        } else {
                            keep = ebv(v);
                        }
                    }
                    if (keep) {
                        out.add(x);
                    }
                }
            } finally {
                c.item = item;
                c.position = position;
                c.last = last;
            }
            items = out;
        }
        return items;
    }

    /** Sorts nodes into document order and drops duplicates (the list holds nodes only). */
    static void sortAndDeduplicate(List<Object> nodes) {
        int n = nodes.size();
        boolean sorted = true;
        for (int i = 1; i < n && sorted; i++) {
            sorted = ((HistoryItem) nodes.get(i - 1)).compareOrder((HistoryItem) nodes.get(i)) < 0;
        }
        if (sorted) {
            return;
        }
        nodes.sort((a, b) -> ((HistoryItem) a).compareOrder((HistoryItem) b));
        int w = 1;
        for (int i = 1; i < n; i++) {
            if (!nodes.get(i).equals(nodes.get(w - 1))) {
                nodes.set(w++, nodes.get(i));
            }
        }
        nodes.subList(w, n).clear();
    }
}
