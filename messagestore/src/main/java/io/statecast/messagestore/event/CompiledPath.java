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
 */
public record CompiledPath(String text, XPathExecutable executable, HistoryReads reads) {

    /** Requires every component. */
    public CompiledPath {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(executable, "executable");
        Objects.requireNonNull(reads, "reads");
    }
}
