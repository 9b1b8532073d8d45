package io.statecast.messagestore.spec;

import org.apache.commons.scxml.Context;
import org.apache.commons.scxml.Evaluator;
import org.apache.commons.scxml.SCXMLExpressionException;
import org.w3c.dom.Node;

/**
 * An evaluator without an expression language. Commons SCXML always asks its evaluator for
 * contexts; specs never contain expressions (cond, expr, location are refused when loading), so
 * every evaluation request is an error.
 */
public final class NoExpressionEvaluator implements Evaluator {

    /** Stateless; shared. */
    public static final NoExpressionEvaluator INSTANCE = new NoExpressionEvaluator();

    private NoExpressionEvaluator() {
    }

    @Override
    public Object eval(Context ctx, String expr) throws SCXMLExpressionException {
        throw refused(expr);
    }

    @Override
    public Boolean evalCond(Context ctx, String expr) throws SCXMLExpressionException {
        throw refused(expr);
    }

    @Override
    public Node evalLocation(Context ctx, String expr) throws SCXMLExpressionException {
        throw refused(expr);
    }

    @Override
    public Context newContext(Context parent) {
        return EngineContext.child(parent);
    }

    private static SCXMLExpressionException refused(String expr) {
        return new SCXMLExpressionException("specs carry no expressions; refused: " + expr);
    }
}
