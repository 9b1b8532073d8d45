package io.statecast.messagestore.tools.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.tools.render.Layout.Arc;
import io.statecast.messagestore.tools.render.Layout.Box;
import io.statecast.messagestore.tools.render.Layout.Point;
import io.statecast.messagestore.tools.render.StateDiagram.Edge;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The SVG is well-formed, shows every state and label, styles composite arcs apart, and is readable. */
class SvgRenderTest {

    static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        f.setFeature("http://xml.org/sax/features/external-general-entities", false);
        f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        f.setXIncludeAware(false);
        f.setExpandEntityReferences(false);
        DocumentBuilder b = f.newDocumentBuilder();
        b.setErrorHandler(null);
        return b.parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<Element> elements(Document d, String name) {
        NodeList nl = d.getElementsByTagNameNS("http://www.w3.org/2000/svg", name);
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < nl.getLength(); i++) {
            out.add((Element) nl.item(i));
        }
        return out;
    }

    private static List<String> texts(Document d) {
        List<String> out = new ArrayList<>();
        for (Element t : elements(d, "tspan")) {
            out.add(t.getTextContent());
        }
        for (Element t : elements(d, "text")) {
            if (elements(d, "tspan").stream().noneMatch(s -> s.getParentNode() == t)) {
                out.add(t.getTextContent());
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {Fixtures.H2H, Fixtures.HIERARCHY})
    void shouldWriteWellFormedSvgWithEveryStateAndEveryTransitionLabel(String resource) throws Exception {
        ServiceSpec spec = Fixtures.load(resource);
        StateDiagram d = StateDiagram.of(spec);
        String svg = SvgWriter.write(new DiagramLayout().layout(d));
        Document doc = parse(svg);
        assertEquals("svg", doc.getDocumentElement().getLocalName());
        List<String> texts = texts(doc);
        String all = String.join("\n", texts);
        spec.structure().states().forEach(s -> assertTrue(texts.contains(s.id()), s.id() + " drawn"));
        for (Edge e : d.edges()) {
            for (String line : TextMetrics.edgeLabel(e)) {
                assertTrue(all.contains(line), "label line '" + line + "' of " + e.label() + " drawn");
            }
        }
        List<Element> arcs = elements(doc, "path").stream().filter(p -> p.getAttribute("class").startsWith("arc "))
                .toList();
        assertEquals(d.edges().size(), arcs.size(), "one path per arc");
        for (Element p : arcs) {
            assertTrue(p.getAttribute("marker-end").startsWith("url(#arrow"), "arrowhead on " + p.getAttribute("d"));
            boolean composite = p.getAttribute("class").equals("arc composite");
            assertEquals(composite, p.hasAttribute("stroke-dasharray"), "only composite arcs are dashed");
            assertEquals(composite ? Style.COMPOSITE : Style.ARC, p.getAttribute("stroke"));
        }
    }

    @Test
    void shouldStyleCompositeArcsAndTheirLabelsApart() throws Exception {
        Document doc = parse(SvgWriter.write(new DiagramLayout().layout(StateDiagram.of(Fixtures.load(Fixtures.H2H)))));
        List<Element> composite = elements(doc, "path").stream()
                .filter(p -> p.getAttribute("class").equals("arc composite")).toList();
        assertEquals(1, composite.size());
        assertEquals("allh2hackmessagesreceived", composite.get(0).getAttribute("data-event"));
        Element label = elements(doc, "g").stream().filter(g -> g.getAttribute("class").equals("label composite"))
                .findFirst().orElseThrow();
        Element text = (Element) label.getElementsByTagNameNS("http://www.w3.org/2000/svg", "text").item(0);
        assertEquals("italic", text.getAttribute("font-style"));
        assertEquals(Style.COMPOSITE, text.getAttribute("fill"));
        assertTrue(text.getTextContent().startsWith("allh2hackmessagesreceived /"));
    }

    @ParameterizedTest
    @ValueSource(strings = {Fixtures.H2H, Fixtures.HIERARCHY})
    void shouldPlaceLabelsWithoutOverlapsAndNearTheirArcs(String resource) {
        Layout l = new DiagramLayout().layout(StateDiagram.of(Fixtures.load(resource)));
        List<double[]> labels = new ArrayList<>();
        for (Arc a : l.arcs()) {
            if (a.label().isEmpty()) {
                continue;
            }
            double[] r = {a.labelAt().x(), a.labelAt().y(), a.labelWidth(),
                a.label().size() * TextMetrics.MONO_LINE + 2};
            assertTrue(distance(r, a.points()) < 40, "label of " + a.edge().label() + " is near its arc");
            for (double[] other : labels) {
                assertFalse(overlap(r, other, 0), "label of " + a.edge().label() + " overlaps another label");
            }
            for (Box b : l.boxes()) {
                if (!b.compound()) {
                    assertFalse(overlap(r, new double[] {b.x(), b.y(), b.w(), b.h()}, 0),
                            "label of " + a.edge().label() + " overlaps " + b.node().id());
                }
            }
            labels.add(r);
            assertTrue(r[0] >= 0 && r[1] >= 0 && r[0] + r[2] <= l.width() && r[1] + r[3] <= l.height(), "on canvas");
        }
        for (Box b : l.boxes()) {
            assertTrue(b.x() >= 0 && b.y() >= 0 && b.x() + b.w() <= l.width() && b.y() + b.h() <= l.height());
        }
    }

    @Test
    void shouldEndEveryArcAtItsTarget() {
        Layout l = new DiagramLayout().layout(StateDiagram.of(Fixtures.load(Fixtures.H2H)));
        for (Arc a : l.arcs()) {
            Box target = l.boxes().stream().filter(b -> b.node().id().equals(a.edge().target())).findFirst()
                    .orElseThrow();
            Point end = a.points().get(a.points().size() - 1);
            assertTrue(distance(new double[] {target.x(), target.y(), target.w(), target.h()}, List.of(end)) < 1.5,
                    a.edge().label() + " ends on " + target.node().id() + " at " + end);
        }
    }

    @Test
    void shouldLayOutTheSameDiagramTheSameWayEveryTime() {
        StateDiagram d = StateDiagram.of(Fixtures.load(Fixtures.H2H));
        assertEquals(SvgWriter.write(new DiagramLayout().layout(d)), SvgWriter.write(new DiagramLayout().layout(d)));
    }

    @Test
    void shouldEscapeTextFromTheSpec() throws Exception {
        String spec = Fixtures.text(Fixtures.HIERARCHY).replace("<ServiceName>linted</ServiceName>",
                "<ServiceName>a&lt;b &amp; \"c\" 'd' ]]&gt;</ServiceName>");
        StateDiagram d = StateDiagram.of(Fixtures.loadText(spec, "escape"));
        Document doc = parse(SvgWriter.write(new DiagramLayout().layout(d)));
        assertEquals("a<b & \"c\" 'd' ]]> (ServiceID 41)",
                elements(doc, "title").get(0).getTextContent());
        assertEquals("x", SvgWriter.escape("x\u0001"));
    }

    /** Distance from a rectangle {x, y, w, h} to the nearest of some points or segments between them. */
    static double distance(double[] r, List<Point> points) {
        double best = Double.MAX_VALUE;
        for (int i = 0; i < points.size(); i++) {
            Point a = points.get(i);
            Point b = i + 1 < points.size() ? points.get(i + 1) : a;
            for (int k = 0; k <= 20; k++) {
                double x = a.x() + (b.x() - a.x()) * k / 20.0;
                double y = a.y() + (b.y() - a.y()) * k / 20.0;
                double dx = Math.max(Math.max(r[0] - x, 0), x - (r[0] + r[2]));
                double dy = Math.max(Math.max(r[1] - y, 0), y - (r[1] + r[3]));
                best = Math.min(best, Math.hypot(dx, dy));
            }
        }
        return best;
    }

    static boolean overlap(double[] a, double[] b, double slack) {
        return a[0] < b[0] + b[2] - slack && b[0] < a[0] + a[2] - slack && a[1] < b[1] + b[3] - slack
                && b[1] < a[1] + a[3] - slack;
    }
}
