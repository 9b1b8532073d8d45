package io.statecast.overlay.substrate;

import java.time.Duration;
import java.util.Objects;

/** Range checks for configuration records, with messages naming the field, value and limits. */
final class Limits {

    private Limits() {
    }

    static void within(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + "=" + value + " must be within " + min + ".." + max);
        }
    }

    static void within(String name, Duration value, Duration min, Duration max) {
        Objects.requireNonNull(value, name);
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new IllegalArgumentException(name + "=" + value + " must be within " + min + ".." + max);
        }
    }
}
