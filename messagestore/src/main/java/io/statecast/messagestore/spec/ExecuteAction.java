package io.statecast.messagestore.spec;

import java.util.Collection;
import org.apache.commons.logging.Log;
import org.apache.commons.scxml.ErrorReporter;
import org.apache.commons.scxml.EventDispatcher;
import org.apache.commons.scxml.SCInstance;
import org.apache.commons.scxml.model.Action;
import org.apache.commons.scxml.model.ModelException;

/**
 * {@code <action:execute name="…"/>}: hands the compiled {@link ActionTemplate} (this action's
 * create and sets) to the instance's {@link ActionSink}. The template is bound once while the
 * spec is loaded, before the model is published; afterwards the object is read-only and shared
 * by every executor. Public with a bean property only because the Digester instantiates it.
 */
public class ExecuteAction extends Action {

    private static final long serialVersionUID = 1L;

    private String name;
    private transient ActionTemplate template;

    /** For the Digester. */
    public ExecuteAction() {
    }

    /** The primitive's name. */
    public String getName() {
        return name;
    }

    /** From the {@code name} attribute. */
    public void setName(String name) {
        this.name = name;
    }

    /** The compiled action, or null before the spec loader binds it. */
    public ActionTemplate template() {
        return template;
    }

    /** Called once by the spec loader, before publication. */
    void bind(ActionTemplate compiled) {
        if (this.template != null) {
            throw new IllegalStateException("action:execute " + name + " is already bound");
        }
        this.template = compiled;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public void execute(EventDispatcher dispatcher, ErrorReporter reporter, SCInstance instance, Log log,
            Collection derivedEvents) throws ModelException {
        if (template == null) {
            throw new ModelException("action:execute " + name + " was not compiled (spec not loaded by SpecLoader)");
        }
        EngineContext.sinkOf(instance).enqueue(template);
    }
}
