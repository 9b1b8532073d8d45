package io.statecast.messagestore.action;

/**
 * An action could not run: its fields do not make a valid primitive call (a required field is
 * unset or an XPath selected nothing, a value does not parse, a unicast has no destination) or an
 * instance limit refused it. The message names the primitive, its line in the spec and the field.
 */
public final class ActionException extends Exception {

    private static final long serialVersionUID = 1L;

    /** @param message what is wrong */
    public ActionException(String message) {
        super(message);
    }
}
