package io.statecast.messagestore.support;

import io.statecast.messagestore.event.EvaluationGuard;
import io.statecast.messagestore.event.QueryEvaluator;
import io.statecast.messagestore.instance.EndCause;
import io.statecast.messagestore.instance.InstanceEnvironment;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.ServiceInstance;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.metrics.Counters;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.substrate.TimerService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs instances directly on the test thread: timers fire on the overlay's (virtual) clock. */
public final class TestEnvironment implements InstanceEnvironment {

    private final OverlayContext overlay;
    private final InstanceLimits limits;
    private final QueryEvaluator evaluator = new QueryEvaluator(EvaluationGuard.NONE);
    private final Counters counters = new Counters();
    public final List<String> endings = new ArrayList<>();
    public final List<String> quarantines = new ArrayList<>();

    public TestEnvironment(OverlayContext overlay, InstanceLimits limits) {
        this.overlay = overlay;
        this.limits = limits;
    }

    @Override
    public OverlayContext overlay() {
        return overlay;
    }

    @Override
    public QueryEvaluator evaluator() {
        return evaluator;
    }

    @Override
    public InstanceLimits limits() {
        return limits;
    }

    @Override
    public Counters nodeCounters() {
        return counters;
    }

    @Override
    public TimerService.Timer schedule(ServiceInstance instance, int timerId, long generation, long delayMillis) {
        return overlay.timers().schedule(delayMillis, TimeUnit.MILLISECONDS, () -> instance.onTimer(timerId, generation));
    }

    @Override
    public void ended(ServiceInstance instance, EndCause cause) {
        endings.add(instance.key() + " " + cause);
    }

    @Override
    public void quarantine(ServiceRuntime service, String reason) {
        quarantines.add(service.name() + ": " + reason);
        service.quarantine(reason);
    }
}
