package io.statecast.examples.sidebyside;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statecast.examples.ttcp.StoreProbe;
import io.statecast.examples.ttcp.TtcpReport;
import io.statecast.examples.ttcp.TtcpSockets;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.MessageField;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.socket.OverlaySocket;
import java.io.PrintWriter;
import java.util.Map;

/**
 * A Statecast member of a total-order cell: a node whose store runs a total-order service (its
 * {@code Group} the cell's members); a member sends each message to its own address with the
 * service's ServiceID, as the service asks, and delivers every member's messages, its own
 * included, in the ring's order. The group has formed once a configuration notice (MessageType
 * 4) lists every member.
 */
final class StatecastOrderPeer extends OrderPeer implements AutoCloseable {

    /** The MessageType of a configuration notice (docs/services/total-order.md). */
    static final int NOTICE_TYPE = 4;

    private final OverlaySocket socket;
    private final StoreProbe probe;
    private final int serviceId;
    private final Map<String, Long> kernelBefore = TtcpReport.kernelUdp();
    private volatile boolean formed;

    /**
     * @param opened    the node's socket, not yet joined, and its store's probe
     * @param serviceId the total-order service's ServiceID
     */
    StatecastOrderPeer(Options options, TtcpSockets.Opened opened, int serviceId, PrintWriter out) {
        super(options, out, "statecast order");
        this.socket = opened.socket();
        this.probe = opened.probe();
        this.serviceId = serviceId;
    }

    @Override
    protected String open() throws Exception {
        socket.onMessage(this::onMessage);
        socket.join();
        return socket.localAddress().toString();
    }

    @Override
    protected boolean groupFormed() {
        return formed;
    }

    @Override
    protected void send(byte[] payload) {
        socket.sendTo(socket.localAddress(), payload, serviceId);
    }

    /** The drops of every layer, as ttcp reports them: where a lost message went missing for good. */
    @Override
    protected void describe(ObjectNode report) {
        report.set("drops", TtcpReport.drops(socket, kernelBefore, probe));
        Map<String, Long> activity = probe.activity();
        if (activity != null) {
            ObjectNode a = report.putObject("storeActivity");
            activity.forEach(a::put);
        }
    }

    private void onMessage(OverlayMessage m) {
        FsmExtension fsm = m.fsm();
        if (fsm != null && fsm.serviceId() == serviceId && fsm.messageType() == NOTICE_TYPE) {
            MessageField mem = m.fields() == null ? null : m.fields().get("mem");
            if (mem instanceof MessageField.Text t && t.value().trim().split("\\s+").length >= options.members()) {
                formed = true;
            }
            return;
        }
        byte[] p = m.payload();
        if (p != null) {
            delivered(p, 0, p.length);
        }
    }

    @Override
    public void close() {
        socket.close();
    }
}
