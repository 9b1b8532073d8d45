package io.statecast.messagestore.chart;

/** Executable content of another namespace: hands what it compiled to to the host. */
record CustomAction(Object payload) implements Action {

    @Override
    public void run(Session session) {
        session.host().custom(payload);
    }
}
