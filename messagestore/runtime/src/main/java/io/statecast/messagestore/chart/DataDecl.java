package io.statecast.messagestore.chart;

import org.w3c.dom.Element;

/**
 * A {@code <data>} declaration.
 *
 * @param id      the variable's name
 * @param expr    its initial value's expression, or {@code null}
 * @param content the {@code <data>} element, whose children are the initial value when there is no
 *                {@code expr} or {@code src}
 * @param src     text read from the {@code src} attribute by the compile's data resolver, or {@code null}
 * @param srcError why {@code src} could not be read, or {@code null}
 */
record DataDecl(String id, Expr expr, Element content, String src, String srcError) {
}
