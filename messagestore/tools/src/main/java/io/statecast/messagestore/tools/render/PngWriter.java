package io.statecast.messagestore.tools.render;

import io.statecast.messagestore.tools.render.Layout.Arc;
import io.statecast.messagestore.tools.render.Layout.Box;
import io.statecast.messagestore.tools.render.Layout.Point;
import io.statecast.messagestore.tools.render.StateDiagram.EdgeKind;
import io.statecast.messagestore.tools.render.StateDiagram.NodeKind;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;

/**
 * Draws a {@link Layout} into a PNG with {@code java.awt.Graphics2D}: the same geometry, colours
 * and strokes as {@link SvgWriter}, no extra library. Works headless (no display is touched:
 * only a {@link BufferedImage} is drawn); uses the JDK's logical fonts (monospaced, sans-serif),
 * shrinking a line that a local font draws wider than the layout planned.
 */
public final class PngWriter {

    /** The largest image side accepted, px: bounds memory (4 bytes per pixel). */
    public static final int MAX_SIDE = 8192;

    private final Graphics2D g;
    private final Font mono;
    private final Font monoItalic;
    private final Font name;

    private PngWriter(Graphics2D g) {
        this.g = g;
        this.mono = new Font(Font.MONOSPACED, Font.PLAIN, 1).deriveFont((float) TextMetrics.MONO_SIZE);
        this.monoItalic = mono.deriveFont(Font.ITALIC);
        this.name = new Font(Font.SANS_SERIF, Font.BOLD, 1).deriveFont((float) TextMetrics.NAME_SIZE);
    }

    /**
     * Writes the layout as PNG.
     *
     * @param scale pixels per layout unit (2 gives a sharp picture on high-density screens)
     * @throws IllegalArgumentException when the image would be larger than {@link #MAX_SIDE}
     */
    public static void write(Layout layout, double scale, OutputStream out) throws IOException {
        int w = (int) Math.ceil(layout.width() * scale);
        int h = (int) Math.ceil(layout.height() * scale);
        if (w > MAX_SIDE || h > MAX_SIDE || w <= 0 || h <= 0) {
            throw new IllegalArgumentException("a " + w + "x" + h + " px image is larger than the limit of " + MAX_SIDE
                    + " px a side; lower the scale or render SVG");
        }
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
            g.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, w, h);
            g.scale(scale, scale);
            new PngWriter(g).draw(layout);
        } finally {
            g.dispose();
        }
        if (!ImageIO.write(img, "png", out)) {
            throw new IOException("the JDK has no PNG writer");
        }
    }

    private void draw(Layout l) {
        Font title = new Font(Font.SANS_SERIF, Font.BOLD, 1).deriveFont((float) TextMetrics.TITLE_SIZE);
        g.setFont(title);
        g.setColor(Style.awt(Style.INK));
        g.drawString(l.title(), (float) DiagramLayout.MARGIN, (float) (DiagramLayout.MARGIN + TextMetrics.TITLE_SIZE));
        Set<String> initial = SvgWriter.initialStates(l);
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
    }

    private void box(Box b, boolean initial) {
        switch (b.node().kind()) {
            case INITIAL_MARK -> {
                g.setColor(Style.awt(Style.INK));
                g.fill(new Ellipse2D.Double(b.x() + 1, b.y() + 1, b.w() - 2, b.h() - 2));
            }
            case TERMINATE_MARK -> terminateMark(b.x() + b.w() / 2, b.y() + b.h() / 2, b.w() / 2 - 1);
            case STATE, FINAL -> state(b, initial);
            default -> throw new AssertionError(b.node().kind());
        }
    }

    private void terminateMark(double cx, double cy, double r) {
        Ellipse2D circle = new Ellipse2D.Double(cx - r, cy - r, 2 * r, 2 * r);
        g.setColor(Color.WHITE);
        g.fill(circle);
        g.setColor(Style.awt(Style.INK));
        g.setStroke(new BasicStroke(1.4f));
        g.draw(circle);
        double d = r * 0.7071;
        g.draw(new Line2D.Double(cx - d, cy - d, cx + d, cy + d));
        g.draw(new Line2D.Double(cx - d, cy + d, cx + d, cy - d));
    }

    private void state(Box b, boolean initial) {
        boolean fin = b.node().kind() == NodeKind.FINAL;
        String fill = b.compound() ? Style.COMPOUND_FILL : fin ? Style.FINAL_FILL : initial ? Style.INITIAL_FILL
                : Style.STATE_FILL;
        Stroke stroke = b.node().parallel()
                ? new BasicStroke((float) Style.STATE_STROKE, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
                        Style.DASH, 0f)
                : new BasicStroke((float) Style.STATE_STROKE);
        roundRect(b.x(), b.y(), b.w(), b.h(), fill, stroke);
        double inset = 0;
        if (fin) {
            inset = 4;
            roundRect(b.x() + inset, b.y() + inset, b.w() - 2 * inset, b.h() - 2 * inset, null, stroke);
        }
        g.setColor(Style.awt(Style.INK));
        double baseline = b.y() + inset + 7 + TextMetrics.NAME_SIZE;
        double maxWidth = b.w() - 2 * inset - 8;
        if (b.compound()) {
            drawFitted(b.node().name(), name, b.x() + 12, baseline, maxWidth, false);
        } else {
            drawFitted(b.node().name(), name, b.x() + b.w() / 2, baseline, maxWidth, true);
        }
        if (!b.details().isEmpty()) {
            double sep = b.y() + inset + 7 + TextMetrics.NAME_LINE + 2;
            g.setStroke(new BasicStroke(0.6f));
            g.draw(new Line2D.Double(b.x() + inset, sep, b.x() + b.w() - inset, sep));
            g.setColor(Style.awt(Style.DETAIL_INK));
            lines(b.details(), mono, b.x() + inset + 12, sep + 2 + TextMetrics.MONO_SIZE, b.w() - 2 * inset - 16);
        }
    }

    private void roundRect(double x, double y, double w, double h, String fill, Stroke stroke) {
        RoundRectangle2D r = new RoundRectangle2D.Double(x, y, w, h, 2 * Style.CORNER, 2 * Style.CORNER);
        if (fill != null) {
            g.setColor(Style.awt(fill));
            g.fill(r);
        }
        g.setColor(Style.awt(Style.INK));
        g.setStroke(stroke);
        g.draw(r);
    }

    private void arc(Arc a) {
        List<Point> p = a.points();
        if (p.size() < 2) {
            return;
        }
        boolean composite = a.edge().kind() == EdgeKind.COMPOSITE;
        Color colour = Style.awt(composite ? Style.COMPOSITE : Style.ARC);
        Path2D.Double path = new Path2D.Double();
        path.moveTo(p.get(0).x(), p.get(0).y());
        if (a.spline()) {
            for (int i = 1; i + 2 < p.size(); i += 3) {
                path.curveTo(p.get(i).x(), p.get(i).y(), p.get(i + 1).x(), p.get(i + 1).y(), p.get(i + 2).x(),
                        p.get(i + 2).y());
            }
        } else {
            for (int i = 1; i < p.size(); i++) {
                path.lineTo(p.get(i).x(), p.get(i).y());
            }
        }
        Point end = p.get(p.size() - 1);
        Point from = p.get(p.size() - 2);
        for (int i = p.size() - 2; i >= 0 && from.x() == end.x() && from.y() == end.y(); i--) {
            from = p.get(i);
        }
        g.setColor(colour);
        g.setStroke(composite
                ? new BasicStroke((float) Style.ARC_STROKE, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
                        Style.DASH, 0f)
                : new BasicStroke((float) Style.ARC_STROKE));
        g.draw(path);
        arrowhead(from, end, colour);
    }

    private void arrowhead(Point from, Point tip, Color colour) {
        double dx = tip.x() - from.x();
        double dy = tip.y() - from.y();
        double len = Math.hypot(dx, dy);
        if (len < 1e-6) {
            return;
        }
        double ux = dx / len;
        double uy = dy / len;
        double bx = tip.x() - ux * Style.ARROW_LENGTH;
        double by = tip.y() - uy * Style.ARROW_LENGTH;
        Path2D.Double head = new Path2D.Double();
        head.moveTo(tip.x(), tip.y());
        head.lineTo(bx - uy * Style.ARROW_HALF_WIDTH, by + ux * Style.ARROW_HALF_WIDTH);
        head.lineTo(bx + uy * Style.ARROW_HALF_WIDTH, by - ux * Style.ARROW_HALF_WIDTH);
        head.closePath();
        g.setColor(colour);
        g.fill(head);
    }

    private void label(Arc a) {
        if (a.label().isEmpty()) {
            return;
        }
        boolean composite = a.edge().kind() == EdgeKind.COMPOSITE;
        double h = a.label().size() * TextMetrics.MONO_LINE + 2;
        g.setColor(new Color(255, 255, 255, 217));
        g.fill(new Rectangle2D.Double(a.labelAt().x(), a.labelAt().y(), a.labelWidth(), h));
        g.setColor(Style.awt(composite ? Style.COMPOSITE : Style.INK));
        lines(a.label(), composite ? monoItalic : mono, a.labelAt().x() + 2,
                a.labelAt().y() + 1 + TextMetrics.MONO_SIZE, a.labelWidth() - 2);
    }

    private void lines(List<String> lines, Font font, double x, double firstBaseline, double maxWidth) {
        for (int i = 0; i < lines.size(); i++) {
            drawFitted(lines.get(i), font, x, firstBaseline + i * TextMetrics.MONO_LINE, maxWidth, false);
        }
    }

    /** Draws one line, shrinking the font if this machine's font is wider than the layout planned. */
    private void drawFitted(String text, Font font, double x, double baseline, double maxWidth, boolean centred) {
        Font f = font;
        FontMetrics fm = g.getFontMetrics(f);
        double w = fm.getStringBounds(text, g).getWidth();
        if (w > maxWidth && maxWidth > 0) {
            f = font.deriveFont((float) (font.getSize2D() * maxWidth / w));
            w = maxWidth;
        }
        g.setFont(f);
        g.drawString(text, (float) (centred ? x - w / 2 : x), (float) baseline);
    }

    private void legend(Point at) {
        double y = at.y() + Layout.LEGEND_HEIGHT / 2;
        Font font = new Font(Font.SANS_SERIF, Font.PLAIN, 1).deriveFont(11f);
        for (Legend.Entry e : Legend.ENTRIES) {
            double x = at.x() + e.x();
            boolean composite = e.sample() == Legend.Sample.COMPOSITE;
            switch (e.sample()) {
                case BASIC, COMPOSITE -> {
                    Color c = Style.awt(composite ? Style.COMPOSITE : Style.ARC);
                    g.setColor(c);
                    g.setStroke(composite
                            ? new BasicStroke((float) Style.ARC_STROKE, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND,
                                    10f, Style.DASH, 0f)
                            : new BasicStroke((float) Style.ARC_STROKE));
                    g.draw(new Line2D.Double(x, y, x + Legend.SAMPLE - 4, y));
                    arrowhead(new Point(x, y), new Point(x + Legend.SAMPLE, y), c);
                }
                case INITIAL -> {
                    g.setColor(Style.awt(Style.INK));
                    g.fill(new Ellipse2D.Double(x + 1, y - 6, 12, 12));
                }
                case TERMINATE -> terminateMark(x + 9, y, 8);
                case FINAL -> {
                    BasicStroke s = new BasicStroke((float) Style.STATE_STROKE);
                    roundRect(x, y - 9, 24, 18, Style.FINAL_FILL, s);
                    roundRect(x + 3, y - 6, 18, 12, null, s);
                }
                default -> throw new AssertionError(e.sample());
            }
            g.setColor(Style.awt(composite ? Style.COMPOSITE : Style.INK));
            g.setFont(composite ? font.deriveFont(Font.ITALIC) : font);
            g.drawString(e.text(), (float) (x + Legend.SAMPLE + 6), (float) (y + 4));
        }
    }
}
