package io.statecast.messagestore.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.statecast.overlay.metrics.Meters;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Binds the run-time deployment counters ({@link DeploymentMetrics}) as meters:
 * {@code statecast.store.node.downloads{result}}, {@code …held.dropped},
 * {@code …service.requests{result}} and {@code …publishes{result}}. Each read takes the
 * handler's snapshot (at export time only).
 */
public final class DeploymentMeters {

    private DeploymentMeters() {
    }

    /**
     * Binds them.
     *
     * @param state   the object that owns the handler (held weakly by the registry)
     * @param metrics reads the current snapshot from {@code state}
     */
    public static <T> void bind(MeterRegistry r, T state, Function<T, DeploymentMetrics> metrics) {
        String dl = "store.node.downloads";
        String dd = "unknown services' specs this node set out to download, by result";
        one(r, dl, dd, state, metrics, "started", DeploymentMetrics::downloadsStarted);
        one(r, dl, dd, state, metrics, "attempted", DeploymentMetrics::downloadAttempts);
        one(r, dl, dd, state, metrics, "installed", DeploymentMetrics::downloadsInstalled);
        one(r, dl, dd, state, metrics, "not_found", DeploymentMetrics::downloadsNotFound);
        one(r, dl, dd, state, metrics, "refused", DeploymentMetrics::downloadsRefused);
        one(r, dl, dd, state, metrics, "untrusted", DeploymentMetrics::downloadsUntrusted);
        one(r, dl, dd, state, metrics, "failed", DeploymentMetrics::downloadsFailed);
        one(r, dl, dd, state, metrics, "abandoned", DeploymentMetrics::downloadsAbandoned);
        Meters.counter(r, "store.node.held.dropped", "held messages dropped because their service was given up",
                state, s -> metrics.apply(s).heldDropped(), Tags.empty());
        String rq = "store.node.service.requests";
        String rd = "Service Request messages (MessageType -1), by result";
        one(r, rq, rd, state, metrics, "sent", DeploymentMetrics::requestsSent);
        one(r, rq, rd, state, metrics, "received", DeploymentMetrics::requestsReceived);
        one(r, rq, rd, state, metrics, "answered", DeploymentMetrics::requestsAnswered);
        one(r, rq, rd, state, metrics, "ignored", DeploymentMetrics::requestsIgnored);
        one(r, rq, rd, state, metrics, "throttled", DeploymentMetrics::requestsThrottled);
        String pb = "store.node.publishes";
        String pd = "specs this node published to the spec server, by result";
        one(r, pb, pd, state, metrics, "stored", DeploymentMetrics::publishes);
        one(r, pb, pd, state, metrics, "already_there", DeploymentMetrics::publishesAlreadyThere);
        one(r, pb, pd, state, metrics, "conflict", DeploymentMetrics::publishConflicts);
        one(r, pb, pd, state, metrics, "failed", DeploymentMetrics::publishFailures);
    }

    private static <T> void one(MeterRegistry r, String name, String description, T state,
            Function<T, DeploymentMetrics> metrics, String result, ToLongFunction<DeploymentMetrics> field) {
        Meters.counter(r, name, description, state, s -> field.applyAsLong(metrics.apply(s)), Tags.of("result", result));
    }
}
