package io.statecast.messagestore.action;

import io.statecast.messagestore.event.AttributeValues;
import io.statecast.messagestore.event.EvaluationException;
import io.statecast.messagestore.event.NodeSnapshot;
import io.statecast.messagestore.event.PathResult;
import io.statecast.messagestore.spec.ActionField;
import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.FieldValue;
import io.statecast.messagestore.spec.MessageFieldValues;
import io.statecast.messagestore.spec.ParameterType;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FieldsExtension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.MessageField;
import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.Origin;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.node.Topology;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Runs one compiled action: resolves its fields (literals, parameters, XPath over the history)
 * and calls the primitive — the blueprint's <em>dispatchAction</em> and
 * <em>MessageStoreActions</em>, without reflection or XML in between.
 *
 * <h2>How a message is built</h2>
 * {@code Message} (an XPath selecting a {@code <Message>} of the history) is the base; every
 * other {@code Message/…} field overrides the base's value. The ServiceID is always the spec's.
 * <ul>
 *   <li>DeliveryMode: the field, else the base's; one of them is required.</li>
 *   <li>DestinationAddress (unicast only): the field, else the base's destination. An XPath
 *       selecting several values sends one message per distinct address, in the order selected
 *       (a parent asks only the children whose acknowledgement is missing).</li>
 *   <li>Tree root (multicast): the base's root ({@code RootAddress}), so a copy of a message sent
 *       on to children travels on the tree of the original source; this node's tree without a base.</li>
 *   <li>HopLimit: the field, else the socket's default (the blueprint's 255). Not copied: the
 *       base's remaining hops say nothing about the new message.</li>
 *   <li>MessageIdentifier: the field, else the base's, else the instance's
 *       ({@link ActionContext#defaultMessageId()}).</li>
 *   <li>Origin ({@link Origin}): a message about the instance's own message (message scope,
 *       its MessageID) names the instance's origin; one about the base's message (its MessageID)
 *       the base's origin; any other is this node's.</li>
 *   <li>MessageType (control messages): the field, else the base's; data messages are always
 *       {@link FsmExtension#PAYLOAD_TYPE}.</li>
 *   <li>Payload (data messages): the field (a literal is UTF-8 text; an XPath selecting a
 *       {@code <Payload>} gives its bytes), else the base's; one is required. Control messages
 *       carry none.</li>
 *   <li>Fields: the base's, each overridden by a {@code Message/Fields/NAME} setting of the
 *       action (at most {@link MessageFields#MAX_FIELDS} in all; more fails the call).</li>
 * </ul>
 *
 * <p>Only the last assignment of a field counts, so an overridden XPath is not evaluated.
 */
public final class PrimitiveExecutor {

    /** Most addresses of each list a node record keeps (a history entry numbers its nodes in a fixed block). */
    static final int MAX_NODE_ADDRESSES = 4096;
    private static final String NOTHING_SENT = "nothing sent (no next hop, hop limit 0, or dropped)";

    private PrimitiveExecutor() {
    }

    /**
     * Executes {@code action}.
     *
     * @return what the overlay said, when worth recording ("application queue full"), else ""
     *         (a description per action would cost more than some primitives)
     * @throws ActionException     when the fields do not make a valid call
     * @throws EvaluationException when an XPath failed
     */
    public static String execute(ActionTemplate action, ActionContext ctx) throws ActionException, EvaluationException {
        return execute(action, ResolvedFields.of(action, ctx.spec().parameters()), ctx);
    }

    /**
     * Executes {@code action} whose fields, resolved against the spec's parameters, are {@code f}.
     *
     * @return as {@link #execute(ActionTemplate, ActionContext)}
     */
    public static String execute(ActionTemplate action, ResolvedFields f, ActionContext ctx)
            throws ActionException, EvaluationException {
        OverlayContext overlay = ctx.overlay();
        int serviceId = ctx.spec().service().serviceId();
        return switch (action.primitive()) {
            case SEND_DATA_MESSAGE -> {
                OverlayMessage base = message(action, f, ctx, false);
                byte[] payload = payload(action, f, ctx, base);
                long id = messageId(action, f, ctx, base);
                LogicalAddress origin = origin(id, ctx, base);
                DeliveryMode mode = mode(action, f, ctx, base);
                MessageFields fields = fields(action, f, ctx, base);
                List<LogicalAddress> to = destinations(action, f, ctx, mode, base);
                if (to == null || to.size() == 1) {
                    Route r = route(action, f, ctx, base, mode, to == null ? null : to.get(0));
                    yield overlay.sendDataMessage(serviceId, id, origin, fields, payload, r) == 0 ? NOTHING_SENT : "";
                }
                int silent = 0;
                for (LogicalAddress d : to) {
                    silent += overlay.sendDataMessage(serviceId, id, origin, fields, payload,
                            route(action, f, ctx, base, mode, d)) == 0 ? 1 : 0;
                }
                yield silentOf(silent, to.size());
            }
            case SEND_CONTROL_MESSAGE -> {
                OverlayMessage base = message(action, f, ctx, false);
                byte type = messageType(action, f, ctx, base);
                long id = messageId(action, f, ctx, base);
                LogicalAddress origin = origin(id, ctx, base);
                DeliveryMode mode = mode(action, f, ctx, base);
                MessageFields fields = fields(action, f, ctx, base);
                List<LogicalAddress> to = destinations(action, f, ctx, mode, base);
                if (to == null || to.size() == 1) {
                    Route r = route(action, f, ctx, base, mode, to == null ? null : to.get(0));
                    yield overlay.sendControlMessage(serviceId, type, id, origin, fields, null, r) == 0 ? NOTHING_SENT : "";
                }
                int silent = 0;
                for (LogicalAddress d : to) {
                    silent += overlay.sendControlMessage(serviceId, type, id, origin, fields, null,
                            route(action, f, ctx, base, mode, d)) == 0 ? 1 : 0;
                }
                yield silentOf(silent, to.size());
            }
            case FORWARD_MESSAGE -> {
                int silent = 0;
                List<OverlayMessage> all = messages(action, f, ctx);
                for (OverlayMessage m : all) {
                    silent += overlay.forwardMessage(m) == 0 ? 1 : 0;
                }
                yield silentOf(silent, all.size());
            }
            case TO_APPLICATION -> {
                int refused = 0;
                List<OverlayMessage> all = messages(action, f, ctx);
                for (OverlayMessage m : all) {
                    refused += overlay.toApplication(retyped(action, f, ctx, m)) ? 0 : 1;
                }
                yield refused == 0 ? "" : "application queue full" + (all.size() == 1 ? "" : " (" + refused + " of " + all.size() + ")");
            }
            case FORGET_EVENTS -> {
                FieldValue v = f.value(ActionField.EVENTS);
                if (!(v instanceof FieldValue.HistoryQuery q)) {
                    throw missing(action, ActionField.EVENTS);
                }
                ctx.forget(q.path());
                yield "";
            }
            case SET_TIMER -> {
                int id = timerId(action, f, ctx);
                long ms = longField(action, f, ctx, ActionField.TIMER_VALUE, 0, ParameterType.MAX_DURATION_MS);
                try {
                    ctx.setTimer(id, ms);
                } catch (ActionException e) {
                    throw new ActionException(where(action) + e.getMessage());
                }
                yield "";
            }
            case CANCEL_TIMER -> {
                int id = timerId(action, f, ctx);
                yield ctx.cancelTimer(id) ? "" : "the timer was not set";
            }
            case TERMINATE -> {
                ctx.terminate();
                yield "";
            }
            case UPDATE_NODE_INFO -> {
                ctx.recordNode(snapshot(overlay, ctx.lastMessage()));
                yield "";
            }
        };
    }

    /** The detail of a call that sent {@code total} messages, {@code silent} of which went nowhere. */
    private static String silentOf(int silent, int total) {
        return silent == 0 ? "" : total == 1 ? NOTHING_SENT : silent + " of " + total + ": " + NOTHING_SENT;
    }

    private static final Comparator<LogicalAddress> BY_BITS = Comparator.comparingLong(LogicalAddress::toBits);

    /** The node's view, in the tree of the most recent message's root (this node's tree if none). */
    static NodeSnapshot snapshot(OverlayContext overlay, OverlayMessage last) {
        Topology t = overlay.topology();
        LogicalAddress self = overlay.localAddress();
        LogicalAddress root = last == null ? self : last.treeRoot();
        List<LogicalAddress> neighbours = new ArrayList<>(t.neighbours());
        neighbours.sort(BY_BITS);
        return new NodeSnapshot(self, root, t.parent(root), cap(t.children(root)), cap(neighbours));
    }

    private static List<LogicalAddress> cap(List<LogicalAddress> list) {
        return list.size() <= MAX_NODE_ADDRESSES ? list : list.subList(0, MAX_NODE_ADDRESSES);
    }

    // ------------------------------------------------------------------ fields

    private static OverlayMessage message(ActionTemplate a, ResolvedFields f, ActionContext ctx, boolean required)
            throws ActionException, EvaluationException {
        List<OverlayMessage> all = selected(a, f, ctx, required);
        return all.isEmpty() ? null : all.get(0);
    }

    /** Every message the required {@code Message} field selects, in the order selected (toApplication, forwardMessage). */
    private static List<OverlayMessage> messages(ActionTemplate a, ResolvedFields f, ActionContext ctx)
            throws ActionException, EvaluationException {
        return selected(a, f, ctx, true);
    }

    private static List<OverlayMessage> selected(ActionTemplate a, ResolvedFields f, ActionContext ctx, boolean required)
            throws ActionException, EvaluationException {
        FieldValue v = f.value(ActionField.MESSAGE);
        if (v == null) {
            if (required) {
                throw missing(a, ActionField.MESSAGE);
            }
            return List.of();
        }
        PathResult r = resolve(a, f, ctx, v);
        if (r == null) {
            if (required) {
                throw new ActionException(where(a) + "field Message: the xpath selected nothing");
            }
            return List.of();
        }
        if (r instanceof PathResult.Message m) {
            return List.of(m.message());
        }
        if (r instanceof PathResult.Messages ms) {
            return ms.messages();
        }
        throw new ActionException(where(a) + "field Message: the xpath must select a <Message> of the history, got "
                + describe(r));
    }

    /**
     * toApplication's message: the base itself, or with {@code Message/MessageType} set a control
     * copy (same header and MessageID, the spec's ServiceID, that type, no payload, only the fields
     * the action sets) — so a service can tell its application about an outcome for which no
     * received message exists.
     * {@code Message/Payload}, {@code Message/SourceAddress}, {@code Message/MessageIdentifier},
     * {@code Message/DeliveryMode} and {@code Message/Fields/NAME} override the base's (a payload
     * only on a data message): a message rebuilt from a parity repair that came by unicast reaches
     * the application as its source sent it (a multicast has no destination; its tree's root is
     * its source; a unicast keeps the base's destination, or is addressed to this node).
     */
    private static OverlayMessage retyped(ActionTemplate a, ResolvedFields f, ActionContext ctx, OverlayMessage base)
            throws ActionException, EvaluationException {
        boolean typed = f.value(ActionField.MESSAGE_TYPE) != null;
        boolean rewritten = f.value(ActionField.PAYLOAD) != null || f.value(ActionField.SOURCE_ADDRESS) != null
                || f.value(ActionField.MESSAGE_IDENTIFIER) != null || f.value(ActionField.DELIVERY_MODE) != null
                || !f.messageFields().isEmpty();
        if (!typed && !rewritten) {
            return base;
        }
        LogicalAddress source = base.source();
        if (f.value(ActionField.SOURCE_ADDRESS) != null) {
            source = address(a, f, ctx, ActionField.SOURCE_ADDRESS);
            if (source == null) {
                throw new ActionException(where(a) + "field Message/SourceAddress: the xpath selected nothing");
            }
            if (source.family() != base.source().family()) {
                throw new ActionException(where(a) + "source " + AttributeValues.text(source)
                        + " is not an address of this overlay");
            }
        }
        long id = f.value(ActionField.MESSAGE_IDENTIFIER) != null || base.fsm() == null
                ? messageId(a, f, ctx, base) : base.fsm().messageId();
        byte type;
        byte[] payload;
        MessageFields fields;
        if (typed) {
            type = messageType(a, f, ctx, base);
            if (type == FsmExtension.PAYLOAD_TYPE) {
                throw new ActionException(where(a) + "field Message/MessageType: 0x80 is the payload type; deliver the"
                        + " payload message itself");
            }
            if (f.value(ActionField.PAYLOAD) != null) {
                throw new ActionException(where(a) + "field Message/Payload: a control copy (Message/MessageType "
                        + type + ") carries no payload");
            }
            payload = null;
            // the copy carries only the fields the action sets (a notice such as a membership list), not the base's
            fields = f.messageFields().isEmpty() ? MessageFields.EMPTY : fields(a, f, ctx, null);
        } else {
            type = base.fsm() != null ? base.fsm().messageType() : FsmExtension.PAYLOAD_TYPE;
            payload = base.payload();
            if (f.value(ActionField.PAYLOAD) != null) {
                if (type != FsmExtension.PAYLOAD_TYPE) {
                    throw new ActionException(where(a) + "field Message/Payload: the base is a control message (type "
                            + type + "), which carries no payload");
                }
                payload = payload(a, f, ctx, base);
            }
            fields = fields(a, f, ctx, base);
        }
        List<io.statecast.overlay.message.Extension> ext = new ArrayList<>(3);
        ext.add(new FsmExtension(ctx.spec().service().serviceId(), type, id));
        if (!fields.isEmpty()) {
            ext.add(new FieldsExtension(fields));
        }
        if (payload != null) {
            ext.add(new PayloadExtension(payload));
        }
        DeliveryMode mode = mode(a, f, ctx, base);
        LogicalAddress destination = base.destination();
        LogicalAddress root = base.root();
        if (mode != base.mode()) {
            // what the application sees of a message whose mode the action changed
            destination = mode == DeliveryMode.UNICAST ? (destination != null ? destination : ctx.overlay().localAddress()) : null;
            root = mode == DeliveryMode.MULTICAST ? source : null;
        }
        return new OverlayMessage(mode, base.hopLimit(), source, destination, base.previousHop(), root, ext);
    }

    private static DeliveryMode mode(ActionTemplate a, ResolvedFields f, ActionContext ctx, OverlayMessage base)
            throws ActionException, EvaluationException {
        String modeText = text(a, f, ctx, ActionField.DELIVERY_MODE);
        if (modeText != null) {
            try {
                return AttributeValues.deliveryMode(modeText);
            } catch (IllegalArgumentException e) {
                throw invalid(a, ActionField.DELIVERY_MODE, e);
            }
        }
        if (base != null) {
            return base.mode();
        }
        throw new ActionException(where(a) + "no delivery mode: set Message/DeliveryMode or copy a Message");
    }

    /**
     * Where a unicast goes: the {@code Message/DestinationAddress} field, else the base's
     * destination. An XPath selecting several values gives each distinct address once, in the
     * order selected; it is evaluated once, however many messages go out. {@code null} for
     * multicast and flood.
     */
    private static List<LogicalAddress> destinations(ActionTemplate a, ResolvedFields f, ActionContext ctx,
            DeliveryMode mode, OverlayMessage base) throws ActionException, EvaluationException {
        if (mode != DeliveryMode.UNICAST) {
            return null;
        }
        ActionField field = ActionField.DESTINATION_ADDRESS;
        FieldValue v = f.value(field);
        LogicalAddress d = null;
        if (v instanceof FieldValue.HistoryQuery) {
            PathResult r = resolve(a, f, ctx, v);
            if (r instanceof PathResult.Texts texts) {
                List<LogicalAddress> out = new ArrayList<>(texts.texts().size());
                for (String t : texts.texts()) {
                    LogicalAddress one = destination(a, ctx, parseAddress(a, field, t));
                    if (!out.contains(one)) {
                        out.add(one);
                    }
                }
                return out;
            }
            if (r instanceof PathResult.Address ad) {
                d = ad.address();
            } else if (r instanceof PathResult.Text t) {
                d = parseAddress(a, field, t.text());
            } else if (r != null) {
                throw new ActionException(where(a) + "field " + field.path() + ": the xpath must select a value, got "
                        + describe(r));
            }
        } else if (v != null) {
            d = address(a, f, ctx, field);
        }
        if (d == null && base != null) {
            d = base.destination();
        }
        if (d == null) {
            throw new ActionException(where(a) + "a unicast needs Message/DestinationAddress");
        }
        return List.of(destination(a, ctx, d));
    }

    private static LogicalAddress destination(ActionTemplate a, ActionContext ctx, LogicalAddress d)
            throws ActionException {
        if (d.family() != ctx.overlay().localAddress().family()) {
            throw new ActionException(where(a) + "destination " + AttributeValues.text(d)
                    + " is not an address of this overlay");
        }
        return d;
    }

    /** The route of one message to {@code destination} (a unicast's, {@code null} otherwise). */
    private static Route route(ActionTemplate a, ResolvedFields f, ActionContext ctx, OverlayMessage base,
            DeliveryMode mode, LogicalAddress destination) throws ActionException, EvaluationException {
        LogicalAddress root = null;
        if (mode == DeliveryMode.MULTICAST && base != null) {
            LogicalAddress r = base.treeRoot();
            root = r.equals(ctx.overlay().localAddress()) ? null : r;
        }
        int hops = Route.DEFAULT_HOP_LIMIT;
        if (f.value(ActionField.HOP_LIMIT) != null) {
            hops = (int) longField(a, f, ctx, ActionField.HOP_LIMIT, 0, OverlayMessage.MAX_HOP_LIMIT);
        }
        return new Route(mode, destination, root, hops);
    }

    /**
     * The origin of the message a send with MessageID {@code id} is about: the instance's own
     * message (message scope, same MessageID) has the instance's origin; a base message of that
     * MessageID its own; anything else is this node's ({@code null}).
     */
    private static LogicalAddress origin(long id, ActionContext ctx, OverlayMessage base) {
        LogicalAddress own = ctx.defaultOrigin();
        if (own != null && id == ctx.defaultMessageId()) {
            return own;
        }
        if (base != null && base.fsm() != null && base.fsm().messageId() == id) {
            return Origin.of(base);
        }
        return null;
    }

    private static long messageId(ActionTemplate a, ResolvedFields f, ActionContext ctx, OverlayMessage base)
            throws ActionException, EvaluationException {
        if (f.value(ActionField.MESSAGE_IDENTIFIER) != null) {
            return longField(a, f, ctx, ActionField.MESSAGE_IDENTIFIER, Long.MIN_VALUE, Long.MAX_VALUE);
        }
        if (base != null && base.fsm() != null) {
            return base.fsm().messageId();
        }
        return ctx.defaultMessageId();
    }

    private static byte messageType(ActionTemplate a, ResolvedFields f, ActionContext ctx, OverlayMessage base)
            throws ActionException, EvaluationException {
        String t = text(a, f, ctx, ActionField.MESSAGE_TYPE);
        if (t != null) {
            try {
                return AttributeValues.byteValue(t);
            } catch (IllegalArgumentException e) {
                throw invalid(a, ActionField.MESSAGE_TYPE, e);
            }
        }
        if (base != null && base.fsm() != null) {
            return base.fsm().messageType();
        }
        throw new ActionException(where(a) + "no message type: set Message/MessageType or copy a Message");
    }

    private static byte[] payload(ActionTemplate a, ResolvedFields f, ActionContext ctx, OverlayMessage base)
            throws ActionException, EvaluationException {
        FieldValue v = f.value(ActionField.PAYLOAD);
        if (v != null) {
            if (v instanceof FieldValue.HistoryQuery) {
                PathResult r = resolve(a, f, ctx, v);
                if (r instanceof PathResult.Bytes b) {
                    return b.bytes();
                }
                if (r instanceof PathResult.Text t) {
                    return t.text().getBytes(StandardCharsets.UTF_8);
                }
                if (r instanceof PathResult.Texts ts) {
                    return ts.first().getBytes(StandardCharsets.UTF_8);
                }
                throw new ActionException(where(a) + "field Message/Payload: the xpath selected "
                        + (r == null ? "nothing" : describe(r)));
            }
            return literalOrParameter(ctx, v).getBytes(StandardCharsets.UTF_8);
        }
        if (base != null && base.payload() != null) {
            return base.payload();
        }
        throw new ActionException(where(a) + "a data message needs a payload: set Message/Payload or copy a Message"
                + " that has one");
    }

    /**
     * The message's fields: the base's, each overridden by the action's {@code Message/Fields/NAME}
     * settings. A field whose XPath selects nothing is left as the base has it (absent without a base).
     */
    private static MessageFields fields(ActionTemplate a, ResolvedFields f, ActionContext ctx, OverlayMessage base)
            throws ActionException, EvaluationException {
        MessageFields out = base == null ? MessageFields.EMPTY : base.fields();
        for (ResolvedFields.MessageFieldSetting s : f.messageFields()) {
            MessageField v = s.constant();
            if (v == null) {
                v = fieldValue(a, ctx, s);
            }
            if (v != null) {
                try {
                    out = out.with(s.name(), v);
                } catch (IllegalArgumentException e) {
                    throw new ActionException(where(a) + "field " + ActionField.FIELDS_PREFIX + s.name() + ": "
                            + e.getMessage());
                }
            }
        }
        return out;
    }

    /** A message field's value from its XPath or (overridden) parameter; null when the XPath selects nothing. */
    private static MessageField fieldValue(ActionTemplate a, ActionContext ctx, ResolvedFields.MessageFieldSetting s)
            throws ActionException, EvaluationException {
        String where = where(a) + "field " + ActionField.FIELDS_PREFIX + s.name() + " (" + s.type().label() + "): ";
        if (s.value() instanceof FieldValue.Sequence seq) {
            try {
                return new MessageField.Int(seq.kind() == FieldValue.SequenceKind.NEXT ? ctx.nextFlowSequence()
                        : ctx.instanceSequence());
            } catch (ActionException e) {
                throw new ActionException(where + e.getMessage());
            }
        }
        try {
            if (!(s.value() instanceof FieldValue.HistoryQuery q)) {
                return MessageFieldValues.parse(s.type(), literalOrParameter(ctx, s.value()));
            }
            PathResult r = ctx.evaluate(q.path());
            if (r == null) {
                return null;
            }
            if (r instanceof PathResult.Bytes b) {
                return s.type() == MessageField.Type.BYTES ? new MessageField.Bytes(b.bytes())
                        : MessageFieldValues.parse(s.type(), new String(b.bytes(), StandardCharsets.UTF_8));
            }
            if (r instanceof PathResult.Text t) {
                return MessageFieldValues.parse(s.type(), t.text());
            }
            if (r instanceof PathResult.Address ad) {
                return MessageFieldValues.parse(s.type(), AttributeValues.text(ad.address()));
            }
            if (r instanceof PathResult.Texts ts) {
                // ranges gather every value selected (a SACK of the numbers received); the rest take the first
                return s.type() == MessageField.Type.RANGES
                        ? MessageFieldValues.parse(s.type(), String.join(" ", ts.texts()))
                        : MessageFieldValues.parse(s.type(), ts.first());
            }
            throw new ActionException(where + "the xpath must select a value, got " + describe(r));
        } catch (IllegalArgumentException e) {
            throw new ActionException(where + e.getMessage());
        }
    }

    private static int timerId(ActionTemplate a, ResolvedFields f, ActionContext ctx)
            throws ActionException, EvaluationException {
        return (int) longField(a, f, ctx, ActionField.TIMER_IDENTIFIER, 0, Integer.MAX_VALUE);
    }

    private static long longField(ActionTemplate a, ResolvedFields f, ActionContext ctx, ActionField field, long min,
            long max) throws ActionException, EvaluationException {
        if (f.isWhole(field)) {
            long v = f.number(field);
            if (v >= min && v <= max) {
                return v;
            }
        }
        String t = text(a, f, ctx, field);
        if (t == null) {
            throw f.value(field) == null ? missing(a, field)
                    : new ActionException(where(a) + "field " + field.path() + ": the xpath selected nothing");
        }
        try {
            return AttributeValues.longValue(t, min, max, field.path());
        } catch (IllegalArgumentException e) {
            throw invalid(a, field, e);
        }
    }

    /** The field's value as text, or {@code null} when unset or the XPath selected nothing. */
    private static String text(ActionTemplate a, ResolvedFields f, ActionContext ctx, ActionField field)
            throws ActionException, EvaluationException {
        FieldValue v = f.value(field);
        if (v == null) {
            return null;
        }
        String resolved = f.text(field);
        if (resolved != null) {
            return resolved;
        }
        if (v instanceof FieldValue.HistoryQuery) {
            PathResult r = resolve(a, f, ctx, v);
            if (r == null) {
                return null;
            }
            if (r instanceof PathResult.Text t) {
                return t.text();
            }
            if (r instanceof PathResult.Texts ts) {
                return ts.first();
            }
            if (r instanceof PathResult.Address ad) {
                return AttributeValues.text(ad.address());
            }
            throw new ActionException(where(a) + "field " + field.path() + ": the xpath must select a value, got "
                    + describe(r));
        }
        return literalOrParameter(ctx, v);
    }

    /** An address field: an address from a fast path as it is, anything else parsed. Null when unset or empty. */
    private static LogicalAddress address(ActionTemplate a, ResolvedFields f, ActionContext ctx, ActionField field)
            throws ActionException, EvaluationException {
        FieldValue v = f.value(field);
        if (v instanceof FieldValue.HistoryQuery) {
            PathResult r = resolve(a, f, ctx, v);
            if (r instanceof PathResult.Address ad) {
                return ad.address();
            }
        }
        String d = text(a, f, ctx, field);
        return d == null ? null : parseAddress(a, field, d);
    }

    private static String literalOrParameter(ActionContext ctx, FieldValue v) {
        if (v instanceof FieldValue.Literal l) {
            return l.text();
        }
        return ctx.spec().parameters().value(((FieldValue.ParameterRef) v).name());
    }

    private static PathResult resolve(ActionTemplate a, ResolvedFields f, ActionContext ctx, FieldValue v)
            throws EvaluationException {
        if (v instanceof FieldValue.HistoryQuery q) {
            return ctx.evaluate(q.path());
        }
        return new PathResult.Text(literalOrParameter(ctx, v));
    }

    // Parsed in place, not through a capturing lambda: every timer set and message sent parses a
    // field or two, and the lambdas (with a boxed long) were a tenth of a busy node's allocation.
    private static LogicalAddress parseAddress(ActionTemplate a, ActionField f, String text) throws ActionException {
        try {
            return AttributeValues.address(text);
        } catch (IllegalArgumentException e) {
            throw invalid(a, f, e);
        }
    }

    private static ActionException invalid(ActionTemplate a, ActionField f, IllegalArgumentException e) {
        return new ActionException(where(a) + "field " + f.path() + ": " + e.getMessage());
    }

    private static ActionException missing(ActionTemplate a, ActionField f) {
        return new ActionException(where(a) + "field " + f.path() + " is required");
    }

    private static String where(ActionTemplate a) {
        return a.primitive().specName() + " (line " + a.line() + "): ";
    }

    private static String describe(PathResult r) {
        if (r instanceof PathResult.Text t) {
            String s = t.text();
            return "text '" + (s.length() > 40 ? s.substring(0, 40) + "…" : s) + "'";
        }
        if (r instanceof PathResult.Address ad) {
            return "address " + AttributeValues.text(ad.address());
        }
        if (r instanceof PathResult.Texts ts) {
            return ts.texts().size() + " values";
        }
        return r instanceof PathResult.Bytes ? "a <Payload>" : "a <Message>";
    }
}
