package io.statecast.messagestore.event;

import java.util.Objects;
import net.sf.saxon.s9api.QName;

/**
 * A datamodel variable an expression evaluated by Saxon reads: bound before each evaluation to
 * its current value ({@link DatamodelValues#value}).
 *
 * @param name  the variable's name
 * @param index its index in the spec's data ids
 */
public record DatamodelRef(QName name, int index) {

    /** Requires the name and a non-negative index. */
    public DatamodelRef {
        Objects.requireNonNull(name, "name");
        if (index < 0) {
            throw new IllegalArgumentException("index " + index + " < 0");
        }
    }
}
