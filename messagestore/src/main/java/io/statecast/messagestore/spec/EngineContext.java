package io.statecast.messagestore.spec;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.commons.scxml.Context;
import org.apache.commons.scxml.SCInstance;
import org.apache.commons.scxml.model.ModelException;

/**
 * The variable context Commons SCXML insists on even though specs have no expressions. The engine
 * stores a few internal values in it (current states, event data). The root context also carries
 * the instance's {@link ActionSink}, which {@link ExecuteAction} looks up.
 *
 * <p>The engine's own system variables ({@code _ALL_STATES}, {@code _eventdata},
 * {@code _eventdatamap}) are not stored: they exist for expression languages, and specs have none
 * (every expression is refused by {@link NoExpressionEvaluator}), while storing them kept a map and
 * a copy of the state set alive in every instance (about 400 bytes each).
 *
 * <p>Confined to the executor's thread, like the executor.
 */
public final class EngineContext implements Context {

    private final Context parent;
    private final ActionSink sink;
    private Map<String, Object> vars;

    private EngineContext(Context parent, ActionSink sink) {
        this.parent = parent;
        this.sink = sink;
    }

    /** The root context of one executor, carrying its sink. */
    public static EngineContext root(ActionSink sink) {
        return new EngineContext(null, Objects.requireNonNull(sink, "sink"));
    }

    /** A child context (one per state, created by the engine through the evaluator). */
    static EngineContext child(Context parent) {
        return new EngineContext(parent, null);
    }

    /** The sink of the executor running {@code instance}. */
    static ActionSink sinkOf(SCInstance instance) throws ModelException {
        Context root = instance.getRootContext();
        if (root instanceof EngineContext c && c.sink != null) {
            return c.sink;
        }
        throw new ModelException("executor has no action sink: create it with ServiceSpec.newExecutor");
    }

    @Override
    public void set(String name, Object value) {
        if (!has(name) || (vars != null && vars.containsKey(name)) || parent == null) {
            setLocal(name, value);
        } else {
            parent.set(name, value);
        }
    }

    @Override
    public void setLocal(String name, Object value) {
        if (engineVariable(name)) {
            return;
        }
        if (vars == null) {
            vars = new HashMap<>(4);
        }
        vars.put(name, value);
    }

    /** The engine's system variables, written by Commons SCXML for expressions only. */
    private static boolean engineVariable(String name) {
        return name != null && name.startsWith("_") && (name.equals("_ALL_STATES") || name.equals("_eventdata")
                || name.equals("_eventdatamap"));
    }

    @Override
    public Object get(String name) {
        if (vars != null && vars.containsKey(name)) {
            return vars.get(name);
        }
        return parent == null ? null : parent.get(name);
    }

    @Override
    public boolean has(String name) {
        return (vars != null && vars.containsKey(name)) || (parent != null && parent.has(name));
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Map getVars() {
        if (vars == null) {
            vars = new HashMap<>(4);
        }
        return vars;
    }

    @Override
    public void reset() {
        if (vars != null) {
            vars.clear();
        }
    }

    @Override
    public Context getParent() {
        return parent;
    }
}
