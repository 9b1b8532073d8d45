package io.statecast.messagestore.tools.render;

import io.statecast.messagestore.tools.render.StateDiagram.Edge;
import io.statecast.messagestore.tools.render.StateDiagram.EdgeKind;
import io.statecast.messagestore.tools.render.StateDiagram.Node;
import io.statecast.messagestore.tools.render.StateDiagram.NodeKind;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes a {@link StateDiagram} as Graphviz DOT with the same conventions as the SVG: rounded
 * boxes, the initial state grey and pointed at from a dot, final states with a double border,
 * terminate marks, "event / primitives" labels, composite-event arcs dashed and blue. Compound
 * and parallel states become clusters (parallel ones dashed); arcs to or from them are clipped at
 * the cluster with {@code lhead}/{@code ltail}. Every id and label is a quoted, escaped string.
 */
public final class DotWriter {

    private final StateDiagram d;
    private final StringBuilder sb = new StringBuilder(8 * 1024);
    private final Set<String> clusters = new HashSet<>();

    private DotWriter(StateDiagram d) {
        this.d = d;
        for (Node n : d.nodes()) {
            if (n.parent() != null) {
                clusters.add(n.parent());
            }
        }
    }

    /** The DOT text of a diagram. */
    public static String write(StateDiagram d) {
        return new DotWriter(d).document();
    }

    private String document() {
        sb.append("digraph ").append(q(d.title())).append(" {\n");
        sb.append("  graph [rankdir=TB, compound=true, labelloc=t, labeljust=l, fontname=\"DejaVu Sans Bold\", "
                + "fontsize=14, label=").append(q(d.title())).append("];\n");
        sb.append("  node [shape=box, style=\"rounded\", fontname=\"DejaVu Sans\", fontsize=12, color=\"")
                .append(Style.INK).append("\"];\n");
        sb.append("  edge [fontname=\"DejaVu Sans Mono\", fontsize=10, color=\"").append(Style.ARC)
                .append("\", arrowsize=0.7];\n");
        Set<String> initial = new HashSet<>();
        for (Edge e : d.edges()) {
            if (e.id().equals("e_init")) {
                initial.add(e.target());
            }
        }
        nodes(null, "  ", initial);
        for (Edge e : d.edges()) {
            edge(e);
        }
        sb.append("}\n");
        return sb.toString();
    }

    private void nodes(String parent, String indent, Set<String> initial) {
        for (Node n : d.childrenOf(parent)) {
            if (clusters.contains(n.id())) {
                sb.append(indent).append("subgraph ").append(q("cluster_" + n.id())).append(" {\n");
                sb.append(indent).append("  label=").append(q(stateText(n))).append(";\n");
                sb.append(indent).append("  style=\"rounded").append(n.parallel() ? ",dashed" : "")
                        .append(",filled\"; fillcolor=\"").append(Style.COMPOUND_FILL).append("\"; color=\"")
                        .append(Style.INK).append("\"; fontname=\"DejaVu Sans\"; fontsize=12;\n");
                nodes(n.id(), indent + "  ", initial);
                sb.append(indent).append("}\n");
                continue;
            }
            sb.append(indent).append(q(n.id())).append(" [");
            switch (n.kind()) {
                case INITIAL_MARK -> sb.append("shape=point, width=0.15, label=\"\"");
                case TERMINATE_MARK -> sb.append("shape=circle, width=0.22, fixedsize=true, label=\"\u00d7\", "
                        + "fontsize=14");
                case STATE, FINAL -> {
                    sb.append("label=").append(q(stateText(n)));
                    boolean grey = n.kind() == NodeKind.FINAL || initial.contains(n.id());
                    if (grey) {
                        sb.append(", style=\"rounded,filled\", fillcolor=\"").append(Style.INITIAL_FILL).append('"');
                    }
                    if (n.kind() == NodeKind.FINAL) {
                        sb.append(", peripheries=2");
                    }
                }
                default -> throw new AssertionError(n.kind());
            }
            sb.append("];\n");
        }
    }

    private void edge(Edge e) {
        String tail = anchor(e.source());
        String head = anchor(e.target());
        sb.append("  ").append(q(tail)).append(" -> ").append(q(head)).append(" [");
        List<String> lines = TextMetrics.edgeLabel(e);
        StringBuilder attrs = new StringBuilder();
        if (!lines.isEmpty()) {
            attrs.append("label=").append(q(String.join("\n", lines) + "\n", true));
        }
        if (e.kind() == EdgeKind.COMPOSITE) {
            attrs.append(attrs.length() == 0 ? "" : ", ").append("style=dashed, color=\"").append(Style.COMPOSITE)
                    .append("\", fontcolor=\"").append(Style.COMPOSITE)
                    .append("\", fontname=\"DejaVu Sans Mono Oblique\"");
        }
        if (!tail.equals(e.source())) {
            attrs.append(attrs.length() == 0 ? "" : ", ").append("ltail=").append(q("cluster_" + e.source()));
        }
        if (!head.equals(e.target())) {
            attrs.append(attrs.length() == 0 ? "" : ", ").append("lhead=").append(q("cluster_" + e.target()));
        }
        sb.append(attrs).append("];\n");
    }

    /** The node an arc attaches to: the state itself, or for a cluster the first node inside it. */
    private String anchor(String id) {
        String a = id;
        while (clusters.contains(a)) {
            a = d.childrenOf(a).get(0).id();
        }
        return a;
    }

    private static String stateText(Node n) {
        List<String> details = TextMetrics.details(n);
        return details.isEmpty() ? n.name() : n.name() + "\n" + String.join("\n", details);
    }

    private static String q(String s) {
        return q(s, false);
    }

    /**
     * A DOT double-quoted string. Newlines become {@code \n} (centred) or, for arc labels,
     * {@code \l} (left-justified); quotes and backslashes are escaped; other control characters
     * are dropped.
     */
    static String q(String s, boolean leftJustified) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append(leftJustified ? "\\l" : "\\n");
                default -> {
                    if (c >= 0x20 && c != 0x7f) {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
