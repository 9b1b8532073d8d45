package io.statecast.messagestore.metrics;

import io.statecast.messagestore.action.ActionOutcome;
import io.statecast.messagestore.chart.ChartLimit;
import io.statecast.messagestore.spec.Primitive;
import java.util.Map;

/**
 * The counters of a node or a service at one moment.
 *
 * @param messages             messages processed (the blueprint's T_msg is measured over these)
 * @param timerEvents          timer expiries that reached a live instance
 * @param liveInstances        instances alive now
 * @param created              instances created
 * @param terminated           instances ended by {@code terminate}
 * @param finished             instances ended by reaching a final state
 * @param expired              instances removed for idleness, unload or quarantine
 * @param limitEnds            instances ended because their state machine passed a bound, by bound
 *                             ({@code MICROSTEPS}: a loop; {@code QUEUED_EVENTS}: a queue overflow)
 * @param drops                dropped messages by reason
 * @param primitives           primitive calls executed, by primitive
 * @param actionOutcomes       every action by outcome (executed, failed, over the service's send budget,
 *                             discarded)
 * @param compositeEvaluations composite-event queries evaluated
 * @param compositesFired      of those, how many were true
 * @param evaluationFailures   XPath/XQuery evaluations that failed
 * @param historyEvicted       history entries evicted to respect the history limit
 * @param engineErrors         errors the SCXML engine reported
 * @param dataHolds            times a shard held its data messages back because the application's receive
 *                             queue was full (node counters only)
 * @param deferredEvents       events that waited for their instance's primitive budget before their
 *                             step (timer expiries, delayed sends, messages of the node's application);
 *                             messages from the network are refused instead ({@link DropReason#THROTTLED})
 * @param processing           time to process one message (T_msg), from leaving the queue to
 *                             the end of its actions
 */
public record CountersSnapshot(long messages, long timerEvents, int liveInstances, long created, long terminated,
        long finished, long expired, Map<ChartLimit, Long> limitEnds, Map<DropReason, Long> drops,
        Map<Primitive, Long> primitives, Map<ActionOutcome, Long> actionOutcomes, long compositeEvaluations,
        long compositesFired, long evaluationFailures, long historyEvicted, long engineErrors, long dataHolds,
        long deferredEvents, LatencyHistogram.Snapshot processing) {

    /** Copies the maps. */
    public CountersSnapshot {
        limitEnds = Map.copyOf(limitEnds);
        drops = Map.copyOf(drops);
        primitives = Map.copyOf(primitives);
        actionOutcomes = Map.copyOf(actionOutcomes);
    }

    /** Instances ended because their state machine passed {@code limit}. */
    public long limitEnds(ChartLimit limit) {
        return limitEnds.getOrDefault(limit, 0L);
    }

    /** Instances ended because their state machine passed any bound. */
    public long totalLimitEnds() {
        return limitEnds.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Drops for {@code reason}. */
    public long drops(DropReason reason) {
        return drops.getOrDefault(reason, 0L);
    }

    /** Every drop. */
    public long totalDrops() {
        return drops.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Executed calls of {@code p}. */
    public long executed(Primitive p) {
        return primitives.getOrDefault(p, 0L);
    }

    /** Actions that ended with {@code outcome}. */
    public long actions(ActionOutcome outcome) {
        return actionOutcomes.getOrDefault(outcome, 0L);
    }

    /** Lines of a printable summary, each starting with {@code indent}. */
    void format(StringBuilder out, String indent) {
        out.append(indent).append("messages ").append(messages).append(", timer events ").append(timerEvents)
                .append('\n');
        out.append(indent).append("T_msg ").append(processing).append('\n');
        out.append(indent).append("instances live ").append(liveInstances).append(", created ").append(created)
                .append(", terminated ").append(terminated).append(", finished ").append(finished)
                .append(", expired ").append(expired).append(", ended by limits ").append(totalLimitEnds());
        for (ChartLimit l : ChartLimit.values()) {
            long n = limitEnds(l);
            if (n > 0) {
                out.append(' ').append(l).append(' ').append(n);
            }
        }
        out.append('\n');
        out.append(indent).append("actions");
        for (ActionOutcome o : ActionOutcome.values()) {
            out.append(' ').append(o.name().toLowerCase(java.util.Locale.ROOT)).append(' ').append(actions(o));
        }
        out.append('\n');
        StringBuilder prims = new StringBuilder();
        for (Primitive p : Primitive.values()) {
            long n = executed(p);
            if (n > 0) {
                prims.append(' ').append(p.specName()).append(' ').append(n);
            }
        }
        if (prims.length() > 0) {
            out.append(indent).append("primitives").append(prims).append('\n');
        }
        out.append(indent).append("composites evaluated ").append(compositeEvaluations).append(", fired ")
                .append(compositesFired).append(", evaluation failures ").append(evaluationFailures)
                .append(", history evicted ").append(historyEvicted).append(", engine errors ").append(engineErrors)
                .append(dataHolds > 0 ? ", data held for the application " + dataHolds + "x" : "")
                .append(deferredEvents > 0 ? ", events deferred for the primitive budget " + deferredEvents : "")
                .append('\n');
        StringBuilder d = new StringBuilder();
        for (DropReason r : DropReason.values()) {
            long n = drops(r);
            if (n > 0) {
                d.append(' ').append(r).append(' ').append(n);
            }
        }
        out.append(indent).append("drops ").append(totalDrops()).append(d.length() > 0 ? ":" + d : "").append('\n');
    }
}
