package io.statecast.messagestore.tools.scenario;

import java.util.List;
import java.util.Map;

/**
 * A parsed scenario document before it is interpreted: mappings, sequences and scalars, each
 * with the position it starts at and the path that leads to it (for error messages). Every
 * scalar is kept as text; the reader decides what it must be.
 */
sealed interface DocNode {

    /** Where the node starts and how it is reached from the root ({@code steps[2].receive}). */
    Where where();

    /** A position and a path. */
    record Where(String source, int line, int column, String path) {

        /** The path of child {@code key}. */
        Where child(String key, int childLine, int childColumn) {
            return new Where(source, childLine, childColumn, path.isEmpty() ? key : path + "." + key);
        }

        /** The path of element {@code index}. */
        Where element(int index, int childLine, int childColumn) {
            return new Where(source, childLine, childColumn, path + "[" + index + "]");
        }

        /** An error about this node: {@code source:line:column: path: message}. */
        ScenarioException error(String message) {
            return new ScenarioException(source + ":" + line + ":" + column + ": "
                    + (path.isEmpty() ? "" : path + ": ") + message, line);
        }
    }

    /** A mapping; keys in document order. */
    record Mapping(Where where, Map<String, DocNode> entries) implements DocNode {
    }

    /** A sequence. */
    record Sequence(Where where, List<DocNode> items) implements DocNode {
    }

    /** A scalar; {@code text} is {@code null} for a YAML/JSON null. */
    record Scalar(Where where, String text) implements DocNode {
    }

    /** What kind of node this is, for messages. */
    default String kind() {
        if (this instanceof Mapping) {
            return "a mapping";
        }
        if (this instanceof Sequence) {
            return "a list";
        }
        return ((Scalar) this).text() == null ? "null" : "'" + ((Scalar) this).text() + "'";
    }
}
