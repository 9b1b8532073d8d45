package io.statecast.messagestore.metrics;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.statecast.messagestore.action.ActionOutcome;
import io.statecast.messagestore.chart.ChartLimit;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.overlay.metrics.Meters;
import io.statecast.overlay.metrics.NodeMetrics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Binds a MessageStore's {@link Counters} as meters in a socket's registry: the whole store's
 * under {@code statecast.store.node.*}, each loaded service's under {@code statecast.store.*}
 * tagged {@code service} (its name) and {@code service_id}. Every meter reads the existing
 * counter at export time; a service's meters are removed when it is unloaded or replaced.
 * Thread-safe (services load and unload from any thread).
 */
public final class StoreMeters {

    private final MeterRegistry registry;
    private final Map<Integer, List<Meter>> services = new HashMap<>();

    /** Binds the whole store's {@code node} counters. */
    public StoreMeters(MeterRegistry registry, Counters node) {
        this.registry = Objects.requireNonNull(registry, "registry");
        bind(registry, "store.node.", node, Tags.empty());
        Meters.counter(registry, "store.node.warmstart.overruns",
                "specs refused because their warm start overran its deadline (the warm start was stopped)", node,
                Counters::warmStartOverruns, Tags.empty());
    }

    /** The registry the meters are in. */
    public MeterRegistry registry() {
        return registry;
    }

    /**
     * Binds (or re-binds, if a service with this ID was bound) one service's counters.
     *
     * @param serviceId its ServiceID (tag {@code service_id})
     * @param name      its name (tag {@code service})
     */
    public synchronized void bindService(int serviceId, String name, Counters counters) {
        unbindService(serviceId);
        services.put(serviceId, bind(registry, "store.", counters,
                Tags.of("service", name, "service_id", Integer.toString(serviceId))));
    }

    /** Removes one service's meters, if bound. */
    public synchronized void unbindService(int serviceId) {
        List<Meter> old = services.remove(serviceId);
        if (old != null) {
            old.forEach(registry::remove);
        }
    }

    private static List<Meter> bind(MeterRegistry r, String p, Counters c, Tags t) {
        List<Meter> m = new ArrayList<>();
        m.add(Meters.counter(r, p + "messages", "messages processed", c, x -> x.messages.sum(), t));
        m.add(Meters.counter(r, p + "timer.events", "timer expiries that reached a live instance", c,
                x -> x.timerEvents.sum(), t));
        m.add(Meters.gauge(r, p + "instances.live", "instances alive now", c, x -> x.liveInstances.get(), t));
        m.add(Meters.counter(r, p + "instances.creations", "instances created", c, x -> x.created.sum(), t));
        String ended = "instances ended, by cause (terminate, final state, expired: idle/unload/quarantine,"
                + " limit_*: their state machine passed a bound)";
        m.add(Meters.counter(r, p + "instances.ended", ended, c, x -> x.terminated.sum(), t.and("cause", "terminated")));
        m.add(Meters.counter(r, p + "instances.ended", ended, c, x -> x.finished.sum(), t.and("cause", "finished")));
        m.add(Meters.counter(r, p + "instances.ended", ended, c, x -> x.expired.sum(), t.and("cause", "expired")));
        for (ChartLimit l : ChartLimit.values()) {
            m.add(Meters.counter(r, p + "instances.ended", ended, c, x -> x.limitEnds(l),
                    t.and("cause", "limit_" + Meters.tagValue(l))));
        }
        for (DropReason d : DropReason.values()) {
            m.add(Meters.counter(r, p + "drops", "messages dropped (or instances refused), by reason", c,
                    x -> x.drops(d), t.and("reason", Meters.tagValue(d))));
        }
        for (Primitive pr : Primitive.values()) {
            m.add(Meters.counter(r, p + "primitives", "primitive calls executed, by primitive", c,
                    x -> x.executed(pr), t.and("primitive", pr.specName())));
        }
        for (ActionOutcome o : ActionOutcome.values()) {
            m.add(Meters.counter(r, p + "actions", "actions by outcome", c, x -> x.actions(o),
                    t.and("outcome", Meters.tagValue(o))));
        }
        m.add(Meters.counter(r, p + "composite.evaluations", "composite-event queries evaluated", c,
                x -> x.compositeEvaluations.sum(), t));
        m.add(Meters.counter(r, p + "composite.fired", "composite-event queries that were true", c,
                x -> x.compositesFired.sum(), t));
        m.add(Meters.counter(r, p + "evaluation.failures", "XPath/XQuery evaluations that failed", c,
                x -> x.evaluationFailures.sum(), t));
        m.add(Meters.counter(r, p + "history.evicted", "history entries evicted to respect the history limit", c,
                x -> x.historyEvicted.sum(), t));
        m.add(Meters.counter(r, p + "engine.errors", "errors the state-machine engine reported", c,
                x -> x.engineErrors.sum(), t));
        m.add(Meters.counter(r, p + "data.holds", "times a shard held data back for a full application queue", c,
                x -> x.dataHolds.sum(), t));
        m.add(Meters.counter(r, p + "deferred.events", "events that waited for their instance's primitive budget", c,
                x -> x.deferredEvents.sum(), t));
        m.add(FunctionTimer.builder(NodeMetrics.PREFIX + p + "processing", c.processing, LatencyHistogram::count,
                LatencyHistogram::totalNanos, TimeUnit.NANOSECONDS)
                .description("time to process one message (T_msg)").tags(t).register(r));
        return m;
    }
}
