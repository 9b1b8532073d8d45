package io.statecast.messagestore.tools.render;

import io.statecast.messagestore.spec.ServiceSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * {@code statecast spec render}: draws a loaded spec's state diagram in one of the
 * {@link RenderFormat}s. SVG and PNG come from the same {@link DiagramLayout}; DOT and Mermaid are
 * text for other tools. Pure Java; no Graphviz, no display. Thread-safe (nothing is shared).
 */
public final class Renderer {

    private final RenderOptions options;

    /** A renderer with these options. */
    public Renderer(RenderOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /** A renderer with {@link RenderOptions#DEFAULTS}. */
    public Renderer() {
        this(RenderOptions.DEFAULTS);
    }

    /**
     * Draws {@code spec} to {@code out} (not closed).
     *
     * @throws RenderException when the spec is larger than the options allow
     * @throws IOException     when writing fails
     */
    public void render(ServiceSpec spec, RenderFormat format, OutputStream out) throws RenderException, IOException {
        int states = spec.structure().states().size();
        int transitions = spec.structure().transitions().size();
        if (states > options.maxStates()) {
            throw new RenderException(spec.source() + ": " + states + " states are more than the limit of "
                    + options.maxStates() + " a diagram can show");
        }
        if (transitions > options.maxTransitions()) {
            throw new RenderException(spec.source() + ": " + transitions + " transitions are more than the limit of "
                    + options.maxTransitions() + " a diagram can show");
        }
        StateDiagram d = StateDiagram.of(spec);
        switch (format) {
            case SVG -> out.write(SvgWriter.write(new DiagramLayout().layout(d)).getBytes(StandardCharsets.UTF_8));
            case PNG -> {
                Layout layout = new DiagramLayout().layout(d);
                long w = Math.round(layout.width() * options.pngScale());
                long h = Math.round(layout.height() * options.pngScale());
                if (w > PngWriter.MAX_SIDE || h > PngWriter.MAX_SIDE) {
                    throw new RenderException(spec.source() + ": the picture would be " + w + "x" + h
                            + " px, more than " + PngWriter.MAX_SIDE + " px a side; lower the scale or render SVG");
                }
                PngWriter.write(layout, options.pngScale(), out);
            }
            case DOT -> out.write(DotWriter.write(d).getBytes(StandardCharsets.UTF_8));
            case MERMAID -> out.write(MermaidWriter.write(d).getBytes(StandardCharsets.UTF_8));
            default -> throw new AssertionError(format);
        }
        out.flush();
    }
}
