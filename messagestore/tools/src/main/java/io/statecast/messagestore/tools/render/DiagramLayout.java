package io.statecast.messagestore.tools.render;

import io.statecast.messagestore.tools.render.Layout.Arc;
import io.statecast.messagestore.tools.render.Layout.Box;
import io.statecast.messagestore.tools.render.Layout.Point;
import io.statecast.messagestore.tools.render.StateDiagram.Edge;
import io.statecast.messagestore.tools.render.StateDiagram.Node;
import io.statecast.messagestore.tools.render.StateDiagram.NodeKind;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.elk.alg.layered.options.LayeredOptions;
import org.eclipse.elk.core.RecursiveGraphLayoutEngine;
import org.eclipse.elk.core.math.ElkPadding;
import org.eclipse.elk.core.math.KVector;
import org.eclipse.elk.core.options.CoreOptions;
import org.eclipse.elk.core.options.Direction;
import org.eclipse.elk.core.options.EdgeLabelPlacement;
import org.eclipse.elk.core.options.EdgeRouting;
import org.eclipse.elk.core.options.HierarchyHandling;
import org.eclipse.elk.core.options.NodeLabelPlacement;
import org.eclipse.elk.core.options.SizeConstraint;
import org.eclipse.elk.core.util.BasicProgressMonitor;
import org.eclipse.elk.graph.ElkEdge;
import org.eclipse.elk.graph.ElkEdgeSection;
import org.eclipse.elk.graph.ElkLabel;
import org.eclipse.elk.graph.ElkNode;
import org.eclipse.elk.graph.ElkPort;
import org.eclipse.elk.graph.util.ElkGraphUtil;

/**
 * Lays a {@link StateDiagram} out with the Eclipse Layout Kernel's layered algorithm (a
 * Sugiyama-style layout: cycle breaking, layering, crossing minimisation, node placement, edge
 * routing with the labels as obstacles), used as a plain library: the layered provider is found
 * through {@code java.util.ServiceLoader}, no Eclipse or OSGi is involved.
 *
 * <p>Text is sized by {@link TextMetrics}, not by fonts, so a layout is the same on every
 * machine; the layout is deterministic (ELK's random seed is fixed).
 */
public final class DiagramLayout {

    /** Space around the drawing, px. */
    static final double MARGIN = 16;
    /** Height of the title line, px. */
    static final double TITLE_BAR = 28;
    private static final double PAD_X = 12;
    private static final double PAD_Y = 7;
    private static final double INITIAL_MARK = 14;
    private static final double TERMINATE_MARK = 20;

    private final Direction direction;
    private final EdgeRouting routing;

    /** Top to bottom, spline arcs: the blueprint's curved arcs, and long labels fit best between layers. */
    public DiagramLayout() {
        this(Direction.DOWN, EdgeRouting.SPLINES);
    }

    DiagramLayout(Direction direction, EdgeRouting routing) {
        this.direction = direction;
        this.routing = routing;
    }

    /** Lays the diagram out. */
    public Layout layout(StateDiagram d) {
        ElkNode root = ElkGraphUtil.createGraph();
        root.setProperty(CoreOptions.ALGORITHM, LayeredOptions.ALGORITHM_ID);
        root.setProperty(CoreOptions.HIERARCHY_HANDLING, HierarchyHandling.INCLUDE_CHILDREN);
        configure(root);

        Map<String, Boolean> compound = new HashMap<>();
        for (Node n : d.nodes()) {
            if (n.parent() != null) {
                compound.put(n.parent(), true);
            }
        }
        // Self-loops are drawn here, not by ELK: its loops nest and run under their labels. Each
        // state's loops and labels form a block east of it, reserved as an outside node label.
        Map<String, List<Edge>> loops = new LinkedHashMap<>();
        for (Edge e : d.edges()) {
            if (e.source().equals(e.target()) && !compound.getOrDefault(e.source(), false)) {
                loops.computeIfAbsent(e.source(), k -> new ArrayList<>()).add(e);
            }
        }
        Map<String, ElkNode> elk = new LinkedHashMap<>();
        Map<String, ElkLabel> loopBlocks = new HashMap<>();
        for (Node n : d.nodes()) {
            ElkNode parent = n.parent() == null ? root : elk.get(n.parent());
            ElkNode e = ElkGraphUtil.createNode(parent);
            e.setIdentifier(n.id());
            if (compound.getOrDefault(n.id(), false)) {
                configure(e);
                List<String> details = TextMetrics.details(n);
                double top = PAD_Y + TextMetrics.NAME_LINE + details.size() * TextMetrics.MONO_LINE + PAD_Y + 4;
                e.setProperty(CoreOptions.PADDING, new ElkPadding(top, 14, 14, 14));
                double minWidth = Math.max(TextMetrics.boldWidth(n.name(), TextMetrics.NAME_SIZE),
                        TextMetrics.monoWidth(details)) + 2 * PAD_X;
                e.setProperty(CoreOptions.NODE_SIZE_MINIMUM, new KVector(minWidth, top + 20));
                e.setProperty(CoreOptions.NODE_SIZE_CONSTRAINTS, EnumSet.of(SizeConstraint.MINIMUM_SIZE));
            } else {
                double[] size = size(n);
                List<Edge> own = loops.get(n.id());
                // A state with loops is at least as tall as their labels, so that arcs meeting its
                // top and bottom never cross them.
                e.setDimensions(size[0], own == null ? size[1] : Math.max(size[1], loopBlock(own)[1]));
            }
            List<Edge> own = loops.get(n.id());
            if (own != null) {
                double[] block = loopBlock(own);
                ElkLabel l = ElkGraphUtil.createLabel("loops", e);
                l.setDimensions(block[0], block[1]);
                e.setProperty(CoreOptions.NODE_LABELS_PLACEMENT, EnumSet.of(NodeLabelPlacement.OUTSIDE,
                        NodeLabelPlacement.H_RIGHT, NodeLabelPlacement.V_CENTER));
                loopBlocks.put(n.id(), l);
            }
            elk.put(n.id(), e);
        }
        Map<ElkEdge, Edge> edges = new LinkedHashMap<>();
        Map<Edge, List<String>> labels = new HashMap<>();
        for (Edge e : d.edges()) {
            List<String> lines = TextMetrics.edgeLabel(e);
            labels.put(e, lines);
            if (loops.getOrDefault(e.source(), List.of()).contains(e)) {
                continue;
            }
            ElkEdge ee = ElkGraphUtil.createSimpleEdge(elk.get(e.source()), elk.get(e.target()));
            ee.setIdentifier(e.id());
            if (!lines.isEmpty()) {
                ElkLabel l = ElkGraphUtil.createLabel(String.join("\n", lines), ee);
                l.setDimensions(TextMetrics.monoWidth(lines) + 4, lines.size() * TextMetrics.MONO_LINE + 2);
                l.setProperty(CoreOptions.EDGE_LABELS_PLACEMENT, EdgeLabelPlacement.CENTER);
            }
            edges.put(ee, e);
        }

        new RecursiveGraphLayoutEngine().layout(root, new BasicProgressMonitor());

        double dx = MARGIN;
        double dy = MARGIN + TITLE_BAR;
        List<Box> boxes = new ArrayList<>();
        Map<String, Box> byId = new HashMap<>();
        Map<ElkNode, double[]> origin = new HashMap<>();
        origin.put(root, new double[] {dx, dy});
        double right = 0;
        double bottom = 0;
        for (Node n : d.nodes()) {
            ElkNode e = elk.get(n.id());
            double[] p = origin.get(e.getParent());
            double x = p[0] + e.getX();
            double y = p[1] + e.getY();
            origin.put(e, new double[] {x, y});
            Box b = new Box(n, x, y, e.getWidth(), e.getHeight(), TextMetrics.details(n),
                    compound.getOrDefault(n.id(), false));
            boxes.add(b);
            byId.put(n.id(), b);
            right = Math.max(right, x + b.w());
            bottom = Math.max(bottom, y + b.h());
        }
        List<Arc> arcs = new ArrayList<>();
        for (Map.Entry<ElkEdge, Edge> en : edges.entrySet()) {
            ElkEdge ee = en.getKey();
            double[] o = origin.get(containerOf(ee));
            List<Point> pts = new ArrayList<>();
            for (ElkEdgeSection s : ee.getSections()) {
                if (pts.isEmpty()) {
                    pts.add(new Point(o[0] + s.getStartX(), o[1] + s.getStartY()));
                }
                s.getBendPoints().forEach(b -> pts.add(new Point(o[0] + b.getX(), o[1] + b.getY())));
                pts.add(new Point(o[0] + s.getEndX(), o[1] + s.getEndY()));
            }
            List<String> lines = labels.get(en.getValue());
            Point at = new Point(0, 0);
            double lw = 0;
            if (!ee.getLabels().isEmpty()) {
                ElkLabel l = ee.getLabels().get(0);
                at = new Point(o[0] + l.getX(), o[1] + l.getY());
                lw = l.getWidth();
                right = Math.max(right, at.x() + lw);
                bottom = Math.max(bottom, at.y() + l.getHeight());
            }
            for (Point p : pts) {
                right = Math.max(right, p.x());
                bottom = Math.max(bottom, p.y());
            }
            boolean spline = routing == EdgeRouting.SPLINES && (pts.size() - 1) % 3 == 0 && pts.size() > 2;
            arcs.add(new Arc(en.getValue(), pts, spline, lines, at, lw));
        }
        for (Map.Entry<String, List<Edge>> en : loops.entrySet()) {
            Box b = byId.get(en.getKey());
            ElkLabel block = loopBlocks.get(en.getKey());
            double[] o = origin.get(elk.get(en.getKey()));
            double top = o[1] + block.getY();
            arcs.addAll(loopArcs(b, en.getValue(), labels, top));
            right = Math.max(right, o[0] + block.getX() + block.getWidth());
            bottom = Math.max(bottom, top + block.getHeight());
        }
        double width = Math.max(right + MARGIN, TextMetrics.boldWidth(d.title(), TextMetrics.TITLE_SIZE) + 2 * MARGIN);
        width = Math.max(width, Legend.WIDTH + 2 * MARGIN);
        double legendTop = Math.max(bottom, dy) + 12;
        double height = legendTop + Layout.LEGEND_HEIGHT + MARGIN;
        return new Layout(width, height, d.title(), boxes, arcs, new Point(MARGIN, legendTop));
    }

    /** Width of a self-loop's bulge, px. */
    private static final double LOOP_REACH = 26;
    /** Space between two loop labels, px. */
    private static final double LOOP_GAP = 6;

    /** Width and height of the block holding a state's self-loops and their labels. */
    private static double[] loopBlock(List<Edge> loops) {
        double w = 0;
        double h = 0;
        for (Edge e : loops) {
            List<String> lines = TextMetrics.edgeLabel(e);
            w = Math.max(w, TextMetrics.monoWidth(lines) + 4);
            h += lines.size() * TextMetrics.MONO_LINE + 2 + LOOP_GAP;
        }
        return new double[] {LOOP_REACH + 4 + w, h - LOOP_GAP};
    }

    /**
     * A state's self-loops: each leaves the state's right side and comes back a little lower,
     * bulging out to its label, which sits right of the bulge. The labels are stacked from
     * {@code top}, each loop level with its label.
     */
    private static List<Arc> loopArcs(Box b, List<Edge> loops, Map<Edge, List<String>> labels, double top) {
        List<Arc> out = new ArrayList<>();
        double x = b.x() + b.w();
        double y = top;
        for (Edge e : loops) {
            List<String> lines = labels.get(e);
            double h = lines.size() * TextMetrics.MONO_LINE + 2;
            double centre = Math.min(Math.max(y + h / 2, b.y() + Style.CORNER + 6), b.y() + b.h() - Style.CORNER - 6);
            double apexX = x + LOOP_REACH;
            List<Point> pts = List.of(
                    new Point(x, centre - 5),
                    new Point(x + LOOP_REACH * 0.4, centre - 5),
                    new Point(apexX, centre - 12),
                    new Point(apexX, centre),
                    new Point(apexX, centre + 12),
                    new Point(x + LOOP_REACH * 0.4, centre + 5),
                    new Point(x, centre + 5));
            out.add(new Arc(e, pts, true, lines, new Point(apexX + 4, y), TextMetrics.monoWidth(lines) + 4));
            y += h + LOOP_GAP;
        }
        return out;
    }

    /** The node whose coordinate system an edge's sections and labels use. */
    private static ElkNode containerOf(ElkEdge e) {
        ElkNode c = e.getContainingNode();
        if (c != null) {
            return c;
        }
        Object src = e.getSources().get(0);
        ElkNode n = src instanceof ElkPort p ? p.getParent() : (ElkNode) src;
        return n.getParent();
    }

    private void configure(ElkNode n) {
        n.setProperty(CoreOptions.DIRECTION, direction);
        n.setProperty(CoreOptions.EDGE_ROUTING, routing);
        n.setProperty(CoreOptions.SPACING_NODE_NODE, 28.0);
        n.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 36.0);
        n.setProperty(LayeredOptions.SPACING_EDGE_NODE_BETWEEN_LAYERS, 14.0);
        n.setProperty(LayeredOptions.SPACING_EDGE_EDGE_BETWEEN_LAYERS, 12.0);
        n.setProperty(CoreOptions.SPACING_EDGE_NODE, 14.0);
        n.setProperty(CoreOptions.SPACING_EDGE_EDGE, 12.0);
        n.setProperty(CoreOptions.SPACING_EDGE_LABEL, 3.0);
        n.setProperty(LayeredOptions.THOROUGHNESS, 30);
        n.setProperty(CoreOptions.RANDOM_SEED, 1);
    }

    /** Width and height of a leaf node. */
    static double[] size(Node n) {
        return switch (n.kind()) {
            case INITIAL_MARK -> new double[] {INITIAL_MARK, INITIAL_MARK};
            case TERMINATE_MARK -> new double[] {TERMINATE_MARK, TERMINATE_MARK};
            case STATE, FINAL -> {
                List<String> details = TextMetrics.details(n);
                double w = Math.max(TextMetrics.boldWidth(n.name(), TextMetrics.NAME_SIZE),
                        TextMetrics.monoWidth(details)) + 2 * PAD_X + (n.kind() == NodeKind.FINAL ? 8 : 0);
                double h = 2 * PAD_Y + TextMetrics.NAME_LINE + (details.isEmpty() ? 0
                        : 4 + details.size() * TextMetrics.MONO_LINE) + (n.kind() == NodeKind.FINAL ? 8 : 0);
                yield new double[] {Math.max(w, 64), Math.max(h, 34)};
            }
        };
    }
}
