package io.statecast.messagestore.event;

import net.sf.saxon.s9api.XdmEmptySequence;
import net.sf.saxon.s9api.XdmValue;

/**
 * The current values of a spec's datamodel variables ({@code <data id="…">}), by the index each
 * id has in the spec's list of data ids ({@code ServiceSpec.dataIds()}): the list the spec's
 * composite queries and action XPaths were compiled against, so a compiled expression finds a
 * variable by index, not by name. An instance's machine provides one ({@code MachineState});
 * asked on the instance's thread, while no step of its machine runs.
 */
public interface DatamodelValues {

    /** No datamodel: every variable is the empty sequence. */
    DatamodelValues NONE = new DatamodelValues() {
        @Override
        public DatamodelItem item(int index) {
            return null;
        }

        @Override
        public XdmValue value(int index) {
            return XdmEmptySequence.getInstance();
        }
    };

    /**
     * Variable {@code index} for a compiled expression: a view of its {@code <data>} element, or
     * {@code null} when it is not bound (the empty sequence). The same object on every call while
     * the variable stays bound: asking allocates nothing.
     */
    DatamodelItem item(int index);

    /** Variable {@code index} for Saxon: its {@code <data>} element as a node, or the empty sequence. */
    XdmValue value(int index);
}
