package io.statecast.messagestore.instance;

import io.statecast.messagestore.event.QueryEvaluator;
import io.statecast.messagestore.metrics.Counters;
import io.statecast.overlay.forward.OverlayContext;

/**
 * What an instance needs from the shard that runs it. Every method is called on the shard's
 * thread, the one thread that touches the instance.
 */
public interface InstanceEnvironment {

    /** The overlay primitives. */
    OverlayContext overlay();

    /** Evaluates XPath and XQuery (the shard's evaluators). */
    QueryEvaluator evaluator();

    /** The instance bounds. */
    InstanceLimits limits();

    /**
     * What one service may send from this node, over all its instances; the store's
     * ({@code MessageStoreConfig.sendBudget}), the default elsewhere.
     */
    default SendBudget sendBudget() {
        return SendBudget.DEFAULTS;
    }

    /** The node-wide counters (the service's are in its {@link ServiceRuntime}). */
    Counters nodeCounters();

    /**
     * Schedules the expiry of {@code instance}'s timer {@code timerId}: after {@code delayMillis}
     * the shard calls {@link ServiceInstance#onTimer(int, long)} with {@code generation}.
     */
    ArmedTimer schedule(ServiceInstance instance, int timerId, long generation, long delayMillis);

    /**
     * The queue in which the engine steps of this environment's instances leave their actions
     * (one per environment, on its thread).
     */
    ActionQueue actionQueue();

    /**
     * {@code instance} ended by itself ({@code terminate}, a final state, or a bound of its state
     * machine: {@link EndCause}); forget it.
     */
    void ended(ServiceInstance instance, EndCause cause);

    /** An expression of {@code service} must not run again (it overflowed the stack). */
    void quarantine(ServiceRuntime service, String reason);
}
