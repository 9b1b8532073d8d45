package io.statecast.messagestore.event;

import io.statecast.overlay.message.OverlayMessage;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import net.sf.saxon.om.NodeInfo;
import net.sf.saxon.s9api.QName;
import net.sf.saxon.s9api.SaxonApiException;
import net.sf.saxon.s9api.XPathSelector;
import net.sf.saxon.s9api.XQueryEvaluator;
import net.sf.saxon.s9api.XdmAtomicValue;
import net.sf.saxon.s9api.XdmEmptySequence;
import net.sf.saxon.s9api.XdmItem;
import net.sf.saxon.s9api.XdmNode;
import net.sf.saxon.s9api.XdmValue;
import net.sf.saxon.value.BinaryValue;

/**
 * Evaluates a spec's compiled XPath and XQuery against instance histories: those of the subset
 * compiled to Java ({@link CompiledExpression}) directly over the history's entries, the others
 * by Saxon on the history document, reusing one loaded
 * evaluator per expression and spec (ENGINE-NOTES: loading an evaluator per evaluation costs
 * more than the evaluation). Parameters are bound once, when the evaluator is loaded; the
 * datamodel variables an expression reads ({@link DatamodelValues}) before each evaluation, to the
 * instance's current values (a compiled expression reads them through its evaluation context).
 *
 * <p>One per shard thread; not thread-safe. Evaluation runs inline on the calling thread,
 * bracketed by the {@link EvaluationGuard} so a watchdog can notice an overrun (Saxon cannot be
 * interrupted; see {@code MessageStore}).
 */
public final class QueryEvaluator {

    private final EvaluationGuard guard;
    private final Map<Object, Map<Object, Object>> loaded = new IdentityHashMap<>();
    private long evaluations;

    /** @param guard brackets each evaluation */
    public QueryEvaluator(EvaluationGuard guard) {
        this.guard = guard;
    }

    /**
     * Evaluates an action's XPath with the history document as context item.
     *
     * @param owner    identifies the loaded spec (evaluators are cached per owner)
     * @param bindings the spec's parameter values (all are declared in every XPath)
     * @return the result as an action needs it ({@link PathResult}: several messages, payloads or
     *         other values of one kind are kept together, a mix is its first item), or {@code null}
     *         when empty
     */
    public PathResult evaluatePath(Object owner, CompiledPath path, QueryBindings bindings, History history)
            throws EvaluationException {
        return evaluatePath(owner, path, bindings, DatamodelValues.NONE, history);
    }

    /**
     * {@link #evaluatePath(Object, CompiledPath, QueryBindings, History)} for an instance whose
     * datamodel variables are {@code data}.
     */
    public PathResult evaluatePath(Object owner, CompiledPath path, QueryBindings bindings, DatamodelValues data,
            History history) throws EvaluationException {
        CompiledExpression compiled = path.compiled();
        if (compiled != null) {
            if (!history.queryable()) {
                return null;
            }
            // answered over the entries (the document need not exist); not bracketed by the
            // guard, whose clock reads cost more than most such evaluations: a compiled
            // expression bounds its own steps and fails as fatal when it runs away
            return compiled.select(history, bindings, data);
        }
        XdmValue value = evaluate(owner, path, bindings, data, history);
        if (value == null || value.size() == 0) {
            return null;
        }
        PathResult first = toResult(value.itemAt(0));
        if (value.size() == 1) {
            return first;
        }
        return several(first, value);
    }

    /**
     * The {@code forgetEvents} primitive: removes from {@code history} every entry holding a node
     * the path selects. A path of the compiled subset selects over the entries (no document is
     * built, no Saxon); any other goes through {@link #selectNodes} and {@link History#forget}.
     *
     * @return how many entries were removed
     */
    public int forget(Object owner, CompiledPath path, QueryBindings bindings, DatamodelValues data, History history)
            throws EvaluationException {
        CompiledExpression compiled = path.compiled();
        if (compiled != null) {
            // not bracketed by the guard: a compiled expression bounds its own steps
            return history.queryable() ? history.forgetEntries(compiled.selectedEntries(history, bindings, data)) : 0;
        }
        return history.forget(selectNodes(owner, path, bindings, data, history));
    }

    /**
     * Evaluates an action's XPath and returns the history elements it selected: what the
     * {@code forgetEvents} primitive removes. Items that are not nodes of the history are ignored.
     */
    public List<NodeInfo> selectNodes(Object owner, CompiledPath path, QueryBindings bindings, History history)
            throws EvaluationException {
        return selectNodes(owner, path, bindings, DatamodelValues.NONE, history);
    }

    /** {@link #selectNodes(Object, CompiledPath, QueryBindings, History)} with datamodel variables {@code data}. */
    public List<NodeInfo> selectNodes(Object owner, CompiledPath path, QueryBindings bindings, DatamodelValues data,
            History history) throws EvaluationException {
        XdmValue value = evaluate(owner, path, bindings, data, history);
        if (value == null || value.size() == 0) {
            return List.of();
        }
        List<NodeInfo> out = new ArrayList<>(value.size());
        for (XdmItem item : value) {
            if (item instanceof XdmNode node && node.getUnderlyingNode() instanceof HistNode n) {
                out.add(n);
            }
        }
        return out;
    }

    /** Several messages, several payloads concatenated, or several values; the first item when the kinds are mixed. */
    private static PathResult several(PathResult first, XdmValue value) {
        List<PathResult> items = new ArrayList<>(value.size());
        items.add(first);
        for (int i = 1; i < value.size(); i++) {
            PathResult r = toResult(value.itemAt(i));
            if (r.getClass() != first.getClass()) {
                return first;
            }
            items.add(r);
        }
        if (first instanceof PathResult.Message) {
            List<OverlayMessage> messages = new ArrayList<>(items.size());
            for (PathResult r : items) {
                messages.add(((PathResult.Message) r).message());
            }
            return new PathResult.Messages(messages);
        }
        if (first instanceof PathResult.Text) {
            List<String> texts = new ArrayList<>(items.size());
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

    private XdmValue evaluate(Object owner, CompiledPath path, QueryBindings bindings, DatamodelValues data,
            History history) throws EvaluationException {
        XdmNode doc = history.document();
        if (doc == null) {
            return null;
        }
        return evaluateAt(owner, path, bindings, data, doc);
    }

    /**
     * Evaluates an XPath on Saxon with {@code context} as context item (a message's key,
     * {@link MessageKeyExpression}), under the guard like every Saxon evaluation.
     */
    XdmValue evaluateAt(Object owner, CompiledPath path, QueryBindings bindings, DatamodelValues data, XdmItem doc)
            throws EvaluationException {
        Map<Object, Object> cache = loaded.computeIfAbsent(owner, k -> new IdentityHashMap<>());
        XPathSelector selector = (XPathSelector) cache.get(path);
        boolean first = selector == null;
        if (first) {
            selector = path.executable().load();
            try {
                // Saxon wants a value for every declared variable, read or not: the datamodel
                // variables this path does not read stay empty (those it reads are bound per evaluation)
                for (Iterator<QName> q = path.executable().iterateExternalVariables(); q.hasNext();) {
                    selector.setVariable(q.next(), XdmEmptySequence.getInstance());
                }
                for (Map.Entry<QName, XdmAtomicValue> b : bindings.values().entrySet()) {
                    selector.setVariable(b.getKey(), b.getValue());
                }
            } catch (SaxonApiException e) {
                throw new EvaluationException("XPath '" + path.text() + "': cannot bind parameters: " + e.getMessage(),
                        true, e);
            }
            cache.put(path, selector);
        }
        try {
            List<DatamodelRef> refs = path.data();
            for (int i = 0, n = refs.size(); i < n; i++) {
                DatamodelRef r = refs.get(i);
                selector.setVariable(r.name(), data.value(r.index()));
            }
            selector.setContextItem(doc);
            evaluations++;
            guard.begin(owner, first);
            try {
                return selector.evaluate();
            } finally {
                guard.end();
            }
        } catch (SaxonApiException | RuntimeException e) {
            throw new EvaluationException("XPath '" + path.text() + "' failed: " + e.getMessage(), false, e);
        } catch (StackOverflowError e) {
            throw new EvaluationException("XPath '" + path.text() + "' overflowed the stack", true, e);
        }
    }

    private static PathResult toResult(XdmItem item) {
        if (item instanceof XdmNode node) {
            NodeInfo n = node.getUnderlyingNode();
            if (n instanceof HistLeaf leaf && leaf.bytes() != null) {
                return new PathResult.Bytes(leaf.bytes());
            }
            if (n instanceof HistElement e && !(n instanceof HistLeaf)
                    && HistoryVocabulary.MESSAGE.equals(e.getLocalPart()) && e.origin() instanceof OverlayMessage m) {
                return new PathResult.Message(m);
            }
        } else if (item instanceof XdmAtomicValue a && a.getUnderlyingValue() instanceof BinaryValue b) {
            // a payload:… function's result: its octets, not their base64 text
            return new PathResult.Bytes(b.getBinaryValue());
        }
        return new PathResult.Text(item.getStringValue());
    }

    /**
     * Evaluates a composite event's XQuery with the history document as context item.
     *
     * @return whether the result is true ({@link CompiledQuery#isTrue})
     */
    public boolean evaluateQuery(Object owner, CompiledQuery query, QueryBindings bindings, History history)
            throws EvaluationException {
        return evaluateQuery(owner, query, bindings, DatamodelValues.NONE, history);
    }

    /**
     * {@link #evaluateQuery(Object, CompiledQuery, QueryBindings, History)} for an instance whose
     * datamodel variables are {@code data}.
     */
    public boolean evaluateQuery(Object owner, CompiledQuery query, QueryBindings bindings, DatamodelValues data,
            History history) throws EvaluationException {
        if (!history.queryable()) {
            return false;
        }
        CompiledExpression compiled = query.compiled();
        if (compiled != null) {
            // answered over the entries (the document need not exist); not bracketed by the
            // guard, whose clock reads cost more than most such evaluations: a compiled
            // expression bounds its own steps and fails as fatal when it runs away
            return compiled.isTrue(history, bindings, data);
        }
        XdmNode doc = history.document();
        Map<Object, Object> cache = loaded.computeIfAbsent(owner, k -> new IdentityHashMap<>());
        XQueryEvaluator evaluator = (XQueryEvaluator) cache.get(query);
        boolean first = evaluator == null;
        if (first) {
            evaluator = query.executable().load();
            for (String p : query.parameters()) {
                XdmAtomicValue v = bindings.get(p);
                if (v != null) {
                    evaluator.setExternalVariable(new QName(p), v);
                }
            }
            cache.put(query, evaluator);
        }
        try {
            List<DatamodelRef> refs = query.data();
            for (int i = 0, n = refs.size(); i < n; i++) {
                DatamodelRef r = refs.get(i);
                evaluator.setExternalVariable(r.name(), data.value(r.index()));
            }
            evaluator.setContextItem(doc);
            evaluations++;
            XdmValue value;
            guard.begin(owner, first);
            try {
                value = evaluator.evaluate();
            } finally {
                guard.end();
            }
            return CompiledQuery.isTrue(value);
        } catch (SaxonApiException | RuntimeException e) {
            throw new EvaluationException("XQuery failed: " + e.getMessage(), false, e);
        } catch (StackOverflowError e) {
            throw new EvaluationException("XQuery overflowed the stack", true, e);
        }
    }

    /** Drops the evaluators loaded for {@code owner} (its spec was unloaded). */
    public void forget(Object owner) {
        loaded.remove(owner);
    }

    /** How many Saxon evaluations ran (expressions compiled to Java excluded). */
    public long evaluations() {
        return evaluations;
    }
}
