package io.statecast.messagestore.event;

import java.util.Set;

/**
 * Element and attribute names of the history document that composite-event queries and action
 * XPaths read: the blueprint's <em>History of Basic Events</em>.
 *
 * <pre>
 * &lt;HistoryOfEvents&gt;
 *   &lt;Event name="payloadmessage" time="…"&gt;
 *     &lt;Message&gt; MessageIdentifier ServiceIdentifier DeliveryMode HopLimit SourceAddress
 *               DestinationAddress PreviousHopAddress RootAddress MessageType MessageKind
 *               Fields/Field[@name][@type]* Payload &lt;/Message&gt;
 *   &lt;/Event&gt;
 *   &lt;Event name="acktimeout" time="…"&gt; &lt;Timer&gt; TimerIdentifier &lt;/Timer&gt; &lt;/Event&gt;
 *   &lt;Node&gt; LogicalAddress  Parent/LogicalAddress  Children/LogicalAddress*
 *          Neighbours/LogicalAddress* &lt;/Node&gt;
 * &lt;/HistoryOfEvents&gt;
 * </pre>
 *
 * The two vocabularies are disjoint: no name under {@code Node} appears under {@code Event}. The
 * read analysis of queries ({@link HistoryReads}) relies on that.
 */
public final class HistoryVocabulary {

    /** Root element. */
    public static final String HISTORY = "HistoryOfEvents";
    /** One basic event; attribute {@link #NAME_ATTRIBUTE} is the event's name. */
    public static final String EVENT = "Event";
    /** Attribute of {@link #EVENT} holding the basic event's name. */
    public static final String NAME_ATTRIBUTE = "name";
    /** Marshalled message inside an event. */
    public static final String MESSAGE = "Message";
    /** Marshalled timer inside an event. */
    public static final String TIMER = "Timer";
    /** Timer identifier inside {@link #TIMER}. */
    public static final String TIMER_IDENTIFIER = "TimerIdentifier";
    /** Node information written by updateNodeInfo. */
    public static final String NODE = "Node";

    /** Names that occur only under {@link #NODE}. */
    public static final Set<String> NODE_NAMES = Set.of(NODE, "LogicalAddress", "Parent", "Children", "Neighbours");

    /** Names that occur only inside events (the event element itself excluded). */
    public static final Set<String> EVENT_CONTENT_NAMES = eventContentNames();

    private HistoryVocabulary() {
    }

    private static Set<String> eventContentNames() {
        java.util.HashSet<String> names = new java.util.HashSet<>();
        names.add(MESSAGE);
        names.add(TIMER);
        names.add(TIMER_IDENTIFIER);
        names.add("Payload");
        names.add(History.FIELDS);
        names.add(History.FIELD);
        for (MessageAttribute a : MessageAttribute.values()) {
            names.add(a.elementName());
        }
        return Set.copyOf(names);
    }
}
