package io.statecast.messagestore.tools.render;

import java.util.ArrayList;
import java.util.List;

/**
 * Text sizes for layout, computed without fonts so that a diagram comes out the same on every
 * machine. Arc labels and state details are monospace (every character 0.6 em: DejaVu Sans Mono,
 * Menlo and Courier are 0.600–0.602 em, Consolas narrower); state names are a bold sans-serif,
 * estimated from DejaVu Sans Bold, the widest of the usual ones, so other fonts only leave room.
 */
final class TextMetrics {

    /** Font size of arc labels and state details, px. */
    static final double MONO_SIZE = 11;
    /** Font size of state names, px. */
    static final double NAME_SIZE = 13;
    /** Font size of the title, px. */
    static final double TITLE_SIZE = 14;
    /** Line height of monospace text, px. */
    static final double MONO_LINE = 14;
    /** Line height of state names, px. */
    static final double NAME_LINE = 17;
    /** Advance of one monospace character, em. */
    static final double MONO_ADVANCE = 0.602;
    /** Characters per arc-label line before wrapping. */
    static final int LABEL_WRAP = 34;
    /** Characters per state-detail line before wrapping. */
    static final int DETAIL_WRAP = 40;

    private TextMetrics() {
    }

    /** Width of a monospace line, px. */
    static double monoWidth(String text) {
        return text.codePointCount(0, text.length()) * MONO_ADVANCE * MONO_SIZE;
    }

    /** Width of the widest of some monospace lines, px. */
    static double monoWidth(List<String> lines) {
        double w = 0;
        for (String l : lines) {
            w = Math.max(w, monoWidth(l));
        }
        return w;
    }

    /** Width of a bold sans-serif line at {@code size} px (DejaVu Sans Bold advances, rounded up). */
    static double boldWidth(String text, double size) {
        double em = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if ("iljI.,:;'|!".indexOf(c) >= 0) {
                em += 0.36;
            } else if ("ft()-[]".indexOf(c) >= 0) {
                em += 0.45;
            } else if ("mwMW".indexOf(c) >= 0) {
                em += 1.05;
            } else if (Character.isUpperCase(c) || Character.isDigit(c) && c != '1') {
                em += 0.78;
            } else {
                em += 0.70;
            }
        }
        return em * size;
    }

    /**
     * Breaks {@code items} into lines of at most {@code width} characters: the first line starts
     * with {@code head}, items are joined with ", " and a line never splits an item; continuation
     * lines are indented by {@code indent} spaces.
     */
    static List<String> wrap(String head, List<String> items, int width, int indent) {
        List<String> lines = new ArrayList<>();
        String pad = " ".repeat(indent);
        StringBuilder line = new StringBuilder(head);
        boolean empty = true;
        for (int i = 0; i < items.size(); i++) {
            String item = items.get(i) + (i < items.size() - 1 ? "," : "");
            if (!empty && line.length() + 1 + item.length() > width) {
                lines.add(line.toString());
                line = new StringBuilder(pad);
            }
            if (line.length() > 0 && line.charAt(line.length() - 1) != ' ') {
                line.append(' ');
            }
            line.append(item);
            empty = false;
        }
        if (line.length() > 0) {
            lines.add(line.toString());
        }
        return lines;
    }

    /** An arc's label lines: "event /" then the primitives, wrapped; the event alone without any. */
    static List<String> edgeLabel(StateDiagram.Edge e) {
        if (e.kind() == StateDiagram.EdgeKind.INITIAL) {
            return e.actions().isEmpty() ? List.of() : wrap("/", e.actions(), LABEL_WRAP, 2);
        }
        if (e.actions().isEmpty()) {
            return List.of(e.event());
        }
        List<String> lines = new ArrayList<>();
        lines.add(e.event() + " /");
        lines.addAll(wrap("", e.actions(), LABEL_WRAP, 0));
        return lines;
    }

    /** A state's detail lines (entry and exit actions), wrapped. */
    static List<String> details(StateDiagram.Node n) {
        List<String> lines = new ArrayList<>();
        if (!n.entry().isEmpty()) {
            lines.addAll(wrap("entry /", n.entry(), DETAIL_WRAP, 2));
        }
        if (!n.exit().isEmpty()) {
            lines.addAll(wrap("exit /", n.exit(), DETAIL_WRAP, 2));
        }
        return lines;
    }
}
