package io.statecast.specserver;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of what the spec server did and refused, by cause. Thread-safe; read with
 * {@link #snapshot()}.
 */
public final class SpecServerMetrics {

    final LongAdder requests = new LongAdder();
    final LongAdder connectionsRefused = new LongAdder();
    final LongAdder connectionsRefusedPerAddress = new LongAdder();
    final LongAdder headTimeouts = new LongAdder();
    final LongAdder malformedRequests = new LongAdder();
    final LongAdder unauthorized = new LongAdder();
    final LongAdder tooLarge = new LongAdder();
    final LongAdder timeouts = new LongAdder();
    final LongAdder overloaded = new LongAdder();
    final LongAdder invalidSpecs = new LongAdder();
    final LongAdder preconditionFailed = new LongAdder();
    final LongAdder specsWritten = new LongAdder();
    final LongAdder specsDeleted = new LongAdder();
    final LongAdder untrustedSpecs = new LongAdder();
    final LongAdder restores = new LongAdder();
    final LongAdder internalErrors = new LongAdder();

    SpecServerMetrics() {
    }

    /**
     * Current values, by name: {@code requests} (complete requests handled),
     * {@code connectionsRefused} (over maxConnections or maxConnectionsPerAddress),
     * {@code connectionsRefusedPerAddress} (of those, over maxConnectionsPerAddress),
     * {@code headTimeouts} (closed without a complete request head within headerTimeout; also
     * counted in {@code timeouts}), {@code malformedRequests} (400/414/431 from
     * the decoder), {@code unauthorized} (401), {@code tooLarge} (413), {@code timeouts} (408 or
     * closed for slowness, and processing timeouts), {@code overloaded} (503 because the worker
     * queue was full), {@code invalidSpecs} (400 with problems, 409), {@code preconditionFailed}
     * (412), {@code specsWritten}, {@code specsDeleted}, {@code untrustedSpecs} (403: not signed by a trusted
     * key), {@code restores} (versions made current again), {@code internalErrors} (500 and exceptions
     * that closed a connection).
     *
     * @return name to value, in a stable order
     */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("requests", requests.sum());
        m.put("connectionsRefused", connectionsRefused.sum());
        m.put("connectionsRefusedPerAddress", connectionsRefusedPerAddress.sum());
        m.put("headTimeouts", headTimeouts.sum());
        m.put("malformedRequests", malformedRequests.sum());
        m.put("unauthorized", unauthorized.sum());
        m.put("tooLarge", tooLarge.sum());
        m.put("timeouts", timeouts.sum());
        m.put("overloaded", overloaded.sum());
        m.put("invalidSpecs", invalidSpecs.sum());
        m.put("preconditionFailed", preconditionFailed.sum());
        m.put("specsWritten", specsWritten.sum());
        m.put("specsDeleted", specsDeleted.sum());
        m.put("untrustedSpecs", untrustedSpecs.sum());
        m.put("restores", restores.sum());
        m.put("internalErrors", internalErrors.sum());
        return m;
    }

    @Override
    public String toString() {
        return "SpecServerMetrics" + snapshot();
    }
}
