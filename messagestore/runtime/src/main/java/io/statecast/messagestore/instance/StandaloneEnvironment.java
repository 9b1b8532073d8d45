package io.statecast.messagestore.instance;

import io.statecast.messagestore.event.EvaluationGuard;
import io.statecast.messagestore.event.QueryEvaluator;
import io.statecast.messagestore.metrics.Counters;
import io.statecast.overlay.forward.OverlayContext;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * An environment for instances run outside a store's shards — the warm start, benchmarks, tests:
 * queries without a watchdog, timers on the overlay's own clock, endings ignored, a quarantine
 * applied to the service. Subclasses override {@link #ended} and {@link #quarantine} to observe
 * them.
 */
public class StandaloneEnvironment implements InstanceEnvironment {

    private final OverlayContext overlay;
    private final InstanceLimits limits;
    private final QueryEvaluator evaluator;
    private final Counters counters = new Counters();
    private final ActionQueue actionQueue = new ActionQueue();

    /** Instances see {@code overlay} and run within {@code limits}. */
    public StandaloneEnvironment(OverlayContext overlay, InstanceLimits limits) {
        this(overlay, limits, EvaluationGuard.NONE);
    }

    /** As {@link #StandaloneEnvironment(OverlayContext, InstanceLimits)}, evaluations bracketed by {@code guard}. */
    protected StandaloneEnvironment(OverlayContext overlay, InstanceLimits limits, EvaluationGuard guard) {
        this.overlay = Objects.requireNonNull(overlay, "overlay");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.evaluator = new QueryEvaluator(Objects.requireNonNull(guard, "guard"));
    }

    @Override
    public final OverlayContext overlay() {
        return overlay;
    }

    @Override
    public final QueryEvaluator evaluator() {
        return evaluator;
    }

    @Override
    public final InstanceLimits limits() {
        return limits;
    }

    @Override
    public final Counters nodeCounters() {
        return counters;
    }

    @Override
    public ArmedTimer schedule(ServiceInstance instance, int timerId, long generation, long delayMillis) {
        return ArmedTimer.of(timerId, generation, overlay.timers().schedule(delayMillis, TimeUnit.MILLISECONDS,
                () -> instance.onTimer(timerId, generation)));
    }

    @Override
    public final ActionQueue actionQueue() {
        return actionQueue;
    }

    @Override
    public void ended(ServiceInstance instance, EndCause cause) {
    }

    @Override
    public void quarantine(ServiceRuntime service, String reason) {
        service.quarantine(reason);
    }
}
