package io.statecast.overlay.socket;

import java.util.Objects;

/**
 * A value of a configuration section that binds but is not acceptable (out of range, a file that
 * cannot be read, a missing required field), thrown by the Jackson creator of a record the
 * section maps onto. {@link ConfigSections#bind} turns it into an {@link OverlayConfigException}
 * whose field is the path of the record in the document followed by {@link #field()}:
 * {@code new ConfigValueException("maxLive", "=0 must be within 1..10")} thrown while binding
 * {@code overlay.messageStore.instances} reads
 * {@code overlay.messageStore.instances.maxLive=0 must be within 1..10}.
 */
public final class ConfigValueException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String field;
    private final String problem;

    /**
     * @param field   dotted path of the field below the record being created ({@code maxLive},
     *                {@code parameters.Window}), or {@code ""} for the record's own value
     * @param problem what follows the field's full path in the message: {@code "=0 must be within 1..10"},
     *                {@code " is required"}
     */
    public ConfigValueException(String field, String problem) {
        super((field.isEmpty() ? "(this section)" : field) + problem);
        this.field = Objects.requireNonNull(field, "field");
        this.problem = Objects.requireNonNull(problem, "problem");
    }

    /** Dotted path below the record being created; {@code ""}: the record's own value. */
    public String field() {
        return field;
    }

    /** The message without the field's path. */
    public String problem() {
        return problem;
    }

    /**
     * {@code value}, or {@code fallback} when the field is absent, checked against {@code min..max}.
     *
     * @throws ConfigValueException {@code field=value must be within min..max}
     */
    public static long within(String field, Long value, long fallback, long min, long max) {
        long v = value == null ? fallback : value;
        if (v < min || v > max) {
            throw new ConfigValueException(field, "=" + v + " must be within " + min + ".." + max);
        }
        return v;
    }

    /** {@link #within(String, Long, long, long, long)} for a field of type {@code int}. */
    public static int within(String field, Long value, int fallback, int min, int max) {
        return (int) within(field, value, (long) fallback, min, max);
    }

    /** {@link #within(String, Long, long, long, long)} for a real number (NaN is never within). */
    public static double within(String field, Double value, double fallback, double min, double max) {
        double v = value == null ? fallback : value;
        if (!(v >= min && v <= max)) {
            throw new ConfigValueException(field, "=" + v + " must be within " + min + ".." + max);
        }
        return v;
    }

    /**
     * {@code text} as an absolute URI.
     *
     * @throws ConfigValueException {@code field=text needs a scheme} or {@code is not a URI}
     */
    public static java.net.URI uri(String field, String text) {
        try {
            java.net.URI u = new java.net.URI(text);
            if (u.getScheme() == null) {
                throw new ConfigValueException(field, "=" + text + " needs a scheme (such as file:, classpath: or http:)");
            }
            return u;
        } catch (java.net.URISyntaxException e) {
            throw new ConfigValueException(field, "=" + text + " is not a URI: " + e.getMessage());
        }
    }
}
