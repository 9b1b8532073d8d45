package io.statecast.messagestore.spec;

import java.util.Collection;
import org.apache.commons.logging.Log;
import org.apache.commons.scxml.ErrorReporter;
import org.apache.commons.scxml.EventDispatcher;
import org.apache.commons.scxml.SCInstance;
import org.apache.commons.scxml.model.Action;

/**
 * {@code <action:create name="…"/>}: starts building an action. Its effect is compiled into the
 * {@link ActionTemplate} of the matching {@link ExecuteAction} when the spec is loaded, so at
 * run time it does nothing. Public with a bean property only because Commons SCXML's Digester
 * instantiates it; do not use it directly.
 */
public class CreateAction extends Action {

    private static final long serialVersionUID = 1L;

    private String name;

    /** For the Digester. */
    public CreateAction() {
    }

    /** The primitive's name. */
    public String getName() {
        return name;
    }

    /** Set by the Digester from the {@code name} attribute. */
    public void setName(String name) {
        this.name = name;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public void execute(EventDispatcher dispatcher, ErrorReporter reporter, SCInstance instance, Log log,
            Collection derivedEvents) {
        // Compiled into the template of the matching action:execute.
    }
}
