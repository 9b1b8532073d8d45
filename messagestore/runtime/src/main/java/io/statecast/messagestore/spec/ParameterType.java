package io.statecast.messagestore.spec;

import java.util.Locale;

/** The type of a spec parameter; {@link #check} says whether a text is a valid value. */
public enum ParameterType {
    /** Whole milliseconds, 0 .. {@value #MAX_DURATION_MS} (one year). */
    DURATION,
    /** A whole number (64-bit). */
    INTEGER,
    /** {@code true} or {@code false}. */
    BOOLEAN,
    /** Any text up to 1024 characters. */
    STRING;

    /** Largest duration accepted, in milliseconds: one year. */
    public static final long MAX_DURATION_MS = 365L * 24 * 3600 * 1000;

    /** The name used in specs. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The type named {@code label} in a spec, or {@code null}. */
    public static ParameterType ofLabel(String label) {
        for (ParameterType t : values()) {
            if (t.label().equals(label)) {
                return t;
            }
        }
        return null;
    }

    /**
     * @return the normalized value
     * @throws IllegalArgumentException naming the expected form
     */
    public String check(String text) {
        String t = text.strip();
        switch (this) {
            case DURATION -> {
                long v = parseLong(t, "a duration is whole milliseconds");
                if (v < 0 || v > MAX_DURATION_MS) {
                    throw new IllegalArgumentException("a duration is 0.." + MAX_DURATION_MS + " ms, got " + v);
                }
                return Long.toString(v);
            }
            case INTEGER -> {
                return Long.toString(parseLong(t, "an integer is a whole number"));
            }
            case BOOLEAN -> {
                if (!t.equals("true") && !t.equals("false")) {
                    throw new IllegalArgumentException("a boolean is true or false, got '" + t + "'");
                }
                return t;
            }
            default -> {
                if (text.length() > 1024) {
                    throw new IllegalArgumentException("a string parameter has at most 1024 characters");
                }
                return text;
            }
        }
    }

    private static long parseLong(String t, String what) {
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + ", got '" + t + "'");
        }
    }
}
