package io.statecast.messagestore.event;

import java.util.Objects;
import net.sf.saxon.s9api.XPathExecutable;

/**
 * An XPath of an {@code action:set xpath="…"}, compiled once when the spec is loaded. The
 * context item is the instance's history document; spec parameters are in scope as variables
 * ({@code $TimeoutACK}): bind every one of them ({@code XPathSelector.setVariable}) before
 * evaluating. Thread-safe; load a selector per evaluation or reuse one per thread.
 *
 * @param text       the expression as written in the spec
 * @param executable the compiled expression
 * @param reads      which events' XML forms it may read
 * @param compiled   the expression compiled to Java ({@link CompiledExpression}, the documented
 *                   subset), or {@code null} when Saxon evaluates it
 */
public record CompiledPath(String text, XPathExecutable executable, HistoryReads reads, CompiledExpression compiled) {

    /** Requires every component but the compiled form. */
    public CompiledPath {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(executable, "executable");
        Objects.requireNonNull(reads, "reads");
    }
}
