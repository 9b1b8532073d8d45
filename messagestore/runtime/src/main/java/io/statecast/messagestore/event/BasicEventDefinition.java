package io.statecast.messagestore.event;

/**
 * A basic event declared in a spec's {@code <Basic>} section: a filtered message arrival or
 * timer expiry, named by the input symbol it produces.
 */
public sealed interface BasicEventDefinition permits MessageEventDefinition, TimerEventDefinition {

    /** The event's name, used in transitions and in the history's {@code Event/@name}. */
    String name();

    /**
     * Whether some XPath or XQuery of the spec may read this event's XML form in the history.
     * When false the runtime may record the event without building its XML.
     */
    boolean historyXmlNeeded();

    /** Line of the declaration in the spec, 1-based. */
    int line();
}
