package io.statecast.messagestore.chart;

import org.w3c.dom.Element;

/**
 * A final state's {@code <donedata>}: the data of the {@code done.state.ID} event it raises.
 *
 * @param contentExpr {@code <content expr>}, or {@code null}
 * @param content     an inline {@code <content>} element, or {@code null}
 * @param params      the {@code <param>}s
 */
record DoneData(Expr contentExpr, Element content, Param[] params) {
}
