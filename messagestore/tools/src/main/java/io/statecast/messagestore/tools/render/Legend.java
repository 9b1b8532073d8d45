package io.statecast.messagestore.tools.render;

import java.util.List;

/** The key under every diagram: what solid and dashed arcs and the two marks mean. */
final class Legend {

    /** What an entry shows. */
    enum Sample {
        /** A solid arc. */
        BASIC,
        /** A dashed arc in the composite colour. */
        COMPOSITE,
        /** The initial dot. */
        INITIAL,
        /** The terminate mark. */
        TERMINATE,
        /** A double border. */
        FINAL
    }

    /**
     * One entry.
     *
     * @param sample what it shows
     * @param x      offset of the sample from the legend's left, px
     * @param text   what it means
     */
    record Entry(Sample sample, double x, String text) {
    }

    /** Width of a sample, px. */
    static final double SAMPLE = 28;

    static final List<Entry> ENTRIES = List.of(
            new Entry(Sample.BASIC, 0, "message or timer event"),
            new Entry(Sample.COMPOSITE, 190, "composite event"),
            new Entry(Sample.INITIAL, 340, "initial"),
            new Entry(Sample.TERMINATE, 420, "terminate"),
            new Entry(Sample.FINAL, 520, "final"));

    /** Total width, px. */
    static final double WIDTH = 600;

    private Legend() {
    }
}
