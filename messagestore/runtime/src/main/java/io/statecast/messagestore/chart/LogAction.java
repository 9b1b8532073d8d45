package io.statecast.messagestore.chart;

/** {@code <log label expr>}: hands a label and the expression's string value to the host. */
record LogAction(String label, Expr expr) implements Action {

    @Override
    public void run(Session session) throws ChartError {
        String value = expr == null ? "" : session.data().logString(expr);
        session.host().log(label == null ? "" : label, value);
    }
}
