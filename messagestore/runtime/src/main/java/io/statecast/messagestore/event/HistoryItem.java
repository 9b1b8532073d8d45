package io.statecast.messagestore.event;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.MessageField;
import io.statecast.overlay.message.OverlayMessage;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.RandomAccess;

/**
 * A node of the history document as the compiled subset ({@link CompiledExpression}) sees it: a
 * position in the typed history (entry index, node kind, index among like siblings) rather than
 * an object of a built tree, so nothing of the document is made to answer a query. Navigation,
 * string values and document order are those of the document {@link History} builds for Saxon
 * (a test compares the two on random histories).
 *
 * <p>Only entries with an XML form ({@link History#hasXml}) are children of
 * {@code <HistoryOfEvents>}, as in the document.
 *
 * <p>A node is also the sequence of just itself (in XPath an item and the singleton sequence of
 * it are the same value), so an evaluator that yields one node wraps it in no list. Equality
 * stays node identity.
 */
final class HistoryItem extends AbstractList<Object> implements RandomAccess {

    // Kinds. Within an entry, the local order (pre-order in the document) is given by localOrder().
    static final int DOCUMENT = 0;
    static final int ROOT = 1;
    static final int EVENT = 2;
    static final int NAME_ATTRIBUTE = 3;
    static final int TIME_ATTRIBUTE = 4;
    static final int MESSAGE = 5;
    /** A child of {@code <Message>}; {@code sub} is the {@link MessageAttribute} ordinal, or {@link #PAYLOAD_FIELD}. */
    static final int FIELD = 6;
    static final int TIMER = 7;
    static final int TIMER_IDENTIFIER = 8;
    static final int NODE = 9;
    /** The node's own {@code LogicalAddress}. */
    static final int SELF_ADDRESS = 10;
    /** {@code Parent}, {@code Children} or {@code Neighbours}; {@code sub} is {@link #PARENT}, {@link #CHILDREN} or {@link #NEIGHBOURS}. */
    static final int GROUP = 11;
    /** A {@code LogicalAddress} in a group; {@code sub} is group * 2^20 + index. */
    static final int GROUP_ADDRESS = 12;
    /** A message's {@code <Fields>} (present when it has any). */
    static final int FIELDS = 13;
    /** One {@code <Field>} in {@code <Fields>}; {@code sub} is its index in name order. */
    static final int MESSAGE_FIELD = 14;
    /** The {@code name} attribute of a {@code <Field>}; {@code sub} as for the field. */
    static final int FIELD_NAME_ATTRIBUTE = 15;
    /** The {@code type} attribute of a {@code <Field>}; {@code sub} as for the field. */
    static final int FIELD_TYPE_ATTRIBUTE = 16;

    static final int PAYLOAD_FIELD = MessageAttribute.values().length;
    private static final long FIELDS_ORDER = 4 + PAYLOAD_FIELD;
    static final int PARENT = 0;
    static final int CHILDREN = 1;
    static final int NEIGHBOURS = 2;
    private static final String[] GROUP_NAMES = {"Parent", "Children", "Neighbours"};
    private static final int GROUP_SHIFT = 20;
    private static final MessageAttribute[] ATTRIBUTES = MessageAttribute.values();
    /** {@link AttributeValues#name} of each delivery mode, made once rather than per comparison. */
    private static final String[] MODE_NAMES = modeNames();

    private static String[] modeNames() {
        DeliveryMode[] modes = DeliveryMode.values();
        String[] out = new String[modes.length];
        for (DeliveryMode d : modes) {
            out[d.ordinal()] = AttributeValues.name(d);
        }
        return out;
    }

    // Not final only so that an evaluation's scratch item (SubsetEval.Ctx) can be reused for the
    // nodes a path passes through; every item that is part of a value is never changed.
    HistoryEntry entry;
    /** Index in {@link History#entries()}; -1 for the document and the root element. */
    int index;
    int kind;
    int sub;

    HistoryItem(HistoryEntry entry, int index, int kind, int sub) {
        this.entry = entry;
        this.index = index;
        this.kind = kind;
        this.sub = sub;
    }

    /** A new item for the node, or {@code into} (a scratch item) made to be it when not null. */
    private static HistoryItem make(HistoryEntry entry, int index, int kind, int sub, HistoryItem into) {
        if (into == null) {
            return new HistoryItem(entry, index, kind, sub);
        }
        into.entry = entry;
        into.index = index;
        into.kind = kind;
        into.sub = sub;
        return into;
    }

    /** An item for the same node that no one else changes. */
    HistoryItem copy() {
        return new HistoryItem(entry, index, kind, sub);
    }

    static final HistoryItem DOCUMENT_NODE = new HistoryItem(null, -1, DOCUMENT, 0);
    static final HistoryItem ROOT_ELEMENT = new HistoryItem(null, -1, ROOT, 0);
    private static final List<HistoryItem> ROOT_ONLY = List.of(ROOT_ELEMENT);

    @Override
    public int size() {
        return 1;
    }

    @Override
    public Object get(int i) {
        if (i != 0) {
            throw new IndexOutOfBoundsException(i);
        }
        return this;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HistoryItem h && h.index == index && h.kind == kind && h.sub == sub;
    }

    @Override
    public int hashCode() {
        return (index * 31 + kind) * 31 + sub;
    }

    /** Document order: negative when this node comes first. Nodes of one evaluation only. */
    int compareOrder(HistoryItem o) {
        if (index != o.index) {
            return Integer.compare(index, o.index);
        }
        return Long.compare(localOrder(), o.localOrder());
    }

    private long localOrder() {
        return switch (kind) {
            case DOCUMENT, EVENT, NODE -> 0;
            case ROOT -> 1;
            case NAME_ATTRIBUTE -> 1;
            case TIME_ATTRIBUTE -> entry instanceof HistoryEntry.NodeRecord ? 1 : 2;
            case MESSAGE, TIMER -> 3;
            // <Fields> stands between the message's attributes and its payload; each <Field> and
            // its two attributes take three places
            case FIELD -> sub == PAYLOAD_FIELD ? FIELDS_ORDER + 1 + 3L * message().fields().size() : 4 + sub;
            case FIELDS -> FIELDS_ORDER;
            case MESSAGE_FIELD -> FIELDS_ORDER + 1 + 3L * sub;
            case FIELD_NAME_ATTRIBUTE -> FIELDS_ORDER + 2 + 3L * sub;
            case FIELD_TYPE_ATTRIBUTE -> FIELDS_ORDER + 3 + 3L * sub;
            case TIMER_IDENTIFIER -> 4;
            case SELF_ADDRESS -> 2;
            case GROUP -> groupStart(sub);
            default -> groupStart(sub >>> GROUP_SHIFT) + 1 + (sub & ((1 << GROUP_SHIFT) - 1));
        };
    }

    /** Local order of a group element: after the self address and the earlier groups with their addresses. */
    private long groupStart(int group) {
        NodeSnapshot n = ((HistoryEntry.NodeRecord) entry).node();
        long at = 3;
        for (int g = 0; g < group; g++) {
            at += 1 + addresses(n, g).size();
        }
        return at;
    }

    private static List<LogicalAddress> addresses(NodeSnapshot n, int group) {
        return switch (group) {
            case PARENT -> n.parent() == null ? List.of() : List.of(n.parent());
            case CHILDREN -> n.children();
            default -> n.neighbours();
        };
    }

    /** For a group element: how many addresses it holds. */
    int groupSize() {
        return addresses(((HistoryEntry.NodeRecord) entry).node(), sub).size();
    }

    /** For a group element: its {@code i}th address element. */
    HistoryItem groupAddress(int i) {
        return groupAddress(i, null);
    }

    /** {@link #groupAddress(int)}, written into {@code into} when not null (it may be this item). */
    HistoryItem groupAddress(int i, HistoryItem into) {
        return make(entry, index, GROUP_ADDRESS, (sub << GROUP_SHIFT) | i, into);
    }

    /** For a group address: which group ({@link #PARENT}, …). */
    int group() {
        return sub >>> GROUP_SHIFT;
    }

    /** For a group address: its index in the group. */
    int indexInGroup() {
        return sub & ((1 << GROUP_SHIFT) - 1);
    }

    /** The element's or attribute's local name ({@code ""} for the document). */
    String name() {
        return switch (kind) {
            case DOCUMENT -> "";
            case ROOT -> HistoryVocabulary.HISTORY;
            case EVENT -> HistoryVocabulary.EVENT;
            case NAME_ATTRIBUTE -> HistoryVocabulary.NAME_ATTRIBUTE;
            case TIME_ATTRIBUTE -> "time";
            case MESSAGE -> HistoryVocabulary.MESSAGE;
            case FIELD -> sub == PAYLOAD_FIELD ? History.PAYLOAD : ATTRIBUTES[sub].elementName();
            case TIMER -> HistoryVocabulary.TIMER;
            case TIMER_IDENTIFIER -> HistoryVocabulary.TIMER_IDENTIFIER;
            case NODE -> HistoryVocabulary.NODE;
            case GROUP -> GROUP_NAMES[sub];
            case FIELDS -> History.FIELDS;
            case MESSAGE_FIELD -> History.FIELD;
            case FIELD_NAME_ATTRIBUTE -> HistoryVocabulary.NAME_ATTRIBUTE;
            case FIELD_TYPE_ATTRIBUTE -> History.TYPE_ATTRIBUTE;
            default -> "LogicalAddress";
        };
    }

    /** The message of a {@code <Message>} element or one of its children, else {@code null}. */
    OverlayMessage message() {
        return (kind == MESSAGE || kind == FIELD || kind >= FIELDS) ? ((HistoryEntry.MessageEvent) entry).message()
                : null;
    }

    /** The address an address element or message field holds, or {@code null} when it holds none. */
    LogicalAddress address() {
        switch (kind) {
            case SELF_ADDRESS:
                return ((HistoryEntry.NodeRecord) entry).node().self();
            case GROUP_ADDRESS:
                return addresses(((HistoryEntry.NodeRecord) entry).node(), sub >>> GROUP_SHIFT)
                        .get(sub & ((1 << GROUP_SHIFT) - 1));
            case FIELD:
                if (sub == PAYLOAD_FIELD || !ATTRIBUTES[sub].isAddress()) {
                    return null;
                }
                OverlayMessage m = message();
                return switch (ATTRIBUTES[sub]) {
                    case SOURCE_ADDRESS -> m.source();
                    case DESTINATION_ADDRESS -> m.destination();
                    case PREVIOUS_HOP_ADDRESS -> m.previousHop();
                    default -> m.treeRoot();
                };
            default:
                return null;
        }
    }

    /** The payload bytes of a {@code <Payload>} element, else {@code null}. */
    byte[] payload() {
        if (kind == FIELD && sub == PAYLOAD_FIELD) {
            return message().payload();
        }
        // a bytes field is bytes too, as the document's leaf answers it
        return kind == MESSAGE_FIELD && messageField() instanceof MessageField.Bytes b ? b.value() : null;
    }

    /** The string value, as in the history document. */
    String stringValue(History history) {
        switch (kind) {
            case NAME_ATTRIBUTE:
                return eventName(entry);
            case TIME_ATTRIBUTE:
                return Long.toString(entry.timeMillis());
            case FIELD:
                return sub == PAYLOAD_FIELD ? Base64.getEncoder().encodeToString(message().payload())
                        : fieldText(message(), ATTRIBUTES[sub]);
            case TIMER_IDENTIFIER:
                return Integer.toString(((HistoryEntry.TimerEvent) entry).timerId());
            case MESSAGE_FIELD: {
                MessageField v = messageField();
                return v instanceof MessageField.Bytes b ? Base64.getEncoder().encodeToString(b.value()) : v.text();
            }
            case FIELD_NAME_ATTRIBUTE:
                return messageFieldName();
            case FIELD_TYPE_ATTRIBUTE:
                return messageField().type().label();
            case SELF_ADDRESS:
            case GROUP_ADDRESS:
                return AttributeValues.text(address());
            default:
                StringBuilder sb = new StringBuilder();
                appendText(history, sb);
                return sb.toString();
        }
    }

    /** Appends the text of every leaf below this node in document order. */
    private void appendText(History history, StringBuilder sb) {
        List<HistoryItem> c = children(history);
        if (c.isEmpty() && kind != DOCUMENT && kind != ROOT && kind != GROUP && kind != EVENT && kind != MESSAGE
                && kind != TIMER && kind != NODE && kind != FIELDS) {
            sb.append(stringValue(history));
            return;
        }
        for (HistoryItem i : c) {
            i.appendText(history, sb);
        }
    }

    /** The element children in document order. */
    List<HistoryItem> children(History history) {
        switch (kind) {
            case DOCUMENT:
                return ROOT_ONLY;
            case ROOT: {
                int n = history.size();
                List<HistoryItem> out = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    if (history.hasXml(i)) {
                        out.add(top(history.entryAt(i), i));
                    }
                }
                return out;
            }
            case EVENT:
                return List.of(entry instanceof HistoryEntry.MessageEvent ? new HistoryItem(entry, index, MESSAGE, 0)
                        : new HistoryItem(entry, index, TIMER, 0));
            case MESSAGE: {
                List<HistoryItem> out = new ArrayList<>(12);
                for (int f = 0; f <= PAYLOAD_FIELD; f++) {
                    if (f == PAYLOAD_FIELD && !message().fields().isEmpty()) {
                        out.add(new HistoryItem(entry, index, FIELDS, 0));
                    }
                    if (hasField(message(), f)) {
                        out.add(new HistoryItem(entry, index, FIELD, f));
                    }
                }
                return out;
            }
            case FIELDS: {
                int k = message().fields().size();
                List<HistoryItem> out = new ArrayList<>(k);
                for (int i = 0; i < k; i++) {
                    out.add(new HistoryItem(entry, index, MESSAGE_FIELD, i));
                }
                return out;
            }
            case TIMER:
                return List.of(new HistoryItem(entry, index, TIMER_IDENTIFIER, 0));
            case NODE:
                return List.of(new HistoryItem(entry, index, SELF_ADDRESS, 0), new HistoryItem(entry, index, GROUP, PARENT),
                        new HistoryItem(entry, index, GROUP, CHILDREN), new HistoryItem(entry, index, GROUP, NEIGHBOURS));
            case GROUP: {
                int k = addresses(((HistoryEntry.NodeRecord) entry).node(), sub).size();
                List<HistoryItem> out = new ArrayList<>(k);
                for (int i = 0; i < k; i++) {
                    out.add(new HistoryItem(entry, index, GROUP_ADDRESS, (sub << GROUP_SHIFT) | i));
                }
                return out;
            }
            default:
                return List.of();
        }
    }

    /**
     * The one element child named {@code name}, or {@code null}; for a node whose children of
     * that name may be several ({@link #ROOT}, {@link #GROUP}) use {@link #children(History, String, List)}.
     */
    HistoryItem child(String name) {
        return child(code(name), null);
    }

    // A child name resolved once (code()): a field ordinal or PAYLOAD_FIELD, else one of these.
    static final int CODE_NONE = -1;
    static final int CODE_HISTORY = -2;
    static final int CODE_MESSAGE = -3;
    static final int CODE_TIMER = -4;
    static final int CODE_TIMER_IDENTIFIER = -5;
    static final int CODE_ADDRESS = -6;
    /** {@code CODE_GROUP - g} for group g ({@link #PARENT}, …). */
    static final int CODE_GROUP = -7;
    static final int CODE_FIELDS = CODE_GROUP - 3;
    static final int CODE_FIELD = CODE_GROUP - 4;

    /** The code of an element name for {@link #child(int, HistoryItem)}: made once per step, not per node. */
    static int code(String name) {
        int f = fieldOf(name);
        if (f >= 0) {
            return f;
        }
        for (int g = 0; g < GROUP_NAMES.length; g++) {
            if (GROUP_NAMES[g].equals(name)) {
                return CODE_GROUP - g;
            }
        }
        return switch (name) {
            case HistoryVocabulary.HISTORY -> CODE_HISTORY;
            case HistoryVocabulary.MESSAGE -> CODE_MESSAGE;
            case HistoryVocabulary.TIMER -> CODE_TIMER;
            case HistoryVocabulary.TIMER_IDENTIFIER -> CODE_TIMER_IDENTIFIER;
            case "LogicalAddress" -> CODE_ADDRESS;
            case History.FIELDS -> CODE_FIELDS;
            case History.FIELD -> CODE_FIELD;
            default -> CODE_NONE;
        };
    }

    /**
     * {@link #child(String)}, written into {@code into} when not null (it may be this item); the
     * document's child is the shared root element all the same.
     */
    HistoryItem child(int code, HistoryItem into) {
        switch (kind) {
            case DOCUMENT:
                return code == CODE_HISTORY ? ROOT_ELEMENT : null;
            case EVENT: {
                boolean message = entry instanceof HistoryEntry.MessageEvent;
                return code == (message ? CODE_MESSAGE : CODE_TIMER)
                        ? make(entry, index, message ? MESSAGE : TIMER, 0, into) : null;
            }
            case MESSAGE:
                if (code == CODE_FIELDS) {
                    return message().fields().isEmpty() ? null : make(entry, index, FIELDS, 0, into);
                }
                return code >= 0 && hasField(message(), code) ? make(entry, index, FIELD, code, into) : null;
            case FIELDS:
                // several <Field>s: only the one of a message with one field is "the" child
                return code == CODE_FIELD && message().fields().size() == 1 ? make(entry, index, MESSAGE_FIELD, 0, into)
                        : null;
            case TIMER:
                return code == CODE_TIMER_IDENTIFIER ? make(entry, index, TIMER_IDENTIFIER, 0, into) : null;
            case NODE:
                if (code == CODE_ADDRESS) {
                    return make(entry, index, SELF_ADDRESS, 0, into);
                }
                if (code <= CODE_GROUP && code > CODE_GROUP - GROUP_NAMES.length) {
                    return make(entry, index, GROUP, CODE_GROUP - code, into);
                }
                return null;
            default:
                return null;
        }
    }

    /**
     * Appends the element children named {@code name} ({@code null}: all) in document order,
     * making only those. Not for {@link #ROOT} (the entries are scanned by the caller).
     */
    void children(History history, String name, List<Object> out) {
        if (name == null) {
            out.addAll(children(history));
            return;
        }
        switch (kind) {
            case DOCUMENT -> {
                if (name.equals(HistoryVocabulary.HISTORY)) {
                    out.add(ROOT_ELEMENT);
                }
            }
            case EVENT -> {
                boolean message = entry instanceof HistoryEntry.MessageEvent;
                if (name.equals(message ? HistoryVocabulary.MESSAGE : HistoryVocabulary.TIMER)) {
                    out.add(new HistoryItem(entry, index, message ? MESSAGE : TIMER, 0));
                }
            }
            case MESSAGE -> {
                if (name.equals(History.FIELDS)) {
                    if (!message().fields().isEmpty()) {
                        out.add(new HistoryItem(entry, index, FIELDS, 0));
                    }
                    return;
                }
                int f = fieldOf(name);
                if (f >= 0 && hasField(message(), f)) {
                    out.add(new HistoryItem(entry, index, FIELD, f));
                }
            }
            case FIELDS -> {
                if (name.equals(History.FIELD)) {
                    for (int i = 0, k = message().fields().size(); i < k; i++) {
                        out.add(new HistoryItem(entry, index, MESSAGE_FIELD, i));
                    }
                }
            }
            case TIMER -> {
                if (name.equals(HistoryVocabulary.TIMER_IDENTIFIER)) {
                    out.add(new HistoryItem(entry, index, TIMER_IDENTIFIER, 0));
                }
            }
            case NODE -> {
                if (name.equals("LogicalAddress")) {
                    out.add(new HistoryItem(entry, index, SELF_ADDRESS, 0));
                } else {
                    for (int g = 0; g < GROUP_NAMES.length; g++) {
                        if (GROUP_NAMES[g].equals(name)) {
                            out.add(new HistoryItem(entry, index, GROUP, g));
                        }
                    }
                }
            }
            case GROUP -> {
                if (name.equals("LogicalAddress")) {
                    int k = addresses(((HistoryEntry.NodeRecord) entry).node(), sub).size();
                    for (int i = 0; i < k; i++) {
                        out.add(new HistoryItem(entry, index, GROUP_ADDRESS, (sub << GROUP_SHIFT) | i));
                    }
                }
            }
            default -> {
                // ROOT is scanned by the caller; leaves and attributes have no element children
            }
        }
    }

    /** The attributes in document order. */
    List<HistoryItem> attributes() {
        if (kind == EVENT) {
            return List.of(new HistoryItem(entry, index, NAME_ATTRIBUTE, 0), new HistoryItem(entry, index, TIME_ATTRIBUTE, 0));
        }
        if (kind == NODE) {
            return List.of(new HistoryItem(entry, index, TIME_ATTRIBUTE, 0));
        }
        if (kind == MESSAGE_FIELD) {
            return List.of(new HistoryItem(entry, index, FIELD_NAME_ATTRIBUTE, sub),
                    new HistoryItem(entry, index, FIELD_TYPE_ATTRIBUTE, sub));
        }
        return List.of();
    }

    /** For a field or its attributes: the field's value (fields in name order, as the document has them). */
    private MessageField messageField() {
        return fieldEntry().getValue();
    }

    /** For a {@code <Field>}: the field's name. */
    String fieldName() {
        return messageFieldName();
    }

    private String messageFieldName() {
        return fieldEntry().getKey();
    }

    private java.util.Map.Entry<String, MessageField> fieldEntry() {
        int i = 0;
        for (java.util.Map.Entry<String, MessageField> e : message().fields().asMap().entrySet()) {
            if (i++ == sub) {
                return e;
            }
        }
        throw new IllegalStateException("no field " + sub);
    }

    /** For {@code <Fields>}: how many {@code <Field>}s it holds. */
    int fieldCount() {
        return message().fields().size();
    }

    /** The element of entry {@code i}: an {@code <Event>} or a {@code <Node>}. */
    static HistoryItem top(HistoryEntry e, int i) {
        return top(e, i, null);
    }

    /** {@link #top(HistoryEntry, int)}, written into {@code into} when not null. */
    static HistoryItem top(HistoryEntry e, int i, HistoryItem into) {
        return make(e, i, e instanceof HistoryEntry.NodeRecord ? NODE : EVENT, 0, into);
    }

    /** The name of a basic event entry, or {@code null} for a node record. */
    static String eventName(HistoryEntry e) {
        if (e instanceof HistoryEntry.MessageEvent m) {
            return m.name();
        }
        return e instanceof HistoryEntry.TimerEvent t ? t.name() : null;
    }

    /** Whether {@code <Message>} of {@code m} has child {@code field} (without making its text). */
    static boolean hasField(OverlayMessage m, int field) {
        if (field == PAYLOAD_FIELD) {
            return m.payload() != null;
        }
        return switch (ATTRIBUTES[field]) {
            case MESSAGE_IDENTIFIER, SERVICE_IDENTIFIER, MESSAGE_TYPE -> m.fsm() != null;
            case DESTINATION_ADDRESS -> m.destination() != null;
            default -> true;
        };
    }

    /** The text of an attribute as the history document writes it, or {@code null} when absent. */
    static String fieldText(OverlayMessage m, MessageAttribute a) {
        FsmExtension fsm = m.fsm();
        return switch (a) {
            case MESSAGE_IDENTIFIER -> fsm == null ? null : Long.toString(fsm.messageId());
            case SERVICE_IDENTIFIER -> fsm == null ? null : Integer.toString(fsm.serviceId());
            case DELIVERY_MODE -> MODE_NAMES[m.mode().ordinal()];
            case HOP_LIMIT -> Integer.toString(m.hopLimit());
            case SOURCE_ADDRESS -> AttributeValues.text(m.source());
            case DESTINATION_ADDRESS -> m.destination() == null ? null : AttributeValues.text(m.destination());
            case PREVIOUS_HOP_ADDRESS -> AttributeValues.text(m.previousHop());
            case ROOT_ADDRESS -> AttributeValues.text(m.treeRoot());
            case MESSAGE_TYPE -> fsm == null ? null : Integer.toString(Byte.toUnsignedInt(fsm.messageType()));
            case MESSAGE_KIND -> m.payload() == null ? "control" : "data";
        };
    }

    /** The field index of a {@code <Message>} child name, or -1. */
    static int fieldOf(String name) {
        if (History.PAYLOAD.equals(name)) {
            return PAYLOAD_FIELD;
        }
        for (MessageAttribute a : ATTRIBUTES) {
            if (a.elementName().equals(name)) {
                return a.ordinal();
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return name() + "@" + index + "/" + kind + "/" + sub;
    }
}
