package io.statecast.messagestore.action;

import io.statecast.messagestore.event.CompiledPath;
import io.statecast.messagestore.event.EvaluationException;
import io.statecast.messagestore.event.NodeSnapshot;
import io.statecast.messagestore.event.PathResult;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.message.OverlayMessage;

/**
 * What a running action may use: the overlay (through the narrow {@link OverlayContext}), its
 * instance's history and timers, and nothing else. Implemented by the instance.
 */
public interface ActionContext {

    /** The spec whose action runs (ServiceID, parameters). */
    ServiceSpec spec();

    /** The overlay primitives. */
    OverlayContext overlay();

    /** Evaluates an action XPath over the instance's history; {@code null} when empty. */
    PathResult evaluate(CompiledPath path) throws EvaluationException;

    /**
     * The MessageID of a message the spec builds without naming one and without copying one:
     * the instance's MessageID (message scope) or a fresh one (flow scope).
     */
    long defaultMessageId();

    /**
     * The origin of the instance's message ({@link io.statecast.overlay.message.Origin}) under a
     * message scope, where {@link #defaultMessageId()} is that message's MessageID; {@code null}
     * under the other scopes (the instance's messages are this node's own).
     */
    default LogicalAddress defaultOrigin() {
        return null;
    }

    /**
     * The next sequence number of the instance's flow: its service and the source of the message
     * that created it (this node for its application's own sends). Counted by the service
     * across its instances and shards, starting at 0; not the node's MessageID counter.
     *
     * @throws ActionException if the service cannot count one more flow
     */
    long nextFlowSequence() throws ActionException;

    /**
     * The sequence number this instance took from its flow: taken ({@link #nextFlowSequence})
     * the first time it is asked for, the same afterwards.
     *
     * @throws ActionException as {@link #nextFlowSequence}
     */
    long instanceSequence() throws ActionException;

    /** The message of the instance's most recent message event, or {@code null}. */
    OverlayMessage lastMessage();

    /** Sets (or re-sets) the instance's timer. */
    void setTimer(int timerId, long delayMillis) throws ActionException;

    /** Cancels the instance's timer; false if it was not set. */
    boolean cancelTimer(int timerId);

    /** Ends the instance after this action. */
    void terminate();

    /** Appends a node record to the history. */
    void recordNode(NodeSnapshot node);

    /**
     * Removes the history entries containing the nodes {@code path} selects.
     *
     * @return how many entries were removed
     */
    int forget(CompiledPath path) throws EvaluationException;
}
