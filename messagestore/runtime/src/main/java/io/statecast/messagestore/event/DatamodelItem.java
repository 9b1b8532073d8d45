package io.statecast.messagestore.event;

import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * A variable of the spec's SCXML datamodel as a compiled expression ({@link CompiledExpression})
 * sees it: the variable's {@code <data>} element, which is what {@code $name} is in the XPath
 * datamodel. The subset reads only its atomized value, an {@code xs:untypedAtomic} (the element's
 * string value), and its effective boolean value (true: it is a node); navigation into it is left
 * to Saxon ({@link SubsetParser} keeps such expressions out of the subset).
 *
 * <p>Like a history node ({@code HistoryItem}), an item is also the sequence of just itself, so
 * an evaluation that reads a variable makes no list. Equality is identity. Implementations read the datamodel when
 * asked (they are views, not copies), so one item per variable serves every evaluation.
 */
public abstract class DatamodelItem extends AbstractList<Object> implements RandomAccess {

    /** For subclasses. */
    protected DatamodelItem() {
    }

    /** The variable's string value (its {@code <data>} element's text content), never {@code null}. */
    public abstract String text();

    /**
     * The value as the number its text parses to, when the datamodel holds it as a Java number
     * ({@code Long} or {@code Double}, the result of an arithmetic {@code <assign>}); {@code null}
     * otherwise. Lets a numeric comparison skip parsing the text; the result is the same.
     */
    public Number number() {
        return null;
    }

    @Override
    public final int size() {
        return 1;
    }

    @Override
    public final Object get(int i) {
        if (i != 0) {
            throw new IndexOutOfBoundsException(i);
        }
        return this;
    }

    @Override
    public final boolean equals(Object o) {
        return o == this;
    }

    @Override
    public final int hashCode() {
        return System.identityHashCode(this);
    }

    /** The string value. */
    @Override
    public final String toString() {
        return text();
    }
}
