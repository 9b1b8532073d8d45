package io.statecast.messagestore.metrics;

import io.statecast.messagestore.action.ActionOutcome;
import io.statecast.messagestore.chart.ChartLimit;
import io.statecast.messagestore.spec.Primitive;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters kept both per node and per service; updated by shard threads (lock-free), read by
 * anyone as a {@link CountersSnapshot}.
 */
public final class Counters {

    final LongAdder messages = new LongAdder();
    final LongAdder timerEvents = new LongAdder();
    final AtomicInteger liveInstances = new AtomicInteger();
    final LongAdder created = new LongAdder();
    final LongAdder terminated = new LongAdder();
    final LongAdder finished = new LongAdder();
    final LongAdder expired = new LongAdder();
    final LongAdder compositeEvaluations = new LongAdder();
    final LongAdder compositesFired = new LongAdder();
    final LongAdder evaluationFailures = new LongAdder();
    final LongAdder historyEvicted = new LongAdder();
    final LongAdder engineErrors = new LongAdder();
    final LongAdder dataHolds = new LongAdder();
    final LongAdder deferredEvents = new LongAdder();
    final LongAdder warmStartOverruns = new LongAdder();
    final LatencyHistogram processing = new LatencyHistogram();
    private final LongAdder[] drops = adders(DropReason.values().length);
    private final LongAdder[] primitives = adders(Primitive.values().length);
    private final LongAdder[] outcomes = adders(ActionOutcome.values().length);
    private final LongAdder[] limitEnds = adders(ChartLimit.values().length);

    private static LongAdder[] adders(int n) {
        LongAdder[] a = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    /** A message was handed to an instance (or found no event), taking {@code nanos} to process. */
    public void messageProcessed(long nanos) {
        messages.increment();
        processing.record(nanos);
    }

    /** A timer expiry reached a live instance. */
    public void timerEvent() {
        timerEvents.increment();
    }

    /**
     * An event waited for its instance's primitive budget instead of being stepped at once (a
     * timer expiry, a delayed send, a message of the node's application).
     */
    public void eventDeferred() {
        deferredEvents.increment();
    }

    /** A message was dropped. */
    public void drop(DropReason reason) {
        drops[reason.ordinal()].increment();
    }

    /** An instance was created. */
    public void instanceCreated() {
        created.increment();
        liveInstances.incrementAndGet();
    }

    /** An instance ended by the terminate primitive. */
    public void instanceTerminated() {
        terminated.increment();
        liveInstances.decrementAndGet();
    }

    /** An instance ended in a final state. */
    public void instanceFinished() {
        finished.increment();
        liveInstances.decrementAndGet();
    }

    /** An instance ended because its state machine passed {@code limit}. */
    public void instanceEndedByLimit(ChartLimit limit) {
        limitEnds[limit.ordinal()].increment();
        liveInstances.decrementAndGet();
    }

    /** An instance was removed for idleness, unload or quarantine. */
    public void instanceExpired() {
        expired.increment();
        liveInstances.decrementAndGet();
    }

    /** A primitive call ended with {@code outcome}. */
    public void action(Primitive p, ActionOutcome outcome) {
        // executed calls are counted once, by primitive (nearly every call: one add, not two);
        // their outcome total is the sum, taken in the snapshot
        if (outcome == ActionOutcome.EXECUTED) {
            primitives[p.ordinal()].increment();
        } else {
            outcomes[outcome.ordinal()].increment();
        }
    }

    /** A composite event's query ran; {@code fired} if it was true. */
    public void compositeEvaluated(boolean fired) {
        compositeEvaluations.increment();
        if (fired) {
            compositesFired.increment();
        }
    }

    /** An XPath or XQuery failed at run time. */
    public void evaluationFailed() {
        evaluationFailures.increment();
    }

    /** A history entry was evicted to stay within the history limit. */
    public void historyEvicted() {
        historyEvicted.increment();
    }

    /** The SCXML engine reported an error. */
    public void engineError() {
        engineErrors.increment();
    }

    /** A spec's warm start overran its deadline: the spec was refused and the warm start stopped. */
    public void warmStartOverrun() {
        warmStartOverruns.increment();
    }

    /** Specs refused because their warm start overran its deadline (node counters only). */
    public long warmStartOverruns() {
        return warmStartOverruns.sum();
    }

    /**
     * A shard began holding its data messages back: the application's receive queue was full.
     */
    public void dataHeld() {
        dataHolds.increment();
    }

    /** Live instances now. */
    public int liveInstances() {
        return liveInstances.get();
    }

    // single reads for meters (StoreMeters): a scrape reads one value without building a snapshot

    long drops(DropReason r) {
        return drops[r.ordinal()].sum();
    }

    long executed(Primitive p) {
        return primitives[p.ordinal()].sum();
    }

    long actions(ActionOutcome o) {
        if (o != ActionOutcome.EXECUTED) {
            return outcomes[o.ordinal()].sum();
        }
        long n = 0;
        for (LongAdder a : primitives) {
            n += a.sum();
        }
        return n;
    }

    long limitEnds(ChartLimit l) {
        return limitEnds[l.ordinal()].sum();
    }

    /** A snapshot. */
    public CountersSnapshot snapshot() {
        Map<DropReason, Long> d = new EnumMap<>(DropReason.class);
        for (DropReason r : DropReason.values()) {
            d.put(r, drops[r.ordinal()].sum());
        }
        Map<Primitive, Long> p = new EnumMap<>(Primitive.class);
        long executed = 0;
        for (Primitive x : Primitive.values()) {
            long n = primitives[x.ordinal()].sum();
            p.put(x, n);
            executed += n;
        }
        Map<ActionOutcome, Long> o = new EnumMap<>(ActionOutcome.class);
        for (ActionOutcome x : ActionOutcome.values()) {
            o.put(x, x == ActionOutcome.EXECUTED ? executed : outcomes[x.ordinal()].sum());
        }
        Map<ChartLimit, Long> l = new EnumMap<>(ChartLimit.class);
        for (ChartLimit x : ChartLimit.values()) {
            l.put(x, limitEnds[x.ordinal()].sum());
        }
        return new CountersSnapshot(messages.sum(), timerEvents.sum(), liveInstances.get(), created.sum(),
                terminated.sum(), finished.sum(), expired.sum(), l, d, p, o, compositeEvaluations.sum(),
                compositesFired.sum(), evaluationFailures.sum(), historyEvicted.sum(), engineErrors.sum(),
                dataHolds.sum(), deferredEvents.sum(), processing.snapshot());
    }
}
