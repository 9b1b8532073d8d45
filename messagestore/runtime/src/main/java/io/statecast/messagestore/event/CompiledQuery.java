package io.statecast.messagestore.event;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import net.sf.saxon.s9api.XQueryExecutable;
import net.sf.saxon.s9api.XdmAtomicValue;
import net.sf.saxon.s9api.XdmItem;
import net.sf.saxon.s9api.XdmValue;

/**
 * The XQuery of a composite event, compiled once when the spec is loaded and shared by every
 * instance. An {@link XQueryExecutable} is thread-safe; each evaluation loads its own
 * {@code XQueryEvaluator} (reuse one per thread), sets the history document as context item,
 * binds the declared external parameters (once) and datamodel variables (before each
 * evaluation, to their current values), and runs inline on the shard's thread under the
 * watch of {@link EvaluationGuard} ({@link QueryEvaluator}).
 *
 * @param text       the query as written in the spec
 * @param executable the compiled query
 * @param reads      which events' XML forms the query may read
 * @param parameters the spec parameters the query declares as external variables
 * @param data       the datamodel variables the query declares as external variables
 * @param compiled   the query compiled to Java ({@link CompiledExpression}, the documented
 *                   subset), or {@code null} when Saxon evaluates it
 */
public record CompiledQuery(String text, XQueryExecutable executable, HistoryReads reads, Set<String> parameters,
        List<DatamodelRef> data, CompiledExpression compiled) {

    /** Requires every component but the compiled form. */
    public CompiledQuery {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(executable, "executable");
        Objects.requireNonNull(reads, "reads");
        parameters = Set.copyOf(parameters);
        data = List.copyOf(data);
    }

    /** A query that reads no datamodel variable. */
    public CompiledQuery(String text, XQueryExecutable executable, HistoryReads reads, Set<String> parameters,
            CompiledExpression compiled) {
        this(text, executable, reads, parameters, List.of(), compiled);
    }

    /** A compiled query without datamodel variables, compiled to Java too when it is in the subset. */
    public CompiledQuery(String text, XQueryExecutable executable, HistoryReads reads, Set<String> parameters) {
        this(text, executable, reads, parameters, CompiledExpression.compile(text, true, parameters));
    }

    /**
     * The truth of a composite event's query result: true when the result is non-empty and every
     * item is true, that is an {@code xs:boolean} true or an item whose string value is
     * {@code "true"}. So {@code every $c in … satisfies …} works, and so does the blueprint's style
     * of returning one {@code <out>true</out>} or {@code <out>false</out>} per checked node.
     */
    public static boolean isTrue(XdmValue result) {
        if (result.size() == 0) {
            return false;
        }
        for (XdmItem item : result) {
            if (item instanceof XdmAtomicValue a && a.getValue() instanceof Boolean b) {
                if (!b) {
                    return false;
                }
            } else if (!"true".equals(item.getStringValue().strip())) {
                return false;
            }
        }
        return true;
    }
}
