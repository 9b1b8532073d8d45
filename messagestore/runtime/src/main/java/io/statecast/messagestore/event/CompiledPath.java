package io.statecast.messagestore.event;

import java.util.List;
import java.util.Objects;
import net.sf.saxon.s9api.XPathExecutable;

/**
 * An XPath of an {@code action:set xpath="…"}, compiled once when the spec is loaded. The
 * context item is the instance's history document; spec parameters and datamodel variables are in
 * scope as variables ({@code $TimeoutACK}, {@code $rto}): bind every parameter
 * ({@code XPathSelector.setVariable}) and the datamodel variables it reads ({@code data}) before
 * evaluating. Thread-safe; load a selector per evaluation or reuse one per thread.
 *
 * @param text       the expression as written in the spec
 * @param executable the compiled expression
 * @param reads      which events' XML forms it may read
 * @param data       the datamodel variables Saxon's form of it reads
 * @param compiled   the expression compiled to Java ({@link CompiledExpression}, the documented
 *                   subset), or {@code null} when Saxon evaluates it
 */
public record CompiledPath(String text, XPathExecutable executable, HistoryReads reads, List<DatamodelRef> data,
        CompiledExpression compiled) {

    /** Requires every component but the compiled form. */
    public CompiledPath {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(executable, "executable");
        Objects.requireNonNull(reads, "reads");
        data = List.copyOf(data);
    }

    /** An expression that reads no datamodel variable. */
    public CompiledPath(String text, XPathExecutable executable, HistoryReads reads, CompiledExpression compiled) {
        this(text, executable, reads, List.of(), compiled);
    }
}
