package io.statecast.messagestore.tools.render;

import io.statecast.messagestore.tools.render.StateDiagram.Edge;
import io.statecast.messagestore.tools.render.StateDiagram.Node;
import java.util.List;
import java.util.Objects;

/**
 * A laid-out {@link StateDiagram}: absolute coordinates in px, origin top left, ready for a
 * writer (SVG and PNG draw the same layout).
 *
 * @param width  canvas width
 * @param height canvas height
 * @param title  the title drawn at the top
 * @param boxes  every node, parents before children
 * @param arcs   every arc
 * @param legend where the legend goes (its top left), below the diagram
 */
public record Layout(double width, double height, String title, List<Box> boxes, List<Arc> arcs, Point legend) {

    /** Copies the lists. */
    public Layout {
        Objects.requireNonNull(title, "title");
        boxes = List.copyOf(boxes);
        arcs = List.copyOf(arcs);
        Objects.requireNonNull(legend, "legend");
    }

    /** Height of the legend drawn below the diagram, px. */
    public static final double LEGEND_HEIGHT = 22;

    /** A point. */
    public record Point(double x, double y) {
    }

    /**
     * A placed node.
     *
     * @param node     what it is
     * @param x        left
     * @param y        top
     * @param w        width
     * @param h        height
     * @param details  the lines drawn under the name (entry and exit actions, wrapped)
     * @param compound whether other boxes sit inside it (the name then goes in its top bar)
     */
    public record Box(Node node, double x, double y, double w, double h, List<String> details, boolean compound) {

        /** Copies the details. */
        public Box {
            Objects.requireNonNull(node, "node");
            details = List.copyOf(details);
        }
    }

    /**
     * A placed arc.
     *
     * @param edge       what it is
     * @param points     start point, then the route, then the end point (at the target's border)
     * @param spline     whether {@code points} after the start are cubic Bézier control triples
     *                   (c1, c2, end)…; otherwise a polyline
     * @param label      the label's lines (empty: no label)
     * @param labelAt    the label's top left
     * @param labelWidth the label's width
     */
    public record Arc(Edge edge, List<Point> points, boolean spline, List<String> label, Point labelAt,
            double labelWidth) {

        /** Copies the lists. */
        public Arc {
            Objects.requireNonNull(edge, "edge");
            points = List.copyOf(points);
            label = List.copyOf(label);
        }
    }
}
