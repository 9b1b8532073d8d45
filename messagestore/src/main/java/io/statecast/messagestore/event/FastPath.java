package io.statecast.messagestore.event;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The blueprint's common action path — the last event of some names, its message or one of the
 * message's attributes — answered from the history's Java objects without Saxon:
 *
 * <pre>
 * /HistoryOfEvents/Event[@name='a'][last()]/Message
 * /HistoryOfEvents/Event[@name='a' or @name='b'][last()]/Message/PreviousHopAddress
 * //Event[@name="a"][last()]/Message/Payload
 * </pre>
 *
 * the first of several such paths that selects anything (h2h-ack's Reset copies the payload if it
 * has it, else the message that told it of the payload):
 *
 * <pre>
 * (/HistoryOfEvents/Event[@name='a'][last()]/Message, /HistoryOfEvents/Event[@name='b'][last()]/Message)[1]
 * </pre>
 *
 * and the acknowledgement services' "nodes that have not acknowledged" (answered by
 * {@link AckQueryFastPath#silent}; several addresses come back as {@link PathResult.Texts}).
 *
 * Only text of exactly these shapes is recognised (whitespace aside); anything else is evaluated
 * by Saxon. An address comes back as {@link PathResult.Address} rather than its text. The answer
 * is the one Saxon gives on the history document (a test checks this on
 * random histories): Saxon's {@code [last()]} picks the last event of those names in document
 * order, which is the most recently recorded one; a timer event there has no {@code Message}, so
 * the result is empty.
 */
public final class FastPath {

    private static final String NAME = "\\s*@name\\s*=\\s*(?:'([A-Za-z_][A-Za-z0-9_-]*)'|\"([A-Za-z_][A-Za-z0-9_-]*)\")\\s*";
    private static final Pattern ONE_NAME = Pattern.compile(NAME);
    private static final Pattern SHAPE = Pattern.compile(
            "\\s*(?:/HistoryOfEvents/|//)Event\\[(" + NAME + "(?:or" + NAME + ")*)\\]\\s*\\[\\s*last\\(\\s*\\)\\s*\\]"
                    + "/Message(?:/([A-Za-z]+))?\\s*");
    /** {@code (p1, p2, ...)[1]}: each {@code p} of {@link #SHAPE} selects at most one item, so this is the first that selects one. */
    private static final Pattern FIRST_OF = Pattern.compile("\\s*\\((.*)\\)\\s*\\[\\s*1\\s*\\]\\s*", Pattern.DOTALL);

    private final String[] names;
    private final MessageAttribute attribute;
    private final boolean payload;
    /** Set for the "not acknowledged" shape; the other fields are then unused. */
    private final AckQueryFastPath silent;
    /** Set for the "first of" shape: the alternatives in order; attribute, payload and silent are then unused. */
    private final FastPath[] firstOf;

    private FastPath(String[] names, MessageAttribute attribute, boolean payload, AckQueryFastPath silent, FastPath[] firstOf) {
        this.names = names;
        this.attribute = attribute;
        this.payload = payload;
        this.silent = silent;
        this.firstOf = firstOf;
    }

    /** The fast path for {@code text}, or {@code null} when Saxon must evaluate it. */
    public static FastPath of(String text) {
        Matcher f = FIRST_OF.matcher(text);
        if (f.matches()) {
            return firstOf(f.group(1));
        }
        FastPath p = lastEvent(text);
        if (p != null) {
            return p;
        }
        AckQueryFastPath s = AckQueryFastPath.silentOf(text);
        return s == null ? null : new FastPath(new String[0], null, false, s, null);
    }

    /** {@code (p1, p2, ...)[1]} with every {@code p} of the last-event shape; none of those contains a comma. */
    private static FastPath firstOf(String inner) {
        String[] parts = inner.split(",", -1);
        FastPath[] alternatives = new FastPath[parts.length];
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < parts.length; i++) {
            alternatives[i] = lastEvent(parts[i]);
            if (alternatives[i] == null) {
                return null;
            }
            names.addAll(List.of(alternatives[i].names));
        }
        return new FastPath(names.toArray(String[]::new), null, false, null, alternatives);
    }

    /** The last event of some names, its message or an attribute of it; {@code null} for any other text. */
    private static FastPath lastEvent(String text) {
        Matcher m = SHAPE.matcher(text);
        if (!m.matches()) {
            return null;
        }
        List<String> names = new ArrayList<>();
        Matcher n = ONE_NAME.matcher(m.group(1));
        int at = 0;
        while (n.find(at)) {
            names.add(n.group(1) != null ? n.group(1) : n.group(2));
            at = n.end();
        }
        String child = m.group(m.groupCount());
        MessageAttribute attribute = null;
        boolean payload = false;
        if (child != null) {
            if (child.equals(History.PAYLOAD)) {
                payload = true;
            } else {
                attribute = MessageAttribute.ofElementName(child);
                if (attribute == null) {
                    return null; // a child <Message> does not have: Saxon says empty, let it
                }
            }
        }
        return new FastPath(names.toArray(String[]::new), attribute, payload, null, null);
    }

    /** The event names the path selects from. */
    public List<String> names() {
        return List.of(names);
    }

    /** What the path selects in {@code history}, or {@code null} for an empty result. */
    public PathResult evaluate(History history) {
        if (firstOf != null) {
            for (FastPath p : firstOf) {
                PathResult r = p.evaluate(history);
                if (r != null) {
                    return r;
                }
            }
            return null;
        }
        if (silent != null) {
            List<LogicalAddress> who = silent.silent(history);
            if (who.size() <= 1) {
                return who.isEmpty() ? null : new PathResult.Address(who.get(0));
            }
            List<String> texts = new ArrayList<>(who.size());
            for (LogicalAddress a : who) {
                texts.add(AttributeValues.text(a));
            }
            return new PathResult.Texts(texts);
        }
        HistoryEntry e = history.lastEvent(names);
        if (!(e instanceof HistoryEntry.MessageEvent me)) {
            return null;
        }
        OverlayMessage m = me.message();
        if (payload) {
            byte[] p = m.payload();
            return p == null ? null : new PathResult.Bytes(p);
        }
        if (attribute == null) {
            return new PathResult.Message(m);
        }
        if (attribute.isAddress()) {
            LogicalAddress a = switch (attribute) {
                case SOURCE_ADDRESS -> m.source();
                case DESTINATION_ADDRESS -> m.destination();
                case PREVIOUS_HOP_ADDRESS -> m.previousHop();
                default -> m.treeRoot();
            };
            return a == null ? null : new PathResult.Address(a);
        }
        String text = text(m, attribute);
        return text == null ? null : new PathResult.Text(text);
    }

    /** The text of an attribute as the history document writes it, or {@code null} when absent. */
    static String text(OverlayMessage m, MessageAttribute a) {
        FsmExtension fsm = m.fsm();
        return switch (a) {
            case MESSAGE_IDENTIFIER -> fsm == null ? null : Long.toString(fsm.messageId());
            case SERVICE_IDENTIFIER -> fsm == null ? null : Integer.toString(fsm.serviceId());
            case DELIVERY_MODE -> AttributeValues.name(m.mode());
            case HOP_LIMIT -> Integer.toString(m.hopLimit());
            case SOURCE_ADDRESS -> AttributeValues.text(m.source());
            case DESTINATION_ADDRESS -> m.destination() == null ? null : AttributeValues.text(m.destination());
            case PREVIOUS_HOP_ADDRESS -> AttributeValues.text(m.previousHop());
            case ROOT_ADDRESS -> AttributeValues.text(m.treeRoot());
            case MESSAGE_TYPE -> fsm == null ? null : Integer.toString(Byte.toUnsignedInt(fsm.messageType()));
            case MESSAGE_KIND -> m.payload() == null ? "control" : "data";
        };
    }

    @Override
    public String toString() {
        if (firstOf != null) {
            return "FastPath first of " + List.of(firstOf);
        }
        return "FastPath" + List.of(names) + (payload ? "/Payload" : attribute == null ? "" : "/" + attribute.elementName());
    }
}
