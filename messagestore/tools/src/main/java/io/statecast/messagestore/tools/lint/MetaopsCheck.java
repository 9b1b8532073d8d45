package io.statecast.messagestore.tools.lint;

import io.statecast.messagestore.event.HistoryReads;
import io.statecast.messagestore.spec.ActionField;
import io.statecast.messagestore.spec.FieldValue;
import io.statecast.messagestore.spec.MetaOps;
import io.statecast.messagestore.spec.Primitive;
import io.statecast.messagestore.tools.SpecGraph.ActionSite;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@link Rule#METAOPS_CONTRADICTION}: {@code messageStoreWillForwardMessage} against the actions
 * some run executes. The forwarding engine forwards a service's messages at once, before the
 * store sees them, unless the metaop is true (then it forwards none of them, not even the ones the
 * local application sends). Two combinations are wrong whatever the spec intends:
 * <ul>
 *   <li>true, but no reachable action executes {@code forwardMessage} or {@code sendDataMessage}:
 *       the service's messages stop at the first node;</li>
 *   <li>false, and a reachable action executes {@code forwardMessage}: every message the store
 *       can forward (one from the history) was already forwarded by the engine, so each
 *       {@code forwardMessage} sends a duplicate.</li>
 * </ul>
 * {@code sendDataMessage} under false is not reported: it sends a new message from this node
 * (a retransmission, say), which the metaop does not govern.
 */
final class MetaopsCheck implements Check {

    @Override
    public void run(LintContext ctx) {
        MetaOps m = ctx.spec().metaops();
        Set<ActionSite> sites = ctx.graph().reachableSites();
        List<ActionSite> forwards = new ArrayList<>();
        boolean sendsData = false;
        for (ActionSite s : sites) {
            if (s.primitive() == Primitive.FORWARD_MESSAGE) {
                forwards.add(s);
            }
            sendsData |= s.primitive() == Primitive.SEND_DATA_MESSAGE;
        }
        if (m.messageStoreWillForwardMessage() && forwards.isEmpty() && !sendsData) {
            int line = ctx.spec().structure().sectionLines().getOrDefault("metaops", 0);
            ctx.report(Rule.METAOPS_CONTRADICTION, line, "data", "messageStoreWillForwardMessage is true, so the "
                    + "forwarding engine leaves this service's messages to the spec, but no reachable action "
                    + "executes forwardMessage or sendDataMessage: the messages stop at the first node");
        }
        if (!m.messageStoreWillForwardMessage()) {
            for (ActionSite s : forwards) {
                ctx.report(Rule.METAOPS_CONTRADICTION, s.action().line(), "execute", "forwardMessage"
                        + forwarded(s) + " while messageStoreWillForwardMessage is false: the forwarding engine "
                        + "has already forwarded it, so this sends a duplicate (set the metaop to true to let the "
                        + "spec decide what is forwarded)");
            }
        }
    }

    /** " of the x message" when the Message xpath reads named events. */
    private static String forwarded(ActionSite s) {
        FieldValue v = s.action().valueOf(ActionField.MESSAGE);
        if (v instanceof FieldValue.HistoryQuery q) {
            HistoryReads r = q.path().reads();
            if (!r.allEvents() && !r.eventNames().isEmpty()) {
                return " of the " + String.join("/", r.eventNames()) + " message";
            }
        }
        return "";
    }
}
