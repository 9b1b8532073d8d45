package io.statecast.messagestore.event;

import io.statecast.overlay.message.OverlayMessage;
import java.util.List;
import java.util.Objects;
import net.sf.saxon.s9api.XdmAtomicValue;
import net.sf.saxon.s9api.XdmItem;
import net.sf.saxon.s9api.XdmNode;
import net.sf.saxon.s9api.XdmValue;

/**
 * A spec's {@code <ScopeKey>} (scope {@code expression}): an XPath whose value over one message
 * names the instance the message belongs to. Compiled once when the spec loads ({@link CompiledPath},
 * in the sandbox of every spec expression) and shared by every shard.
 *
 * <p>The context item is the message's {@code <Message>} element, in the vocabulary of the
 * history document ({@code MessageIdentifier}, {@code SourceAddress}, {@code Fields/Field[@name='…']}
 * …); it sits in a history of that one message, recorded as the event {@value #EVENT_NAME}, so
 * an absolute path sees {@code /HistoryOfEvents/Event[@name='message']/Message}. Spec parameters
 * are variables. The value must be one item: a node or an atomic value, whose string value is the
 * key; an empty value, several items, a function item or a string longer than
 * {@link #MAX_KEY_CHARS} give no key ({@link NoKey}).
 *
 * <p>Expressions of the compiled subset ({@link CompiledExpression}) run over the typed message
 * without Saxon and without a document; the others on Saxon over the history's lazily built
 * nodes ({@link History}), the same view action XPaths read. A test compares the two on random
 * messages.
 */
public final class MessageKeyExpression {

    /** Most UTF-16 chars a key may have; a longer value gives no key. */
    public static final int MAX_KEY_CHARS = 256;
    /** Name of the one event in the history the message is seen in. */
    public static final String EVENT_NAME = "message";

    private final CompiledPath path;
    private final HistoryNames names;

    /** @param path the compiled {@code <ScopeKey>} */
    public MessageKeyExpression(CompiledPath path) {
        this.path = Objects.requireNonNull(path, "path");
        this.names = HistoryNames.of(path.executable().getUnderlyingStaticContext().getConfiguration());
    }

    /** The expression as written. */
    public String text() {
        return path.text();
    }

    /** The compiled path (its Java form, {@link CompiledPath#compiled()}, is null when Saxon evaluates it). */
    public CompiledPath path() {
        return path;
    }

    /**
     * The key of {@code message}.
     *
     * @param owner     identifies the loaded spec for {@code evaluator}'s cache
     * @param evaluator the calling shard's evaluator (Saxon runs under its guard)
     * @param bindings  the spec's parameter values
     * @throws NoKey               when the value is no single item or too long
     * @throws EvaluationException when the evaluation fails (fatal: it ran away)
     */
    public String keyOf(OverlayMessage message, Object owner, QueryEvaluator evaluator, QueryBindings bindings)
            throws NoKey, EvaluationException {
        History history = new History(1, names, 1);
        history.addMessageEvent(EVENT_NAME, message, 0, true);
        CompiledExpression compiled = path.compiled();
        String key;
        if (compiled != null) {
            List<Object> v = compiled.runAt(history, new HistoryItem(history.entryAt(0), 0, HistoryItem.MESSAGE, 0),
                    bindings);
            if (v.size() != 1) {
                throw new NoKey(v.isEmpty() ? "the value is empty" : "the value has " + v.size() + " items");
            }
            Object item = v.get(0);
            key = item instanceof HistoryItem h ? h.stringValue(history) : item.toString();
        } else {
            XdmValue v = evaluator.evaluateAt(owner, path, bindings, DatamodelValues.NONE, messageNode(history));
            if (v.size() != 1) {
                throw new NoKey(v.size() == 0 ? "the value is empty" : "the value has " + v.size() + " items");
            }
            XdmItem item = v.itemAt(0);
            if (!(item instanceof XdmNode) && !(item instanceof XdmAtomicValue)) {
                throw new NoKey("the value is a function, map or array, not a node or atomic value");
            }
            key = item.getStringValue();
        }
        if (key.length() > MAX_KEY_CHARS) {
            throw new NoKey("the value has " + key.length() + " chars > MAX_KEY_CHARS=" + MAX_KEY_CHARS);
        }
        return key;
    }

    /** The {@code <Message>} element of the history's one event. */
    private static XdmNode messageNode(History history) {
        XdmNode root = history.document().children().iterator().next();
        XdmNode event = root.children().iterator().next();
        return event.children().iterator().next();
    }

    @Override
    public String toString() {
        return "ScopeKey[" + path.text() + "]";
    }

    /** The expression gave no key for a message: the message belongs to no instance. */
    public static final class NoKey extends Exception {

        private static final long serialVersionUID = 1L;

        /** @param why what the value was */
        public NoKey(String why) {
            super(why, null, false, false);
        }
    }
}
