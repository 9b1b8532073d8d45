package io.statecast.messagestore.spec;

/**
 * Receives the primitive invocations an instance's engine executes. The runtime implements it
 * per instance (or per shard with the instance known) and passes it to
 * {@link ServiceSpec#newExecutor(ActionSink)}.
 *
 * <p>Called on the thread that triggers the engine, synchronously, in document order, once per
 * {@code <action:execute>} that runs. Implementations should only queue: the blueprint's actions
 * run after the engine step, asynchronously to the state machine.
 */
@FunctionalInterface
public interface ActionSink {

    /** Queues one primitive invocation. Must not throw. */
    void enqueue(ActionTemplate action);
}
