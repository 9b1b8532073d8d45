package io.statecast.messagestore.chart;

/** {@code <cancel sendid|sendidexpr>}: drops a delayed {@code <send>} of this session not yet due. */
record CancelAction(String sendId, Expr sendIdExpr) implements Action {

    @Override
    public void run(Session session) throws ChartError {
        String id = sendIdExpr == null ? sendId : session.data().string(sendIdExpr);
        session.cancelSend(id);
    }
}
