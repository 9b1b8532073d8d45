package io.statecast.messagestore.chart;

import org.w3c.dom.Element;

/**
 * How {@link ChartCompiler} treats a document.
 *
 * @param strict             refuse an expression that does not compile, an {@code <assign>} to an
 *                           undeclared variable and a {@code <send>} to an unsupported target at
 *                           compile time (for specs from the network); when false, such content
 *                           compiles and raises {@code error.execution} when it runs, as the
 *                           Recommendation requires of a conforming processor (the conformance
 *                           tests check this)
 * @param dataResolver       reads {@code <data src>}; {@code null} refuses every {@code src}
 * @param blueprintSections  skip the blueprint's {@code <data name="…">} sections (service,
 *                           metaops, parameters, events), which the spec validator reads
 * @param customActions      compiles executable content of other namespaces (the blueprint's
 *                           action namespace); {@code null} refuses it
 * @param parameters         names of the spec's parameters: read-only variables of every
 *                           expression ({@code $TimeoutACK}), whose values the host gives
 *                           ({@link ChartHost#parameter}); a {@code <data id>} or {@code <foreach>}
 *                           variable of the same name, or an {@code <assign>} to one, is refused
 */
public record ChartOptions(boolean strict, DataResolver dataResolver, boolean blueprintSections,
        CustomActions customActions, java.util.Set<String> parameters) {

    /** Copies the parameter names; {@code null} means none. */
    public ChartOptions {
        parameters = parameters == null ? java.util.Set.of() : java.util.Set.copyOf(parameters);
    }

    /** Without parameters. */
    public ChartOptions(boolean strict, DataResolver dataResolver, boolean blueprintSections,
            CustomActions customActions) {
        this(strict, dataResolver, blueprintSections, customActions, java.util.Set.of());
    }

    /** Strict, no {@code src}, no sections, no custom actions: for plain SCXML from outside. */
    public static final ChartOptions STRICT = new ChartOptions(true, null, false, null);

    /** Without sections or custom actions. */
    public ChartOptions(boolean strict, DataResolver dataResolver) {
        this(strict, dataResolver, false, null);
    }

    /** Reads the text a {@code <data src>} names, or refuses it with a reason. */
    @FunctionalInterface
    public interface DataResolver {
        /**
         * @return the text of {@code src}
         * @throws java.io.IOException naming why it cannot be read
         */
        String read(String src) throws java.io.IOException;
    }

    /** Compiles one element of executable content in another namespace. */
    @FunctionalInterface
    public interface CustomActions {

        /** What {@link #compile} answers for an element that compiles to nothing at run time. */
        Object NOTHING = new Object();

        /**
         * @return what the session hands to {@link ChartHost#custom} when the element runs,
         *         {@link #NOTHING} for an element with no run-time effect (it only contributes
         *         to another), or {@code null} when the element is not known
         */
        Object compile(Element element);
    }
}
