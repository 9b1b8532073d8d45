package io.statecast.messagestore.tools.render;

import io.statecast.messagestore.tools.render.Layout.Arc;
import io.statecast.messagestore.tools.render.Layout.Box;
import io.statecast.messagestore.tools.render.Layout.Point;
import io.statecast.messagestore.tools.render.StateDiagram.EdgeKind;
import io.statecast.messagestore.tools.render.StateDiagram.NodeKind;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Writes a {@link Layout} as a standalone SVG 1.1 document: plain elements with presentation
 * attributes (no CSS, no scripts, no external references), every text escaped. States are rounded
 * boxes (the initial one grey, final ones with a double border), arcs carry arrowheads and
 * "event / primitives" labels on a white ground; arcs on composite events are dashed and blue with
 * italic labels.
 */
public final class SvgWriter {

    private final StringBuilder sb = new StringBuilder(16 * 1024);

    private SvgWriter() {
    }

    /** The SVG document of a layout. */
    public static String write(Layout layout) {
        return new SvgWriter().document(layout);
    }

    private String document(Layout l) {
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"").append(n(l.width()))
                .append("\" height=\"").append(n(l.height())).append("\" viewBox=\"0 0 ").append(n(l.width()))
                .append(' ').append(n(l.height())).append("\">\n");
        sb.append("<title>").append(escape(l.title())).append("</title>\n");
        sb.append("<defs>\n");
        marker("arrow", Style.ARC);
        marker("arrow-composite", Style.COMPOSITE);
        sb.append("</defs>\n");
        sb.append("<rect x=\"0\" y=\"0\" width=\"").append(n(l.width())).append("\" height=\"").append(n(l.height()))
                .append("\" fill=\"#ffffff\"/>\n");
        text(DiagramLayout.MARGIN, DiagramLayout.MARGIN + TextMetrics.TITLE_SIZE, l.title(), Style.SANS_FAMILY,
                TextMetrics.TITLE_SIZE, "bold", "normal", Style.INK, "start");
        Set<String> initial = initialStates(l);
        for (Box b : l.boxes()) {
            box(b, initial.contains(b.node().id()));
        }
        for (Arc a : l.arcs()) {
            arc(a);
        }
        for (Arc a : l.arcs()) {
            label(a);
        }
        legend(l.legend());
        sb.append("</svg>\n");
        return sb.toString();
    }

    static Set<String> initialStates(Layout l) {
        Set<String> out = new HashSet<>();
        for (Arc a : l.arcs()) {
            if (a.edge().kind() == EdgeKind.INITIAL && a.edge().id().equals("e_init")) {
                out.add(a.edge().target());
            }
        }
        return out;
    }

    private void marker(String id, String colour) {
        sb.append("<marker id=\"").append(id).append("\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" ")
                .append("markerUnits=\"userSpaceOnUse\" markerWidth=\"").append(n(Style.ARROW_LENGTH))
                .append("\" markerHeight=\"").append(n(2 * Style.ARROW_HALF_WIDTH))
                .append("\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"").append(colour)
                .append("\"/></marker>\n");
    }

    private void box(Box b, boolean initial) {
        NodeKind k = b.node().kind();
        switch (k) {
            case INITIAL_MARK -> sb.append("<circle cx=\"").append(n(b.x() + b.w() / 2)).append("\" cy=\"")
                    .append(n(b.y() + b.h() / 2)).append("\" r=\"").append(n(b.w() / 2 - 1)).append("\" fill=\"")
                    .append(Style.INK).append("\"/>\n");
            case TERMINATE_MARK -> {
                double cx = b.x() + b.w() / 2;
                double cy = b.y() + b.h() / 2;
                double r = b.w() / 2 - 1;
                double d = r * 0.7071;
                sb.append("<g stroke=\"").append(Style.INK).append("\" stroke-width=\"1.4\"><circle cx=\"")
                        .append(n(cx)).append("\" cy=\"").append(n(cy)).append("\" r=\"").append(n(r))
                        .append("\" fill=\"#ffffff\"/><path d=\"M").append(n(cx - d)).append(',').append(n(cy - d))
                        .append(" L").append(n(cx + d)).append(',').append(n(cy + d)).append(" M").append(n(cx - d))
                        .append(',').append(n(cy + d)).append(" L").append(n(cx + d)).append(',').append(n(cy - d))
                        .append("\"/></g>\n");
            }
            case STATE, FINAL -> state(b, initial);
            default -> throw new AssertionError(k);
        }
    }

    private void state(Box b, boolean initial) {
        boolean fin = b.node().kind() == NodeKind.FINAL;
        String fill = b.compound() ? Style.COMPOUND_FILL : fin ? Style.FINAL_FILL : initial ? Style.INITIAL_FILL
                : Style.STATE_FILL;
        String dash = b.node().parallel() ? " stroke-dasharray=\"6 4\"" : "";
        rect(b.x(), b.y(), b.w(), b.h(), fill, dash);
        double inset = 0;
        if (fin) {
            inset = 4;
            rect(b.x() + inset, b.y() + inset, b.w() - 2 * inset, b.h() - 2 * inset, "none", "");
        }
        double nameY = b.y() + inset + 7 + TextMetrics.NAME_SIZE;
        if (b.compound()) {
            text(b.x() + 12, nameY, b.node().name(), Style.SANS_FAMILY, TextMetrics.NAME_SIZE, "bold", "normal",
                    Style.INK, "start");
        } else {
            text(b.x() + b.w() / 2, nameY, b.node().name(), Style.SANS_FAMILY, TextMetrics.NAME_SIZE, "bold",
                    "normal", Style.INK, "middle");
        }
        if (!b.details().isEmpty()) {
            double sepY = b.y() + inset + 7 + TextMetrics.NAME_LINE + 2;
            sb.append("<line x1=\"").append(n(b.x() + inset)).append("\" y1=\"").append(n(sepY)).append("\" x2=\"")
                    .append(n(b.x() + b.w() - inset)).append("\" y2=\"").append(n(sepY)).append("\" stroke=\"")
                    .append(Style.INK).append("\" stroke-width=\"0.6\"/>\n");
            lines(b.x() + inset + 12, sepY + 2 + TextMetrics.MONO_SIZE, b.details(), Style.DETAIL_INK, "normal");
        }
    }

    private void rect(double x, double y, double w, double h, String fill, String extra) {
        sb.append("<rect x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" width=\"").append(n(w))
                .append("\" height=\"").append(n(h)).append("\" rx=\"").append(n(Style.CORNER)).append("\" ry=\"")
                .append(n(Style.CORNER)).append("\" fill=\"").append(fill).append("\" stroke=\"").append(Style.INK)
                .append("\" stroke-width=\"").append(n(Style.STATE_STROKE)).append('"').append(extra).append("/>\n");
    }

    private void arc(Arc a) {
        List<Point> p = a.points();
        if (p.size() < 2) {
            return;
        }
        boolean composite = a.edge().kind() == EdgeKind.COMPOSITE;
        StringBuilder d = new StringBuilder("M").append(n(p.get(0).x())).append(',').append(n(p.get(0).y()));
        if (a.spline()) {
            for (int i = 1; i + 2 < p.size(); i += 3) {
                d.append(" C").append(pt(p.get(i))).append(' ').append(pt(p.get(i + 1))).append(' ')
                        .append(pt(p.get(i + 2)));
            }
        } else {
            for (int i = 1; i < p.size(); i++) {
                d.append(" L").append(pt(p.get(i)));
            }
        }
        sb.append("<path class=\"arc ").append(a.edge().kind().name().toLowerCase(Locale.ROOT))
                .append("\" data-event=\"").append(escape(a.edge().event()))
                .append("\" d=\"").append(d).append("\" fill=\"none\" stroke=\"")
                .append(composite ? Style.COMPOSITE : Style.ARC)
                .append("\" stroke-width=\"").append(n(Style.ARC_STROKE)).append('"')
                .append(composite ? " stroke-dasharray=\"6 4\"" : "")
                .append(" marker-end=\"url(#").append(composite ? "arrow-composite" : "arrow").append(")\"/>\n");
    }

    private void label(Arc a) {
        if (a.label().isEmpty()) {
            return;
        }
        boolean composite = a.edge().kind() == EdgeKind.COMPOSITE;
        double h = a.label().size() * TextMetrics.MONO_LINE + 2;
        sb.append("<rect x=\"").append(n(a.labelAt().x())).append("\" y=\"").append(n(a.labelAt().y()))
                .append("\" width=\"").append(n(a.labelWidth())).append("\" height=\"").append(n(h))
                .append("\" fill=\"").append(Style.LABEL_BACKGROUND).append("\" fill-opacity=\"0.85\"/>\n");
        sb.append("<g class=\"label").append(composite ? " composite" : "").append("\">\n");
        lines(a.labelAt().x() + 2, a.labelAt().y() + 1 + TextMetrics.MONO_SIZE, a.label(),
                composite ? Style.COMPOSITE : Style.INK, composite ? "italic" : "normal");
        sb.append("</g>\n");
    }

    private void lines(double x, double firstBaseline, List<String> lines, String colour, String fontStyle) {
        sb.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(firstBaseline)).append("\" font-family=\"")
                .append(Style.MONO_FAMILY).append("\" font-size=\"").append(n(TextMetrics.MONO_SIZE))
                .append("\" font-style=\"").append(fontStyle).append("\" fill=\"").append(colour)
                .append("\" xml:space=\"preserve\">");
        for (int i = 0; i < lines.size(); i++) {
            sb.append("<tspan x=\"").append(n(x)).append("\" y=\"").append(n(firstBaseline + i * TextMetrics.MONO_LINE))
                    .append("\">").append(escape(lines.get(i))).append("</tspan>");
        }
        sb.append("</text>\n");
    }

    private void text(double x, double y, String s, String family, double size, String weight, String style,
            String colour, String anchor) {
        sb.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" font-family=\"").append(family)
                .append("\" font-size=\"").append(n(size)).append("\" font-weight=\"").append(weight)
                .append("\" font-style=\"").append(style).append("\" fill=\"").append(colour)
                .append("\" text-anchor=\"").append(anchor).append("\">").append(escape(s)).append("</text>\n");
    }

    private void legend(Point at) {
        double y = at.y() + Layout.LEGEND_HEIGHT / 2;
        sb.append("<g class=\"legend\">\n");
        for (Legend.Entry e : Legend.ENTRIES) {
            double x = at.x() + e.x();
            switch (e.sample()) {
                case BASIC, COMPOSITE -> {
                    boolean c = e.sample() == Legend.Sample.COMPOSITE;
                    sb.append("<path d=\"M").append(n(x)).append(',').append(n(y)).append(" L")
                            .append(n(x + Legend.SAMPLE)).append(',').append(n(y)).append("\" stroke=\"")
                            .append(c ? Style.COMPOSITE : Style.ARC).append("\" stroke-width=\"")
                            .append(n(Style.ARC_STROKE)).append('"').append(c ? " stroke-dasharray=\"6 4\"" : "")
                            .append(" marker-end=\"url(#").append(c ? "arrow-composite" : "arrow").append(")\"/>\n");
                }
                case INITIAL -> sb.append("<circle cx=\"").append(n(x + 7)).append("\" cy=\"").append(n(y))
                        .append("\" r=\"6\" fill=\"").append(Style.INK).append("\"/>\n");
                case TERMINATE -> {
                    double cx = x + 9;
                    sb.append("<g stroke=\"").append(Style.INK).append("\" stroke-width=\"1.4\"><circle cx=\"")
                            .append(n(cx)).append("\" cy=\"").append(n(y)).append("\" r=\"8\" fill=\"#ffffff\"/>")
                            .append("<path d=\"M").append(n(cx - 5.6)).append(',').append(n(y - 5.6)).append(" L")
                            .append(n(cx + 5.6)).append(',').append(n(y + 5.6)).append(" M").append(n(cx - 5.6))
                            .append(',').append(n(y + 5.6)).append(" L").append(n(cx + 5.6)).append(',')
                            .append(n(y - 5.6)).append("\"/></g>\n");
                }
                case FINAL -> {
                    rect(x, y - 9, 24, 18, Style.FINAL_FILL, "");
                    rect(x + 3, y - 6, 18, 12, "none", "");
                }
                default -> throw new AssertionError(e.sample());
            }
            text(x + Legend.SAMPLE + 6, y + 4, e.text(), Style.SANS_FAMILY, 11, "normal",
                    e.sample() == Legend.Sample.COMPOSITE ? "italic" : "normal",
                    e.sample() == Legend.Sample.COMPOSITE ? Style.COMPOSITE : Style.INK, "start");
        }
        sb.append("</g>\n");
    }

    private static String pt(Point p) {
        return n(p.x()) + "," + n(p.y());
    }

    /** A coordinate with at most one decimal, locale-independent. */
    static String n(double v) {
        long tenths = Math.round(v * 10);
        return tenths % 10 == 0 ? Long.toString(tenths / 10) : String.format(Locale.ROOT, "%.1f", tenths / 10.0);
    }

    /** Escapes text for XML content and attribute values; drops characters XML 1.0 cannot carry. */
    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> {
                    boolean allowed = c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c <= 0xD7FF)
                            || (c >= 0xE000 && c <= 0xFFFD) || Character.isSurrogate(c);
                    if (allowed) {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
