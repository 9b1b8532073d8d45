package io.statecast.messagestore.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.w3c.dom.Document;
import org.w3c.dom.Node;

/**
 * The hardened reader of spec documents, for components outside this package that compile a
 * document of their own (the statechart engine): no DOCTYPE, no external access, bounded size,
 * element count, depth and time, elements positioned in the source.
 */
public final class SpecDocuments {

    private static final LongSupplier NO_COMPILE_CPU = () -> 0L;

    private SpecDocuments() {
    }

    /**
     * Parses {@code bytes} within {@code limits}.
     *
     * @param source what to call the document in errors
     * @throws SpecException naming what is wrong and where
     */
    public static Document read(String source, byte[] bytes, SpecLimits limits) throws SpecException {
        List<Problem> problems = new ArrayList<>();
        Deadline deadline = Deadline.after(limits.loadTimeout(), limits.loadWallBackstop(), NO_COMPILE_CPU);
        SpecParser.Parsed parsed = SpecParser.parse(bytes, limits, deadline, problems);
        if (parsed == null) {
            throw new SpecException(source, problems);
        }
        return parsed.document();
    }

    /** The 1-based column of an element's start tag in its source, or 0 when unknown. */
    public static int columnOf(Node node) {
        return SourcePosition.of(node).column();
    }

    /** The 1-based line of an element's start tag in its source, or 0 when unknown. */
    public static int lineOf(Node node) {
        return SourcePosition.of(node).line();
    }
}
