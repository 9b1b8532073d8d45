package io.statecast.messagestore.action;

import io.statecast.messagestore.event.AttributeValues;
import io.statecast.messagestore.event.EvaluationException;
import io.statecast.messagestore.event.NodeSnapshot;
import io.statecast.messagestore.event.PathResult;
import io.statecast.messagestore.spec.ActionField;
import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.FieldValue;
import io.statecast.messagestore.spec.ParameterType;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
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
 *   <li>DestinationAddress (unicast only): the field, else the base's destination.</li>
 *   <li>Tree root (multicast): the base's root ({@code RootAddress}), so a copy of a message sent
 *       on to children travels on the tree of the original source; this node's tree without a base.</li>
 *   <li>HopLimit: the field, else the socket's default (the blueprint's 255). Not copied: the
 *       base's remaining hops say nothing about the new message.</li>
 *   <li>MessageIdentifier: the field, else the base's, else the instance's
 *       ({@link ActionContext#defaultMessageId()}).</li>
 *   <li>MessageType (control messages): the field, else the base's; data messages are always
 *       {@link FsmExtension#PAYLOAD_TYPE}.</li>
 *   <li>Payload (data messages): the field (a literal is UTF-8 text; an XPath selecting a
 *       {@code <Payload>} gives its bytes), else the base's; one is required. Control messages
 *       carry none.</li>
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
        OverlayContext overlay = ctx.overlay();
        int serviceId = ctx.spec().service().serviceId();
        return switch (action.primitive()) {
            case SEND_DATA_MESSAGE -> {
                OverlayMessage base = message(action, ctx, false);
                byte[] payload = payload(action, ctx, base);
                int n = overlay.sendDataMessage(serviceId, messageId(action, ctx, base), payload, route(action, ctx, base));
                yield n == 0 ? NOTHING_SENT : "";
            }
            case SEND_CONTROL_MESSAGE -> {
                OverlayMessage base = message(action, ctx, false);
                byte type = messageType(action, ctx, base);
                int n = overlay.sendControlMessage(serviceId, type, messageId(action, ctx, base), null,
                        route(action, ctx, base));
                yield n == 0 ? NOTHING_SENT : "";
            }
            case FORWARD_MESSAGE -> overlay.forwardMessage(message(action, ctx, true)) == 0 ? NOTHING_SENT : "";
            case TO_APPLICATION -> overlay.toApplication(message(action, ctx, true)) ? "" : "application queue full";
            case SET_TIMER -> {
                int id = timerId(action, ctx);
                long ms = longField(action, ctx, ActionField.TIMER_VALUE, 0, ParameterType.MAX_DURATION_MS);
                try {
                    ctx.setTimer(id, ms);
                } catch (ActionException e) {
                    throw new ActionException(where(action) + e.getMessage());
                }
                yield "";
            }
            case CANCEL_TIMER -> {
                int id = timerId(action, ctx);
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

    /** The node's view, in the tree of the most recent message's root (this node's tree if none). */
    static NodeSnapshot snapshot(OverlayContext overlay, OverlayMessage last) {
        Topology t = overlay.topology();
        LogicalAddress self = overlay.localAddress();
        LogicalAddress root = last == null ? self : last.treeRoot();
        List<LogicalAddress> neighbours = new ArrayList<>(t.neighbours());
        neighbours.sort(Comparator.comparingLong(LogicalAddress::toBits));
        return new NodeSnapshot(self, root, t.parent(root), cap(t.children(root)), cap(neighbours));
    }

    private static List<LogicalAddress> cap(List<LogicalAddress> list) {
        return list.size() <= MAX_NODE_ADDRESSES ? list : list.subList(0, MAX_NODE_ADDRESSES);
    }

    // ------------------------------------------------------------------ fields

    private static OverlayMessage message(ActionTemplate a, ActionContext ctx, boolean required)
            throws ActionException, EvaluationException {
        FieldValue v = a.valueOf(ActionField.MESSAGE);
        if (v == null) {
            if (required) {
                throw missing(a, ActionField.MESSAGE);
            }
            return null;
        }
        PathResult r = resolve(a, ctx, v);
        if (r == null) {
            if (required) {
                throw new ActionException(where(a) + "field Message: the xpath selected nothing");
            }
            return null;
        }
        if (r instanceof PathResult.Message m) {
            return m.message();
        }
        throw new ActionException(where(a) + "field Message: the xpath must select a <Message> of the history, got "
                + describe(r));
    }

    private static Route route(ActionTemplate a, ActionContext ctx, OverlayMessage base)
            throws ActionException, EvaluationException {
        String modeText = text(a, ctx, ActionField.DELIVERY_MODE);
        DeliveryMode mode;
        if (modeText != null) {
            mode = parse(a, ActionField.DELIVERY_MODE, () -> AttributeValues.deliveryMode(modeText));
        } else if (base != null) {
            mode = base.mode();
        } else {
            throw new ActionException(where(a) + "no delivery mode: set Message/DeliveryMode or copy a Message");
        }
        LogicalAddress destination = null;
        LogicalAddress root = null;
        if (mode == DeliveryMode.UNICAST) {
            String d = text(a, ctx, ActionField.DESTINATION_ADDRESS);
            if (d != null) {
                destination = parse(a, ActionField.DESTINATION_ADDRESS, () -> AttributeValues.address(d));
            } else if (base != null && base.destination() != null) {
                destination = base.destination();
            } else {
                throw new ActionException(where(a) + "a unicast needs Message/DestinationAddress");
            }
            if (destination.family() != ctx.overlay().localAddress().family()) {
                throw new ActionException(where(a) + "destination " + AttributeValues.text(destination)
                        + " is not an address of this overlay");
            }
        } else if (mode == DeliveryMode.MULTICAST && base != null) {
            LogicalAddress r = base.treeRoot();
            root = r.equals(ctx.overlay().localAddress()) ? null : r;
        }
        int hops = Route.DEFAULT_HOP_LIMIT;
        if (a.valueOf(ActionField.HOP_LIMIT) != null) {
            hops = (int) longField(a, ctx, ActionField.HOP_LIMIT, 0, OverlayMessage.MAX_HOP_LIMIT);
        }
        return new Route(mode, destination, root, hops);
    }

    private static long messageId(ActionTemplate a, ActionContext ctx, OverlayMessage base)
            throws ActionException, EvaluationException {
        if (a.valueOf(ActionField.MESSAGE_IDENTIFIER) != null) {
            return longField(a, ctx, ActionField.MESSAGE_IDENTIFIER, Long.MIN_VALUE, Long.MAX_VALUE);
        }
        if (base != null && base.fsm() != null) {
            return base.fsm().messageId();
        }
        return ctx.defaultMessageId();
    }

    private static byte messageType(ActionTemplate a, ActionContext ctx, OverlayMessage base)
            throws ActionException, EvaluationException {
        String t = text(a, ctx, ActionField.MESSAGE_TYPE);
        if (t != null) {
            return parse(a, ActionField.MESSAGE_TYPE, () -> AttributeValues.byteValue(t));
        }
        if (base != null && base.fsm() != null) {
            return base.fsm().messageType();
        }
        throw new ActionException(where(a) + "no message type: set Message/MessageType or copy a Message");
    }

    private static byte[] payload(ActionTemplate a, ActionContext ctx, OverlayMessage base)
            throws ActionException, EvaluationException {
        FieldValue v = a.valueOf(ActionField.PAYLOAD);
        if (v != null) {
            if (v instanceof FieldValue.HistoryQuery) {
                PathResult r = resolve(a, ctx, v);
                if (r instanceof PathResult.Bytes b) {
                    return b.bytes();
                }
                if (r instanceof PathResult.Text t) {
                    return t.text().getBytes(StandardCharsets.UTF_8);
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

    private static int timerId(ActionTemplate a, ActionContext ctx) throws ActionException, EvaluationException {
        return (int) longField(a, ctx, ActionField.TIMER_IDENTIFIER, 0, Integer.MAX_VALUE);
    }

    private static long longField(ActionTemplate a, ActionContext ctx, ActionField f, long min, long max)
            throws ActionException, EvaluationException {
        String t = text(a, ctx, f);
        if (t == null) {
            throw a.valueOf(f) == null ? missing(a, f)
                    : new ActionException(where(a) + "field " + f.path() + ": the xpath selected nothing");
        }
        return parse(a, f, () -> AttributeValues.longValue(t, min, max, f.path()));
    }

    /** The field's value as text, or {@code null} when unset or the XPath selected nothing. */
    private static String text(ActionTemplate a, ActionContext ctx, ActionField f)
            throws ActionException, EvaluationException {
        FieldValue v = a.valueOf(f);
        if (v == null) {
            return null;
        }
        if (v instanceof FieldValue.HistoryQuery) {
            PathResult r = resolve(a, ctx, v);
            if (r == null) {
                return null;
            }
            if (r instanceof PathResult.Text t) {
                return t.text();
            }
            throw new ActionException(where(a) + "field " + f.path() + ": the xpath must select a value, got "
                    + describe(r));
        }
        return literalOrParameter(ctx, v);
    }

    private static String literalOrParameter(ActionContext ctx, FieldValue v) {
        if (v instanceof FieldValue.Literal l) {
            return l.text();
        }
        return ctx.spec().parameters().value(((FieldValue.ParameterRef) v).name());
    }

    private static PathResult resolve(ActionTemplate a, ActionContext ctx, FieldValue v) throws EvaluationException {
        if (v instanceof FieldValue.HistoryQuery q) {
            return ctx.evaluate(q.path());
        }
        return new PathResult.Text(literalOrParameter(ctx, v));
    }

    private interface Parser<T> {
        T parse();
    }

    private static <T> T parse(ActionTemplate a, ActionField f, Parser<T> p) throws ActionException {
        try {
            return p.parse();
        } catch (IllegalArgumentException e) {
            throw new ActionException(where(a) + "field " + f.path() + ": " + e.getMessage());
        }
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
        return r instanceof PathResult.Bytes ? "a <Payload>" : "a <Message>";
    }
}
