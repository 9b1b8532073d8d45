package io.statecast.messagestore.tools.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.tools.render.StateDiagram.Edge;
import io.statecast.messagestore.tools.render.StateDiagram.EdgeKind;
import java.awt.GraphicsEnvironment;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** PNG decodes at the layout's size; DOT and Mermaid name every state and arc and are balanced. */
class OtherFormatsTest {

    private static final ServiceSpec H2H = Fixtures.load(Fixtures.H2H);
    private static final ServiceSpec HIERARCHY = Fixtures.load(Fixtures.HIERARCHY);

    private static byte[] render(ServiceSpec s, RenderFormat f, RenderOptions o) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new Renderer(o).render(s, f, out);
        return out.toByteArray();
    }

    private static String text(ServiceSpec s, RenderFormat f) throws Exception {
        return new String(render(s, f, RenderOptions.DEFAULTS), StandardCharsets.UTF_8);
    }

    @Test
    void shouldDrawAPngThatDecodesAtTheLayoutsSizeWithoutADisplay() throws Exception {
        assertTrue(GraphicsEnvironment.isHeadless(), "tests run headless (java.awt.headless)");
        Layout layout = new DiagramLayout().layout(StateDiagram.of(H2H));
        byte[] png = render(H2H, RenderFormat.PNG, RenderOptions.DEFAULTS.withPngScale(1));
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(png));
        assertEquals((int) Math.ceil(layout.width()), img.getWidth());
        assertEquals((int) Math.ceil(layout.height()), img.getHeight());
        assertTrue(img.getWidth() > 400 && img.getWidth() < 3000 && img.getHeight() > 400 && img.getHeight() < 3000,
                img.getWidth() + "x" + img.getHeight());
        int dark = 0;
        int blue = 0;
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                int rgb = img.getRGB(x, y) & 0xffffff;
                int r = rgb >> 16;
                int g = (rgb >> 8) & 0xff;
                int b = rgb & 0xff;
                dark += r + g + b < 200 ? 1 : 0;
                blue += b > 120 && r < 80 && b - r > 60 ? 1 : 0;
            }
        }
        assertTrue(dark > 800, "the drawing has ink: " + dark);
        assertTrue(blue > 20, "the composite arc is drawn in its colour: " + blue);
        BufferedImage twice = ImageIO.read(new ByteArrayInputStream(render(H2H, RenderFormat.PNG,
                RenderOptions.DEFAULTS)));
        assertEquals((int) Math.ceil(layout.width() * 2), twice.getWidth(), "default scale 2");
    }

    @Test
    void shouldRefuseAPictureLargerThanTheLimit() {
        RenderException e = assertThrows(RenderException.class,
                () -> render(H2H, RenderFormat.SVG, new RenderOptions(3, 100, 1)));
        assertTrue(e.getMessage().contains("5 states are more than the limit of 3"), e.getMessage());
        e = assertThrows(RenderException.class, () -> render(H2H, RenderFormat.DOT, new RenderOptions(10, 7, 1)));
        assertTrue(e.getMessage().contains("20 transitions are more than the limit of 7"), e.getMessage());
    }

    @Test
    void shouldWriteDotWithEveryStateAndArc() throws Exception {
        String dot = text(H2H, RenderFormat.DOT);
        assertTrue(dot.startsWith("digraph \"h2hack (ServiceID 1)\" {"), dot);
        assertBalanced(dot, '{', '}');
        assertBalanced(dot, '[', ']');
        assertEquals(0, count(dot, "\"") % 2, "quotes pair up");
        for (var s : H2H.structure().states()) {
            assertTrue(dot.contains("\"" + s.id() + "\" [label=\"" + s.id()), s.id());
        }
        StateDiagram d = StateDiagram.of(H2H);
        assertEquals(d.edges().size(), count(dot, " -> "));
        assertTrue(dot.contains("\"init\" -> \"waitack\" [label=\"payloadmessage /\\lsendControlMessage(h2hackmessage),"
                + "\\ltoApplication, updateNodeInfo,\\lsetTimer(acktimeout),\\lsetTimer(maxacktimeout)\\l\"]"), dot);
        Matcher composite = Pattern.compile("\"waitack\" -> \"done\" \\[label=\"allh2hackmessagesreceived[^\\n]*"
                + "style=dashed").matcher(dot);
        assertTrue(composite.find(), dot);
        assertTrue(dot.contains("\"init\" [label=\"init\\nentry / setTimer(finaldelete)\", style=\"rounded,filled\""));
        String nested = text(HIERARCHY, RenderFormat.DOT);
        assertBalanced(nested, '{', '}');
        assertTrue(nested.contains("subgraph \"cluster_active\" {"), nested);
        assertTrue(nested.contains("\"closed\" [label=\"closed\", style=\"rounded,filled\", fillcolor=\"#e4e4e4\", "
                + "peripheries=2]"), nested);
        assertTrue(nested.contains("lhead=\"cluster_active\""), nested);
    }

    @Test
    void shouldWriteAMermaidStateDiagram() throws Exception {
        String m = text(H2H, RenderFormat.MERMAID);
        assertTrue(m.startsWith("---\ntitle: \"h2hack (ServiceID 1)\"\n---\nstateDiagram-v2\n"), m);
        assertBalanced(m, '{', '}');
        for (var s : H2H.structure().states()) {
            assertTrue(Pattern.compile("(?m)^  " + s.id() + "( |$)").matcher(m).find(), s.id() + " in\n" + m);
        }
        assertTrue(m.contains("\n  [*] --> init\n"), m);
        assertTrue(m.contains("\n  init --> [*] : finaldelete / terminate\n"), m);
        assertTrue(m.contains("\n  waitack --> done : allh2hackmessagesreceived (composite) / cancelTimer(acktimeout), "
                + "cancelTimer(maxacktimeout)\n"), m);
        assertTrue(m.contains("\n  waitack --> waitack : h2hnackmessage / sendDataMessage\n"), m);
        StateDiagram d = StateDiagram.of(H2H);
        assertEquals(d.edges().size(), count(m, " --> "));
        for (Edge e : d.edges()) {
            if (e.kind() != EdgeKind.INITIAL) {
                assertTrue(m.contains(e.event()), e.event());
            }
        }
        String nested = text(HIERARCHY, RenderFormat.MERMAID);
        assertBalanced(nested, '{', '}');
        assertTrue(nested.contains("  state session {\n"), nested);
        assertTrue(nested.contains("      beating : entry / setTimer(keepalive)\n      --\n      listening\n"), nested);
        assertTrue(nested.contains("  class closed final\n"), nested);
    }

    @Test
    void shouldAliasIdsMermaidWouldMisread() throws Exception {
        String spec = Fixtures.text(Fixtures.HIERARCHY).replace("\"connecting\"", "\"end\"")
                .replace("\"listening\"", "\"listen-ing.2\"");
        String m = text(Fixtures.loadText(spec, "aliases"), RenderFormat.MERMAID);
        assertTrue(m.contains("state \"end\" as s_end\n"), m);
        assertTrue(m.contains("state \"listen-ing.2\" as listen_ing_2\n"), m);
        assertTrue(m.contains("s_end --> active : ping"), m);
    }

    private static void assertBalanced(String s, char open, char close) {
        int depth = 0;
        boolean quoted = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' && (i == 0 || s.charAt(i - 1) != '\\')) {
                quoted = !quoted;
            } else if (!quoted && c == open) {
                depth++;
            } else if (!quoted && c == close) {
                depth--;
                assertTrue(depth >= 0, "unbalanced " + close + " at " + i);
            }
        }
        assertEquals(0, depth, "every " + open + " closed");
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + what.length())) {
            n++;
        }
        return n;
    }
}
