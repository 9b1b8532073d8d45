package io.statecast.messagestore.spec;

/** Which messages share a service instance. */
public enum Scope {
    /** One instance per (ServiceID, MessageID): the blueprint's message-oriented delivery. Default. */
    MESSAGE,
    /** One instance per (ServiceID, source address): state across the messages of a flow. */
    FLOW
}
