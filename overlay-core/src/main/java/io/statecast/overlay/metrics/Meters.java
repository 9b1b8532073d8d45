package io.statecast.overlay.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Shorthands for binding existing counters as meters: every meter reads state a component keeps
 * anyway (Micrometer holds that state weakly, so it must stay reachable from the component).
 * Names are given without the {@value NodeMetrics#PREFIX} prefix, dot-separated; Prometheus shows
 * {@code a.b} as {@code statecast_a_b}, counters with {@code _total}.
 */
public final class Meters {

    private Meters() {
    }

    /** Registers a monotonic counter {@code statecast.<name>} reading {@code fn(state)}. */
    public static <T> Meter counter(MeterRegistry r, String name, String description, T state,
            ToDoubleFunction<T> fn, Tags tags) {
        return FunctionCounter.builder(NodeMetrics.PREFIX + name, state, fn).description(description).tags(tags)
                .register(r);
    }

    /** Registers a gauge {@code statecast.<name>} reading {@code fn(state)}. */
    public static <T> Meter gauge(MeterRegistry r, String name, String description, T state,
            ToDoubleFunction<T> fn, Tags tags) {
        return Gauge.builder(NodeMetrics.PREFIX + name, state, fn).description(description).tags(tags).register(r);
    }

    /** An enum constant as a tag value: {@code QUEUE_FULL} reads {@code queue_full}. */
    public static String tagValue(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
