package io.statecast.messagestore.chart;

/**
 * How {@link ChartCompiler} treats a document.
 *
 * @param strict       refuse an expression that does not compile, an {@code <assign>} to an
 *                     undeclared variable and a {@code <send>} to an unsupported target at compile
 *                     time (for specs from the network); when false, such content compiles and
 *                     raises {@code error.execution} when it runs, as the Recommendation requires of
 *                     a conforming processor (the conformance tests check this)
 * @param dataResolver reads {@code <data src>}; {@code null} refuses every {@code src}
 */
public record ChartOptions(boolean strict, DataResolver dataResolver) {

    /** Strict, no {@code src}: for specs that arrive from outside. */
    public static final ChartOptions STRICT = new ChartOptions(true, null);

    /** Reads the text a {@code <data src>} names, or refuses it with a reason. */
    @FunctionalInterface
    public interface DataResolver {
        /**
         * @return the text of {@code src}
         * @throws java.io.IOException naming why it cannot be read
         */
        String read(String src) throws java.io.IOException;
    }
}
