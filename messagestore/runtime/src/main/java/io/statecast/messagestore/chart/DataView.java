package io.statecast.messagestore.chart;

import io.statecast.messagestore.event.DatamodelItem;
import io.statecast.messagestore.event.DatamodelValues;
import java.util.List;
import net.sf.saxon.s9api.XdmEmptySequence;
import net.sf.saxon.s9api.XdmValue;

/**
 * A session's datamodel variables as the spec's composite queries and action XPaths read them
 * ({@link DatamodelValues}): by index in the spec's data ids, one live item per variable made on
 * first use, which reads the variable's current value each time it is asked. So an evaluation
 * allocates nothing to read a variable, and no value can be stale.
 */
final class DataView implements DatamodelValues {

    private final Session session;
    private final List<String> ids;
    private final Live[] items;

    DataView(Session session, List<String> ids) {
        this.session = session;
        this.ids = List.copyOf(ids); // the spec's list itself: it is immutable already
        this.items = new Live[ids.size()];
    }

    @Override
    public DatamodelItem item(int index) {
        XPathData d = session.dataIfAny();
        if (d == null || !d.datumBound(ids.get(index))) {
            return null;
        }
        Live it = items[index];
        if (it == null) {
            it = items[index] = new Live(ids.get(index));
        }
        return it;
    }

    @Override
    public XdmValue value(int index) {
        XPathData d = session.dataIfAny();
        return d == null ? XdmEmptySequence.getInstance() : d.datumValue(ids.get(index));
    }

    /** One variable, read through the session's datamodel when asked. */
    private final class Live extends DatamodelItem {
        private final String name;

        Live(String name) {
            this.name = name;
        }

        @Override
        public String text() {
            XPathData d = session.dataIfAny();
            return d == null ? "" : d.datumText(name);
        }

        @Override
        public Number number() {
            XPathData d = session.dataIfAny();
            return d == null ? null : d.datumNumber(name);
        }
    }
}
