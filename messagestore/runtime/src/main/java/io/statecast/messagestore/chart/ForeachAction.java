package io.statecast.messagestore.chart;

import net.sf.saxon.s9api.XdmItem;
import net.sf.saxon.s9api.XdmValue;

/**
 * {@code <foreach array item index>}: the body once per item of a shallow copy of the array,
 * with {@code item} (and {@code index}, from 1) set each time. The array is bounded by the
 * datamodel's item limit.
 */
record ForeachAction(Expr array, String item, String index, Action[] body) implements Action {

    @Override
    public void run(Session session) throws ChartError {
        XPathData data = session.data();
        XdmValue items = data.evaluate(array);
        int n = items.size();
        if (n > data.limits().maxForeachItems()) {
            throw new ChartError("foreach over " + n + " items, more than the limit of "
                    + data.limits().maxForeachItems() + " (" + array.where() + ")");
        }
        if (!XPathData.isVariableName(item)) {
            throw new ChartError("foreach item '" + item + "' is not a legal variable name");
        }
        if (index != null && !XPathData.isVariableName(index)) {
            throw new ChartError("foreach index '" + index + "' is not a legal variable name");
        }
        int i = 0;
        for (XdmItem it : items) {
            i++;
            data.setVariable(item, it);
            if (index != null) {
                data.setVariable(index, new net.sf.saxon.s9api.XdmAtomicValue(i));
            }
            for (Action a : body) {
                a.run(session);
            }
        }
    }
}
