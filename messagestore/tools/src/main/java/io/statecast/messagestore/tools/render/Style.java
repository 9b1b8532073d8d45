package io.statecast.messagestore.tools.render;

/** Colours and strokes shared by the SVG and PNG writers, so both look alike. */
final class Style {

    static final String INK = "#222222";
    static final String ARC = "#333333";
    static final String COMPOSITE = "#1f5fa8";
    static final String STATE_FILL = "#ffffff";
    static final String INITIAL_FILL = "#e4e4e4";
    static final String FINAL_FILL = "#e4e4e4";
    static final String COMPOUND_FILL = "#f7f7f7";
    static final String LABEL_BACKGROUND = "#ffffff";
    static final String DETAIL_INK = "#444444";
    static final double CORNER = 10;
    static final double STATE_STROKE = 1.4;
    static final double ARC_STROKE = 1.2;
    static final double ARROW_LENGTH = 9;
    static final double ARROW_HALF_WIDTH = 3.6;
    static final float[] DASH = {6, 4};
    static final String MONO_FAMILY = "DejaVu Sans Mono, Menlo, Consolas, monospace";
    static final String SANS_FAMILY = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif";

    private Style() {
    }

    /** Parses {@code #rrggbb}. */
    static java.awt.Color awt(String hex) {
        return new java.awt.Color(Integer.parseInt(hex.substring(1), 16));
    }
}
