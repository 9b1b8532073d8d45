package io.statecast.messagestore.chart;

/**
 * {@code <if>/<elseif>/<else>}: the block of the first condition that holds. A condition that
 * cannot be evaluated counts as false and raises {@code error.execution}, and evaluation goes on.
 *
 * @param conds  one per branch; {@code null} for {@code <else>}
 * @param blocks the branches' content
 */
record IfAction(Expr[] conds, Action[][] blocks) implements Action {

    @Override
    public void run(Session session) throws ChartError {
        for (int i = 0; i < conds.length; i++) {
            if (conds[i] == null || session.test(conds[i])) {
                for (Action a : blocks[i]) {
                    a.run(session);
                }
                return;
            }
        }
    }
}
