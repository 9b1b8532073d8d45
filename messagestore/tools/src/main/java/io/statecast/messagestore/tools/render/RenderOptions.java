package io.statecast.messagestore.tools.render;

/**
 * Bounds and settings of {@link Renderer}. Layout time grows faster than linearly with the size
 * of the graph, so a spec (which may come from anywhere) is refused above these sizes rather than
 * laid out for minutes: at the default limits a random graph (150 states, 600 transitions) takes
 * about 10 s on a 2-core machine; real services have a few dozen states and take well under one.
 *
 * @param maxStates      most states drawn; default {@value #DEFAULT_MAX_STATES}
 * @param maxTransitions most transitions drawn; default {@value #DEFAULT_MAX_TRANSITIONS}
 * @param pngScale       PNG pixels per layout unit, 0.25–4; default {@value #DEFAULT_PNG_SCALE}
 *                       (sharp on high-density screens)
 */
public record RenderOptions(int maxStates, int maxTransitions, double pngScale) {

    /** Default bound on states. */
    public static final int DEFAULT_MAX_STATES = 150;
    /** Default bound on transitions. */
    public static final int DEFAULT_MAX_TRANSITIONS = 600;
    /** Default PNG scale. */
    public static final double DEFAULT_PNG_SCALE = 2.0;

    /** The defaults. */
    public static final RenderOptions DEFAULTS = new RenderOptions(DEFAULT_MAX_STATES, DEFAULT_MAX_TRANSITIONS,
            DEFAULT_PNG_SCALE);

    /** Checks the values. */
    public RenderOptions {
        if (maxStates < 1 || maxTransitions < 0) {
            throw new IllegalArgumentException("maxStates=" + maxStates + " must be >= 1 and maxTransitions="
                    + maxTransitions + " >= 0");
        }
        if (!(pngScale >= 0.25 && pngScale <= 4)) {
            throw new IllegalArgumentException("pngScale=" + pngScale + " must be within 0.25..4");
        }
    }

    /** These options with another PNG scale. */
    public RenderOptions withPngScale(double scale) {
        return new RenderOptions(maxStates, maxTransitions, scale);
    }
}
