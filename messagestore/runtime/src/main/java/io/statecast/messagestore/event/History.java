package io.statecast.messagestore.event;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.MessageField;
import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.OverlayMessage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import net.sf.saxon.om.NodeInfo;
import net.sf.saxon.s9api.XdmNode;

/**
 * One instance's history: the blueprint's <em>History of Basic Events</em> (every basic event
 * that fired, with its time) plus the node information {@code updateNodeInfo} recorded. Bounded:
 * beyond {@code capacity} entries the oldest is evicted and counted.
 *
 * <p>Queries see it as the blueprint's XML document ({@link HistoryVocabulary}):
 *
 * <pre>
 * /HistoryOfEvents/Event[@name][@time]/Message/(MessageIdentifier, ServiceIdentifier, DeliveryMode,
 *     HopLimit, SourceAddress, DestinationAddress?, PreviousHopAddress, RootAddress, MessageType,
 *     MessageKind, Fields?/Field[@name][@type]*, Payload?)
 * /HistoryOfEvents/Event[@name][@time]/Timer/TimerIdentifier
 * /HistoryOfEvents/Node[@time]/(LogicalAddress, Parent/LogicalAddress?, Children/LogicalAddress*,
 *     Neighbours/LogicalAddress*)
 * </pre>
 *
 * Values: addresses as in filters ({@code x,y} or an integer), delivery modes by name,
 * MessageType unsigned 0..255 (a payload is 128), Payload in base64, {@code time} in milliseconds
 * of the node's clock; a message's fields in name order, each a {@code Field} with its name and
 * type ({@code integer}, {@code string}, {@code bytes} in base64, {@code ranges} as
 * {@code "1-5 9-12"}), {@code Fields} only when the message has any.
 *
 * <p>The document is built the first time it is asked for ({@link #document()}, or
 * {@link #forget}), then incrementally and never rebuilt: from then on an event's element is made
 * once, when the event is recorded, and only if {@code xml} says some expression of the spec can
 * read it ({@code ServiceSpec.historyXmlNeeded}); its {@code <Message>} children are made the
 * first time a query walks into it. The document node, {@code <HistoryOfEvents>} and the list of
 * its children are made once per instance and grow in place. Until then only the entries and a
 * flag per entry are kept: most instances of a service whose expressions all take a fast path
 * never build a document (their elements, time strings and lists were about 800 bytes per
 * instance). Building late gives every element the same sequence numbers (document order) as
 * building it at once would have: an entry with XML takes its block when it is recorded. Events
 * recorded without XML are in {@link #entries()} but not in the document (no expression could
 * see them).
 *
 * <p>Confined to the instance's thread.
 */
public final class History {

    /** Sequence numbers reserved per entry; an entry's subtree numbers its nodes inside its block. */
    private static final long BLOCK = 1L << 20;
    private static final long STEP = 16;
    private static final String[] EVENT_ATTRIBUTES = {HistoryVocabulary.NAME_ATTRIBUTE, "time"};
    private static final String[] NODE_ATTRIBUTES = {"time"};

    private final int capacity;
    private final HistoryNames names;
    private final ArrayList<HistoryEntry> entries;
    /** Entries the first allocations hold. */
    private final int firstEntries;
    /**
     * Until the document is built: whether each entry is to have an element, parallel to
     * {@link #entries} (only its first {@code entries.size()} bytes count); null afterwards.
     */
    private byte[] xmlWanted;
    /** The document and its bookkeeping, once built (kept apart: most instances never build one). */
    private Built built;
    private long nextBlock = 1;
    private long evicted;
    private long version;

    /**
     * @param capacity      most entries kept (events and node records); the oldest goes first
     * @param names    the vocabulary in the Saxon configuration that compiled the spec's
     *                 expressions, or {@code null} when the spec has none (no XML is ever built)
     */
    public History(int capacity, HistoryNames names) {
        this(capacity, names, 4);
    }

    /**
     * @param capacity        most entries kept (events and node records); the oldest goes first
     * @param names           as above
     * @param expectedEntries entries the instance is expected to take (an earlier instance's
     *                        count): the lists start that long, up to the capacity, so that a
     *                        history of the usual length is never grown and copied
     */
    public History(int capacity, HistoryNames names, int expectedEntries) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.capacity = capacity;
        this.names = names;
        this.firstEntries = Math.max(1, Math.min(capacity, expectedEntries));
        this.entries = new ArrayList<>(firstEntries);
    }

    /**
     * Records a message event.
     *
     * @param xml whether to make its XML form (some expression may read events of this name)
     */
    public void addMessageEvent(String name, OverlayMessage message, long timeMillis, boolean xml) {
        append(new HistoryEntry.MessageEvent(name, message, timeMillis), xml);
    }

    /** Records a timer event; {@code xml} as for messages. */
    public void addTimerEvent(String name, int timerId, long timeMillis, boolean xml) {
        append(new HistoryEntry.TimerEvent(name, timerId, timeMillis), xml);
    }

    /** Records node information (always visible to queries when the spec has any). */
    public void addNodeRecord(NodeSnapshot node, long timeMillis) {
        append(new HistoryEntry.NodeRecord(node, timeMillis), true);
    }

    private void append(HistoryEntry entry, boolean xml) {
        xml &= names != null;
        if (entries.size() == capacity) {
            entries.remove(0);
            if (built == null) {
                System.arraycopy(xmlWanted, 1, xmlWanted, 0, capacity - 1);
            } else if (built.elements.remove(0) != null) {
                built.rootChildren.remove(0);
            }
            evicted++;
        }
        long block = xml ? newBlock() : 0;
        if (built != null) {
            HistElement element = xml ? element(entry, block) : null;
            built.elements.add(element);
            if (element != null) {
                built.rootChildren.add(element);
            }
        } else {
            int at = entries.size();
            if (xmlWanted == null || xmlWanted.length == at) {
                xmlWanted = xmlWanted == null ? new byte[firstEntries]
                        : Arrays.copyOf(xmlWanted, Math.min(capacity, Math.max(4, at + (at >> 1) + 1)));
            }
            xmlWanted[at] = (byte) (xml ? 1 : 0);
        }
        entries.add(entry);
        version++;
    }

    /** The element of {@code entry}, numbered in {@code block}. */
    private HistElement element(HistoryEntry entry, long block) {
        if (entry instanceof HistoryEntry.MessageEvent m) {
            return messageEventElement(m, block);
        }
        if (entry instanceof HistoryEntry.TimerEvent t) {
            return timerEventElement(t, block);
        }
        return nodeElement((HistoryEntry.NodeRecord) entry, block);
    }

    /**
     * Removes the entries whose elements contain any of {@code selected} (an {@code <Event>} or
     * {@code <Node>} element, or a node inside one); nodes of another document and the document
     * or root element themselves are ignored. What the {@code forgetEvents} primitive does: a
     * long-lived instance (a flow) keeps its history to what it still needs instead of letting the
     * capacity evict its oldest, possibly still needed, entries.
     *
     * @return how many entries were removed
     */
    public int forget(List<? extends NodeInfo> selected) {
        if (built == null || selected.isEmpty()) {
            // without a document, nothing selected can be from this history
            return 0;
        }
        Set<NodeInfo> tops = Collections.newSetFromMap(new IdentityHashMap<>());
        for (NodeInfo n : selected) {
            NodeInfo top = n;
            Object parent = top.getParent();
            while (parent instanceof NodeInfo p && p != built.rootElement) {
                top = p;
                parent = top.getParent();
            }
            if (parent == built.rootElement) {
                tops.add(top);
            }
        }
        int removed = 0;
        for (int i = entries.size() - 1; i >= 0 && removed < tops.size(); i--) {
            HistElement e = built.elements.get(i);
            if (e != null && tops.contains(e)) {
                entries.remove(i);
                built.elements.remove(i);
                built.rootChildren.remove(e);
                removed++;
            }
        }
        if (removed > 0) {
            version++;
        }
        return removed;
    }

    /**
     * Removes entries by index in {@link #entries()} ({@code indexes}, any order, repeats
     * allowed; it is sorted in place): what {@link #forget} does for a compiled selection, whose
     * nodes know their entries, without building the document.
     *
     * @return how many entries were removed
     */
    int forgetEntries(int[] indexes) {
        Arrays.sort(indexes);
        int removed = 0;
        int last = -1;
        for (int k = indexes.length - 1; k >= 0; k--) {
            int i = indexes[k];
            if (i == last || i < 0 || i >= entries.size()) {
                continue;
            }
            last = i;
            entries.remove(i);
            if (built != null) {
                HistElement e = built.elements.remove(i);
                if (e != null) {
                    built.rootChildren.remove(e);
                }
            } else {
                System.arraycopy(xmlWanted, i + 1, xmlWanted, i, entries.size() - i);
            }
            removed++;
        }
        if (removed > 0) {
            version++;
        }
        return removed;
    }

    /** The entries, oldest first (a read-only view; do not keep it across changes). */
    public List<HistoryEntry> entries() {
        return Collections.unmodifiableList(entries);
    }

    /** Entry {@code index} of {@link #entries()}, without a read-only view per call (compiled queries scan often). */
    HistoryEntry entryAt(int index) {
        return entries.get(index);
    }

    /** Whether entry {@code index} of {@link #entries()} has an XML form (queries can see it). */
    public boolean hasXml(int index) {
        return built == null ? xmlWanted[Objects.checkIndex(index, entries.size())] != 0
                : built.elements.get(index) != null;
    }

    /** Number of entries held. */
    public int size() {
        return entries.size();
    }

    /** The most entries held. */
    public int capacity() {
        return capacity;
    }

    /** How many entries were evicted to stay within {@link #capacity()}. */
    public long evicted() {
        return evicted;
    }

    /** Changes whenever an entry is added; equal versions mean an unchanged history. */
    public long version() {
        return version;
    }

    /**
     * The last basic event whose name is one of {@code names} (what
     * {@code Event[@name='a' or @name='b'][last()]} selects), or {@code null}.
     */
    public HistoryEntry lastEvent(String[] names) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            HistoryEntry e = entries.get(i);
            String n;
            if (e instanceof HistoryEntry.MessageEvent m) {
                n = m.name();
            } else if (e instanceof HistoryEntry.TimerEvent t) {
                n = t.name();
            } else {
                continue;
            }
            for (String want : names) {
                if (want.equals(n)) {
                    return e;
                }
            }
        }
        return null;
    }

    /** The message of the most recent message event, or {@code null}. */
    public OverlayMessage lastMessage() {
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (entries.get(i) instanceof HistoryEntry.MessageEvent m) {
                return m.message();
            }
        }
        return null;
    }

    /** Whether queries can see this history: the spec has expressions ({@link #document()} is not null). */
    public boolean queryable() {
        return names != null;
    }

    /**
     * The history document (context item for XPath and XQuery), or {@code null} when the spec
     * has no expressions. The same node every time: it grows as entries are added.
     */
    public XdmNode document() {
        if (names == null) {
            return null;
        }
        root();
        return built.document;
    }

    private void root() {
        if (built != null) {
            return;
        }
        HistTree tree = new HistTree(names);
        HistDocument doc = new HistDocument(tree);
        tree.setRootNode(doc);
        int n = entries.size();
        ArrayList<HistNode> rootChildren = new ArrayList<>(Math.max(4, n));
        HistElement rootElement = new HistElement(doc, STEP, HistoryVocabulary.HISTORY, null, null, null, rootChildren,
                null, null);
        doc.setRootElement(rootElement);
        built = new Built(new ArrayList<>(Math.max(4, n)), rootChildren, rootElement, new XdmNode(doc));
        // the entries with XML took the last blocks handed out, in order (nothing was removed from
        // the middle: forget needs the document)
        int wanted = 0;
        for (int i = 0; i < n; i++) {
            wanted += xmlWanted[i];
        }
        long block = nextBlock - wanted;
        for (int i = 0; i < n; i++) {
            HistElement e = xmlWanted[i] != 0 ? element(entries.get(i), BLOCK * block++) : null;
            built.elements.add(e);
            if (e != null) {
                rootChildren.add(e);
            }
        }
        xmlWanted = null;
    }

    /**
     * The built document.
     *
     * @param elements     the element of each entry, parallel to {@link #entries}, null where none
     * @param rootChildren the children of {@code <HistoryOfEvents>}: the non-null elements, in order
     */
    private record Built(ArrayList<HistElement> elements, ArrayList<HistNode> rootChildren, HistElement rootElement,
            XdmNode document) {
    }

    private long newBlock() {
        return BLOCK * nextBlock++;
    }

    // ------------------------------------------------------------------ XML forms

    private HistElement messageEventElement(HistoryEntry.MessageEvent e, long base) {
        HistElement parent = built.rootElement;
        OverlayMessage m = e.message();
        return new HistElement(parent, base, HistoryVocabulary.EVENT, EVENT_ATTRIBUTES,
                new String[] {e.name(), Long.toString(e.timeMillis())}, null, null,
                event -> List.of(new HistElement(event, base + STEP, HistoryVocabulary.MESSAGE, null, null, m, null,
                        message -> messageChildren(message, m, base + 2 * STEP), HistoryNames.BELOW_MESSAGE)),
                HistoryNames.BELOW_EVENT);
    }

    /** The children of {@code <Message>}, in the order {@link HistoryVocabulary} documents. */
    static List<HistNode> messageChildren(HistElement parent, OverlayMessage m, long firstSeq) {
        List<HistNode> out = new ArrayList<>(11);
        long s = firstSeq;
        FsmExtension fsm = m.fsm();
        if (fsm != null) {
            out.add(new HistLeaf(parent, s, MessageAttribute.MESSAGE_IDENTIFIER.elementName(),
                    Long.toString(fsm.messageId()), m));
            s += STEP;
            out.add(new HistLeaf(parent, s, MessageAttribute.SERVICE_IDENTIFIER.elementName(),
                    Integer.toString(fsm.serviceId()), m));
            s += STEP;
        }
        out.add(new HistLeaf(parent, s, MessageAttribute.DELIVERY_MODE.elementName(),
                AttributeValues.name(m.mode()), m));
        s += STEP;
        out.add(new HistLeaf(parent, s, MessageAttribute.HOP_LIMIT.elementName(), Integer.toString(m.hopLimit()), m));
        s += STEP;
        out.add(new HistLeaf(parent, s, MessageAttribute.SOURCE_ADDRESS.elementName(),
                AttributeValues.text(m.source()), m));
        s += STEP;
        if (m.destination() != null) {
            out.add(new HistLeaf(parent, s, MessageAttribute.DESTINATION_ADDRESS.elementName(),
                    AttributeValues.text(m.destination()), m));
            s += STEP;
        }
        out.add(new HistLeaf(parent, s, MessageAttribute.PREVIOUS_HOP_ADDRESS.elementName(),
                AttributeValues.text(m.previousHop()), m));
        s += STEP;
        out.add(new HistLeaf(parent, s, MessageAttribute.ROOT_ADDRESS.elementName(),
                AttributeValues.text(m.treeRoot()), m));
        s += STEP;
        if (fsm != null) {
            out.add(new HistLeaf(parent, s, MessageAttribute.MESSAGE_TYPE.elementName(),
                    Integer.toString(Byte.toUnsignedInt(fsm.messageType())), m));
            s += STEP;
        }
        byte[] payload = m.payload();
        out.add(new HistLeaf(parent, s, MessageAttribute.MESSAGE_KIND.elementName(),
                payload == null ? "control" : "data", m));
        s += STEP;
        MessageFields fields = m.fields();
        if (!fields.isEmpty()) {
            out.add(fieldsElement(parent, s, fields, m));
            s += STEP * (fields.size() + 1L);
        }
        if (payload != null) {
            out.add(new HistLeaf(parent, s, PAYLOAD, payload, m));
        }
        return out;
    }

    /** Element name of a message's fields inside {@code <Message>}. */
    static final String FIELDS = "Fields";
    /** Element name of one field inside {@link #FIELDS}. */
    static final String FIELD = "Field";
    /** Attribute of {@link #FIELD}: the value's type ({@code integer}, {@code string}, {@code bytes}, {@code ranges}). */
    static final String TYPE_ATTRIBUTE = "type";
    private static final String[] FIELD_ATTRIBUTES = {HistoryVocabulary.NAME_ATTRIBUTE, TYPE_ATTRIBUTE};

    /**
     * {@code <Fields><Field name="seq" type="integer">42</Field>…</Fields>}, in name order: made
     * at once (at most {@link MessageFields#MAX_FIELDS} leaves), numbered {@code seq},
     * {@code seq + STEP}, … so the {@code <Payload>} after it keeps document order.
     */
    private static HistElement fieldsElement(HistElement message, long seq, MessageFields fields, OverlayMessage m) {
        List<HistNode> kids = new ArrayList<>(fields.size());
        HistElement element = new HistElement(message, seq, FIELDS, null, null, null, kids, null, HistoryNames.BELOW_FIELDS);
        long s = seq;
        for (Map.Entry<String, MessageField> e : fields.asMap().entrySet()) {
            s += STEP;
            MessageField v = e.getValue();
            String[] attributes = {e.getKey(), v.type().label()};
            kids.add(v instanceof MessageField.Bytes b
                    ? new HistLeaf(element, s, FIELD, FIELD_ATTRIBUTES, attributes, null, b.value(), m)
                    : new HistLeaf(element, s, FIELD, FIELD_ATTRIBUTES, attributes, fieldText(v), null, m));
        }
        return element;
    }

    /**
     * A field's text in the history: an integer in decimal, a string as it is, ranges as
     * {@code "1-5 9-12"} (bytes are base64, made by the leaf when read).
     */
    static String fieldText(MessageField v) {
        return v.text();
    }

    /** Element name of the payload inside {@code <Message>}. */
    static final String PAYLOAD = "Payload";

    private HistElement timerEventElement(HistoryEntry.TimerEvent e, long base) {
        HistElement parent = built.rootElement;
        String id = Integer.toString(e.timerId());
        return new HistElement(parent, base, HistoryVocabulary.EVENT, EVENT_ATTRIBUTES,
                new String[] {e.name(), Long.toString(e.timeMillis())}, null, null,
                event -> List.of(new HistElement(event, base + STEP, HistoryVocabulary.TIMER, null, null, null, null,
                        timer -> List.of(new HistLeaf(timer, base + 2 * STEP, HistoryVocabulary.TIMER_IDENTIFIER, id,
                                null)), HistoryNames.BELOW_TIMER)),
                HistoryNames.BELOW_EVENT);
    }

    private HistElement nodeElement(HistoryEntry.NodeRecord e, long base) {
        HistElement parent = built.rootElement;
        NodeSnapshot n = e.node();
        long[] next = {base + STEP};
        return new HistElement(parent, base, HistoryVocabulary.NODE, NODE_ATTRIBUTES,
                new String[] {Long.toString(e.timeMillis())}, null, null, node -> {
                    List<HistNode> out = new ArrayList<>(4);
                    out.add(address(node, next, n.self()));
                    out.add(group(node, next, "Parent", n.parent() == null ? List.of() : List.of(n.parent())));
                    out.add(group(node, next, "Children", n.children()));
                    out.add(group(node, next, "Neighbours", n.neighbours()));
                    return out;
                }, HistoryNames.BELOW_NODE);
    }

    private static HistLeaf address(HistElement parent, long[] next, LogicalAddress a) {
        long s = next[0];
        next[0] += STEP;
        return new HistLeaf(parent, s, "LogicalAddress", AttributeValues.text(a), a);
    }

    /** A group element's children are made at once: the numbering of later siblings depends on them. */
    private static HistElement group(HistElement parent, long[] next, String name, List<LogicalAddress> addresses) {
        long s = next[0];
        next[0] += STEP;
        List<HistNode> kids = new ArrayList<>(addresses.size());
        HistElement g = new HistElement(parent, s, name, null, null, null, kids, null, HistoryNames.BELOW_GROUP);
        for (LogicalAddress a : addresses) {
            kids.add(address(g, next, a));
        }
        return g;
    }
}
