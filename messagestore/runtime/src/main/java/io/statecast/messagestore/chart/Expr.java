package io.statecast.messagestore.chart;

import net.sf.saxon.s9api.XPathExecutable;

/**
 * A compiled XPath expression of a chart, or the reason it does not compile. A chart compiled
 * leniently keeps expressions that do not compile so that evaluating them raises
 * {@code error.execution} at run time, as the Recommendation asks; a strict compile refuses them.
 *
 * @param text       the source text
 * @param executable Saxon's compiled form, or {@code null} when {@code error} is set
 * @param error      why it does not compile, or {@code null}
 * @param where      where it stands in the document ({@code line N, <element attr>}), for errors
 * @param subset     the same expression compiled by {@link SubsetCompiler} when it is in the subset
 *                   evaluated without Saxon, else {@code null}
 */
record Expr(String text, XPathExecutable executable, String error, String where, SubsetExpr subset) {

    /** Whether the expression names {@code $_x} (its value is asked of the host only then). */
    boolean readsPlatform() {
        return ChartCompiler.namesVariable(text, "_x");
    }
}
