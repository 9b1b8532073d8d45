package io.statecast.messagestore.chart;

/**
 * A {@code <param>} of {@code <send>} or {@code <donedata>}: a name and a value from an expression
 * or a location.
 */
record Param(String name, Expr expr, Expr location) {
}
