package io.statecast.messagestore.tools.render;

import io.statecast.messagestore.tools.render.StateDiagram.Edge;
import io.statecast.messagestore.tools.render.StateDiagram.EdgeKind;
import io.statecast.messagestore.tools.render.StateDiagram.Node;
import io.statecast.messagestore.tools.render.StateDiagram.NodeKind;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Writes a {@link StateDiagram} as a Mermaid {@code stateDiagram-v2}. Mermaid draws the start and
 * end pseudo-states itself: the initial arc is {@code [*] --> state}, an arc that executes
 * {@code terminate} goes to {@code [*]}. Final states get a class with a thick border, entry and
 * exit actions are state descriptions, compound states nest in {@code state x { … }} and the
 * regions of a parallel state are separated by {@code --}. Mermaid cannot style one transition, so
 * a composite event is marked "(composite)" in its label. Ids Mermaid would misread are aliased.
 */
public final class MermaidWriter {

    private static final Set<String> RESERVED = Set.of("end", "state", "note", "direction", "class", "classdef",
            "click", "style", "as", "left", "right", "of", "over");

    private final StateDiagram d;
    private final StringBuilder sb = new StringBuilder(8 * 1024);
    private final Map<String, String> ids = new HashMap<>();
    private final Set<String> compound = new HashSet<>();

    private MermaidWriter(StateDiagram d) {
        this.d = d;
        Set<String> used = new HashSet<>();
        for (Node n : d.nodes()) {
            if (n.parent() != null) {
                compound.add(n.parent());
            }
            String base = n.id().replaceAll("[^A-Za-z0-9_]", "_");
            if (RESERVED.contains(base.toLowerCase(Locale.ROOT)) || !Character.isLetter(base.charAt(0))) {
                base = "s_" + base;
            }
            String id = base;
            for (int i = 2; !used.add(id); i++) {
                id = base + "_" + i;
            }
            ids.put(n.id(), id);
        }
    }

    /** The Mermaid text of a diagram. */
    public static String write(StateDiagram d) {
        return new MermaidWriter(d).document();
    }

    private String document() {
        sb.append("---\ntitle: \"").append(clean(d.title()).replace("\\", "\\\\").replace("\"", "\\\""))
                .append("\"\n---\n");
        sb.append("stateDiagram-v2\n");
        sb.append("  direction TB\n");
        sb.append("  classDef final fill:").append(Style.FINAL_FILL).append(",stroke:").append(Style.INK)
                .append(",stroke-width:4px\n");
        body(null, "  ");
        for (Node n : d.nodes()) {
            if (n.kind() == NodeKind.FINAL) {
                sb.append("  class ").append(ids.get(n.id())).append(" final\n");
            }
        }
        return sb.toString();
    }

    /** The states inside {@code parent} and the arcs between them (each arc written at its source's level). */
    private void body(String parent, String indent) {
        Node p = parent == null ? null : d.node(parent);
        List<Node> children = d.childrenOf(parent);
        boolean first = true;
        for (Node n : children) {
            if (!n.isState()) {
                continue;
            }
            if (p != null && p.parallel() && !first) {
                sb.append(indent).append("--\n");
            }
            first = false;
            String id = ids.get(n.id());
            if (!id.equals(n.id())) {
                sb.append(indent).append("state \"").append(clean(n.name()).replace("\"", "'")).append("\" as ")
                        .append(id).append('\n');
            }
            if (compound.contains(n.id())) {
                sb.append(indent).append("state ").append(id).append(" {\n");
                body(n.id(), indent + "  ");
                sb.append(indent).append("}\n");
            }
            List<String> details = TextMetrics.details(n);
            if (details.isEmpty() && id.equals(n.id()) && !compound.contains(n.id())) {
                sb.append(indent).append(id).append('\n');
            }
            for (String line : details) {
                sb.append(indent).append(id).append(" : ").append(text(line.strip())).append('\n');
            }
        }
        for (Edge e : d.edges()) {
            Node src = d.node(e.source());
            if (src != null && Objects.equals(src.parent(), parent)) {
                edge(e, indent);
            }
        }
    }

    private void edge(Edge e, String indent) {
        Node src = d.node(e.source());
        Node dst = d.node(e.target());
        String from = src.kind() == NodeKind.INITIAL_MARK ? "[*]" : ids.get(src.id());
        String to = dst.kind() == NodeKind.TERMINATE_MARK ? "[*]" : ids.get(dst.id());
        sb.append(indent).append(from).append(" --> ").append(to);
        String label = e.kind() == EdgeKind.COMPOSITE
                ? e.event() + " (composite)" + (e.actions().isEmpty() ? "" : " / " + String.join(", ", e.actions()))
                : e.label();
        if (!label.isEmpty()) {
            sb.append(" : ").append(text(label));
        }
        sb.append('\n');
    }

    /** Label text Mermaid reads literally: no line breaks, no statement separators or comments. */
    private static String text(String s) {
        return clean(s).replace(";", ",").replace("%%", "%").replace("#", "no.").replace(":", " ");
    }

    private static String clean(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            out.append(c < 0x20 || c == 0x7f ? ' ' : c);
        }
        return out.toString();
    }
}
