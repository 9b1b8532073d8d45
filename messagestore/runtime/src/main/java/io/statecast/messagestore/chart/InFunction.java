package io.statecast.messagestore.chart;

import net.sf.saxon.expr.XPathContext;
import net.sf.saxon.lib.ExtensionFunctionCall;
import net.sf.saxon.lib.ExtensionFunctionDefinition;
import net.sf.saxon.lib.NamespaceConstant;
import net.sf.saxon.om.Sequence;
import net.sf.saxon.om.StructuredQName;
import net.sf.saxon.trans.XPathException;
import net.sf.saxon.value.BooleanValue;
import net.sf.saxon.value.SequenceType;

/**
 * The Recommendation's {@code In(stateID)}: whether the evaluating session has that state
 * active. The session reaches the call through the evaluation's controller, where
 * {@link XPathData} puts it before every evaluation.
 */
final class InFunction extends ExtensionFunctionDefinition {

    /** The key under which the session sits in the controller's user data. */
    static final String KEY = "io.statecast.chart.session";

    private static final StructuredQName NAME = new StructuredQName("", NamespaceConstant.FN, "In");

    @Override
    public StructuredQName getFunctionQName() {
        return NAME;
    }

    @Override
    public SequenceType[] getArgumentTypes() {
        return new SequenceType[] {SequenceType.SINGLE_STRING};
    }

    @Override
    public SequenceType getResultType(SequenceType[] suppliedArgumentTypes) {
        return SequenceType.SINGLE_BOOLEAN;
    }

    @Override
    public ExtensionFunctionCall makeCallExpression() {
        return new ExtensionFunctionCall() {
            @Override
            public Sequence call(XPathContext context, Sequence[] arguments) throws XPathException {
                Object s = context.getController() == null ? null : context.getController().getUserData(KEY, KEY);
                if (!(s instanceof Session session)) {
                    throw new XPathException("In() is only available while a session evaluates");
                }
                return BooleanValue.get(session.isActive(arguments[0].head().getStringValue()));
            }
        };
    }
}
