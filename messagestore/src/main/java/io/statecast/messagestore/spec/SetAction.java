package io.statecast.messagestore.spec;

import java.util.Collection;
import org.apache.commons.logging.Log;
import org.apache.commons.scxml.ErrorReporter;
import org.apache.commons.scxml.EventDispatcher;
import org.apache.commons.scxml.SCInstance;
import org.apache.commons.scxml.model.Action;

/**
 * {@code <action:set name="…" field="…" value|xpath|param="…" [type="…"]/>}: assigns one field of an action
 * under construction. Compiled into the {@link ActionTemplate} of the matching
 * {@link ExecuteAction} when the spec is loaded; does nothing at run time. Public with bean
 * properties only because the Digester instantiates it.
 */
public class SetAction extends Action {

    private static final long serialVersionUID = 1L;

    private String name;
    private String field;
    private String value;
    private String xpath;
    private String param;
    private String type;
    private String sequence;

    /** For the Digester. */
    public SetAction() {
    }

    /** The primitive's name. */
    public String getName() {
        return name;
    }

    /** From the {@code name} attribute. */
    public void setName(String name) {
        this.name = name;
    }

    /** The field path. */
    public String getField() {
        return field;
    }

    /** From the {@code field} attribute. */
    public void setField(String field) {
        this.field = field;
    }

    /** A literal value, or null. */
    public String getValue() {
        return value;
    }

    /** From the {@code value} attribute. */
    public void setValue(String value) {
        this.value = value;
    }

    /** An XPath over the history, or null. */
    public String getXpath() {
        return xpath;
    }

    /** From the {@code xpath} attribute. */
    public void setXpath(String xpath) {
        this.xpath = xpath;
    }

    /** A parameter name, or null. */
    public String getParam() {
        return param;
    }

    /** From the {@code param} attribute. */
    public void setParam(String param) {
        this.param = param;
    }

    /** A message field's type ({@code integer}, {@code string}, {@code bytes}, {@code ranges}), or null. */
    public String getType() {
        return type;
    }

    /** From the {@code type} attribute. */
    public void setType(String type) {
        this.type = type;
    }

    /** {@code instance} or {@code next}: a sequence number of the flow, or null. */
    public String getSequence() {
        return sequence;
    }

    /** From the {@code sequence} attribute. */
    public void setSequence(String sequence) {
        this.sequence = sequence;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public void execute(EventDispatcher dispatcher, ErrorReporter reporter, SCInstance instance, Log log,
            Collection derivedEvents) {
        // Compiled into the template of the matching action:execute.
    }
}
