package io.statecast.messagestore.chart;

/** {@code <raise event>}: an internal event. */
record RaiseAction(String event) implements Action {

    @Override
    public void run(Session session) {
        session.raiseInternal(ChartEvent.internal(event));
    }
}
