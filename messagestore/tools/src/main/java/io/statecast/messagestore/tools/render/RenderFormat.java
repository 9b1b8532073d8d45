package io.statecast.messagestore.tools.render;

import java.util.Locale;

/** The output formats of {@code statecast spec render}. */
public enum RenderFormat {
    /** A standalone SVG drawn from the ELK layout (the default). */
    SVG("svg", true),
    /** The same drawing rasterised with Java2D. */
    PNG("png", false),
    /** Graphviz DOT, for people who lay out with Graphviz. */
    DOT("dot", true),
    /** A Mermaid {@code stateDiagram-v2}, for Markdown renderers that draw Mermaid. */
    MERMAID("mmd", true);

    private final String extension;
    private final boolean text;

    RenderFormat(String extension, boolean text) {
        this.extension = extension;
        this.text = text;
    }

    /** The usual file extension, without the dot. */
    public String extension() {
        return extension;
    }

    /** Whether the output is text (UTF-8), so it may go to standard output. */
    public boolean isText() {
        return text;
    }

    /** The format named {@code name} ({@code svg}, {@code png}, {@code dot}, {@code mermaid}), case-insensitive. */
    public static RenderFormat ofName(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "svg" -> SVG;
            case "png" -> PNG;
            case "dot", "gv" -> DOT;
            case "mermaid", "mmd" -> MERMAID;
            default -> throw new IllegalArgumentException("unknown format '" + name + "' (svg, png, dot, mermaid)");
        };
    }

    /** The format a file name's extension implies, or {@code null}. */
    public static RenderFormat ofFileName(String fileName) {
        int dot = fileName.lastIndexOf('.');
        if (dot < 0) {
            return null;
        }
        try {
            return ofName(fileName.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
