package io.statecast.messagestore.chart;

/**
 * One element of compiled executable content. Running it may raise events, change the datamodel
 * or ask the host for something; an error stops the block it is in ({@link ChartError}).
 */
interface Action {

    /** Executes the element in {@code session}. */
    void run(Session session) throws ChartError;

    /** Runs a block: each element in order, stopping at the first error, which is then raised. */
    static void runBlock(Action[] block, Session session) {
        for (Action a : block) {
            try {
                a.run(session);
            } catch (ChartError e) {
                session.raiseError(e);
                return;
            }
        }
    }
}
