package io.statecast.overlay.substrate;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of an {@link Adapter}.
 *
 * @param dropLogInterval at most one WARN line per drop cause per this interval; the line says how
 *                        many drops of that cause it stands for. Default {@value #DEFAULT_DROP_LOG_INTERVAL_SECONDS} s:
 *                        a flood of garbage must not become a flood of log lines. Must be 1 ms..1 h.
 */
public record AdapterConfig(Duration dropLogInterval) {

    /** Default of {@link #dropLogInterval()}, in seconds. */
    public static final long DEFAULT_DROP_LOG_INTERVAL_SECONDS = 10;

    /** Validates every field, naming it and its limit on failure. */
    public AdapterConfig {
        Objects.requireNonNull(dropLogInterval, "dropLogInterval");
        if (dropLogInterval.compareTo(Duration.ofMillis(1)) < 0 || dropLogInterval.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("dropLogInterval=" + dropLogInterval + " must be within 1 ms..1 h");
        }
    }

    /** The documented defaults. */
    public static AdapterConfig defaults() {
        return new AdapterConfig(Duration.ofSeconds(DEFAULT_DROP_LOG_INTERVAL_SECONDS));
    }
}
