package io.statecast.examples.sidebyside;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;

/**
 * A JGroups member of a total-order cell: the side-by-side stack with {@code SEQUENCER}
 * ({@link JGroupsStack#xml(int, List, boolean)}); every member multicasts to the group and
 * delivers its own messages too, in the sequencer's order.
 */
final class JGroupsOrderPeer extends OrderPeer implements Receiver, AutoCloseable {

    private final JChannel channel;

    /**
     * @param port  this member's UDP port on 127.0.0.1
     * @param ports every member's port, in member order (this one's included)
     */
    JGroupsOrderPeer(Options options, int port, List<Integer> ports, PrintWriter out) throws Exception {
        super(options, out, "jgroups order");
        if (ports.size() != options.members()) {
            throw new IllegalArgumentException(ports.size() + " ports for " + options.members() + " members");
        }
        byte[] stack = JGroupsStack.xml(port, ports, true).getBytes(StandardCharsets.UTF_8);
        this.channel = new JChannel(new ByteArrayInputStream(stack));
        channel.setDiscardOwnMessages(false); // a member's own messages take their place in the order too
    }

    @Override
    protected String open() throws Exception {
        channel.setReceiver(this);
        channel.connect("statecast-sidebyside-order");
        return String.valueOf(channel.getAddress());
    }

    @Override
    protected boolean groupFormed() {
        View v = channel.getView();
        return v != null && v.size() >= options.members();
    }

    @Override
    protected void send(byte[] payload) throws Exception {
        channel.send(new BytesMessage(null, payload));
    }

    @Override
    public void receive(Message msg) {
        delivered(msg.getArray(), msg.getOffset(), msg.getLength());
    }

    @Override
    public void close() {
        channel.close();
    }
}
