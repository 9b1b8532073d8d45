package io.statecast.messagestore.chart;

import org.w3c.dom.Element;

/**
 * {@code <assign location expr|content type attr>} of the XPath datamodel (Recommendation B.2.3):
 * the location selects nodes of the datamodel; the value replaces their children (the default),
 * or is inserted, replaces them, deletes them, or becomes an attribute.
 */
record AssignAction(Expr location, Expr expr, Element content, AssignType type, String attr) implements Action {

    /** The {@code type} attribute's values. */
    enum AssignType {
        REPLACECHILDREN, FIRSTCHILD, LASTCHILD, PREVIOUSSIBLING, NEXTSIBLING, REPLACE, DELETE, ADDATTRIBUTE;

        static AssignType of(String s) {
            return s == null ? REPLACECHILDREN : valueOf(s.trim().toUpperCase(java.util.Locale.ROOT));
        }
    }

    @Override
    public void run(Session session) throws ChartError {
        session.data().assign(this);
    }
}
