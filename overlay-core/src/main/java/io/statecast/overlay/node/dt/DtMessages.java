package io.statecast.overlay.node.dt;

import io.statecast.overlay.node.ProtocolBodyException;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.ProtocolMessage;
import io.statecast.overlay.node.HeartbeatStamp;
import io.statecast.overlay.node.ProtocolBodyException.Reason;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The DT protocol's messages and their bodies (HyperCast's names). The {@code MessageCodec} frames
 * each body as a {@link ProtocolMessage} and checks the overlay-ID hash; this class owns what is
 * inside. Integers are big-endian, coordinates signed 32-bit; every count is bounded, every
 * substrate address is 1..{@value #MAX_ADDRESS_BYTES} bytes of printable ASCII that parses as a
 * {@link SubstrateAddress}, and the body must end exactly where its last field ends. Flag bits
 * not defined below must be 0.
 *
 * <p>Common pieces: a <em>point</em> is {@code x (4) | y (4)}; an <em>address list</em> is
 * {@code n (1) | n × (length (1) | URI)} with n in 1..{@value #MAX_ADDRESSES}; a <em>node
 * reference</em> is {@code point | length (1) | URI}.
 *
 * <h2>HelloNeighbor (type {@value #HELLO_NEIGHBOR}) and HelloNotNeighbor (type {@value #HELLO_NOT_NEIGHBOR})</h2>
 * The heartbeat to a node the sender considers a neighbour, and the answer to a Hello from a node
 * that fails the sender's neighbour test. CW and CCW are the sender's neighbours immediately
 * clockwise and counter-clockwise of the receiver around the sender (absent on a hull side); a
 * HelloNotNeighbor from a node that has a neighbour exactly in the receiver's direction reports
 * that neighbour as both. A node passing a NewNode on sends the joiner a HelloNotNeighbor as a
 * hint.
 * <pre>
 *  0       1       2               10              18      19
 * +-------+-------+---------------+---------------+-------+--------------------------------+
 * |ver = 1| flags | sender point  | receiver point| nAddr | nAddr × (len | sender URI)     |
 * +-------+-------+---------------+---------------+-------+--------------------------------+
 * | only if flags.CW:  CW node reference  (point | len | URI)                               |
 * | only if flags.CCW: CCW node reference (point | len | URI)                               |
 * +----------------------------------------------------------------------------------------+
 * | only if flags.TS:   sent µs (8)                                                        |
 * | only if flags.ECHO: echo µs (8) | held µs (4, unsigned)                                |
 * +----------------------------------------------------------------------------------------+
 * flags: bit 0 CW present, bit 1 CCW present, bit 2 TS (timestamp present), bit 3 ECHO (echo
 * present; only with TS)
 * </pre>
 * The timestamps ({@link HeartbeatStamp}) measure round-trip times: {@code sent} is the sender's
 * monotonic clock in microseconds, {@code echo} the last {@code sent} it received from the
 * receiver and {@code held} how long it kept it; the receiver's sample is
 * {@code now - echo - held} on its own clock. A node stamps every Hello; a body without the
 * flags (as older nodes send) is still accepted, and simply gives no sample.
 *
 * <h2>Goodbye (type {@value #GOODBYE})</h2>
 * Sent to every neighbour on leave, and in answer to a Hello meant for a logical address the
 * receiving node no longer has.
 * <pre>
 * +-------+---------------+
 * |ver = 1| sender point  |
 * +-------+---------------+
 * </pre>
 *
 * <h2>NewNode (type {@value #NEW_NODE})</h2>
 * A joiner's (or a partition leader's) request, sent to a buddy and routed through the overlay
 * toward the joiner's coordinates until it reaches a node for which the joiner passes the
 * neighbour test; that node sends the joiner a HelloNeighbor.
 * <pre>
 * +-------+-------+-------+---------------+-------+-------------------------------+
 * |ver = 1| flags | hops  | joiner point  | nAddr | nAddr × (len | joiner URI)    |
 * +-------+-------+-------+---------------+-------+-------------------------------+
 * flags: bit 0 LEADER (sent by a partition leader for repair, not by a joiner)
 * hops: hops the message may still travel, 0..255
 * </pre>
 *
 * <h2>IAmHere (type {@value #I_AM_HERE})</h2>
 * Buddy-list rendezvous of a node that is neither alone nor a leader: "I am here, in the
 * partition led by L". A receiver in another partition routes a NewNode for the sender.
 * <pre>
 * +-------+-------+---------------+-------+-------------------------------+-----------------------------+
 * |ver = 1| flags | sender point  | nAddr | nAddr × (len | sender URI)    | leader point, if flags.LEADER |
 * +-------+-------+---------------+-------+-------------------------------+-----------------------------+
 * flags: bit 0 LEADER (the sender knows its partition's leader)
 * </pre>
 *
 * <h2>IAmLeader (type {@value #I_AM_LEADER})</h2>
 * A partition leader's periodic announcement, flooded: sent to every neighbour, forwarded once per
 * sequence to every neighbour but the one it came from.
 * <pre>
 * +-------+-------+---------------+-------------------------------+
 * |ver = 1| hops  | leader point  | sequence (8)                  |
 * +-------+-------+---------------+-------------------------------+
 * </pre>
 */
public final class DtMessages {

    /** Protocol-message type of HelloNeighbor. */
    public static final int HELLO_NEIGHBOR = 0x51;
    /** Protocol-message type of HelloNotNeighbor. */
    public static final int HELLO_NOT_NEIGHBOR = 0x52;
    /** Protocol-message type of Goodbye. */
    public static final int GOODBYE = 0x53;
    /** Protocol-message type of NewNode. */
    public static final int NEW_NODE = 0x54;
    /** Protocol-message type of IAmHere. */
    public static final int I_AM_HERE = 0x55;
    /** Protocol-message type of IAmLeader. */
    public static final int I_AM_LEADER = 0x56;
    /** Body version written and accepted. */
    public static final int VERSION = 1;
    /** Most substrate addresses a message advertises for its sender. */
    public static final int MAX_ADDRESSES = 8;
    /** Longest substrate address URI on the wire. */
    public static final int MAX_ADDRESS_BYTES = 255;
    /** Largest hop count of NewNode and IAmLeader. */
    public static final int MAX_HOPS = 255;

    static final int FLAG_CW = 1;
    static final int FLAG_CCW = 2;
    static final int FLAG_TS = 4;
    static final int FLAG_ECHO = 8;
    static final int FLAG_LEADER = 1;

    private DtMessages() {
    }

    /** A decoded DT message. */
    public sealed interface DtMessage permits Hello, Goodbye, NewNode, IAmHere, IAmLeader {
    }

    /**
     * A node and the substrate address it is reached at, as one node reports another.
     *
     * @param address   logical address
     * @param substrate substrate address
     */
    public record NodeRef(DtAddress address, SubstrateAddress substrate) {
        /** Checks the parts. */
        public NodeRef {
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(substrate, "substrate");
        }
    }

    /**
     * HelloNeighbor ({@code neighbour}) or HelloNotNeighbor.
     *
     * @param neighbour whether the sender considers the receiver a neighbour
     * @param sender    the sender's logical address
     * @param receiver  the logical address the sender means to reach
     * @param addresses the sender's substrate addresses, 1..{@value #MAX_ADDRESSES}
     * @param cw        the sender's neighbour clockwise of the receiver, or {@code null}
     * @param ccw       the sender's neighbour counter-clockwise of the receiver, or {@code null}
     * @param stamp     the sender's heartbeat timestamps, or {@code null} if it sent none
     */
    public record Hello(boolean neighbour, DtAddress sender, DtAddress receiver, List<SubstrateAddress> addresses,
                        NodeRef cw, NodeRef ccw, HeartbeatStamp stamp) implements DtMessage {
        /** Checks the parts. */
        public Hello {
            Objects.requireNonNull(sender, "sender");
            Objects.requireNonNull(receiver, "receiver");
            addresses = checkAddresses(addresses);
        }

        /** A Hello without timestamps. */
        public Hello(boolean neighbour, DtAddress sender, DtAddress receiver, List<SubstrateAddress> addresses,
                     NodeRef cw, NodeRef ccw) {
            this(neighbour, sender, receiver, addresses, cw, ccw, null);
        }
    }

    /**
     * Goodbye.
     *
     * @param sender the logical address that is leaving (or that the sender no longer has)
     */
    public record Goodbye(DtAddress sender) implements DtMessage {
        /** Checks the part. */
        public Goodbye {
            Objects.requireNonNull(sender, "sender");
        }
    }

    /**
     * NewNode.
     *
     * @param joiner     the node to be connected
     * @param addresses  the joiner's substrate addresses, 1..{@value #MAX_ADDRESSES}
     * @param hopsLeft   how many more hops it may travel, 0..{@value #MAX_HOPS}
     * @param fromLeader sent by a partition leader (repair), not by a joining node
     */
    public record NewNode(DtAddress joiner, List<SubstrateAddress> addresses, int hopsLeft, boolean fromLeader)
            implements DtMessage {
        /** Checks the parts. */
        public NewNode {
            Objects.requireNonNull(joiner, "joiner");
            addresses = checkAddresses(addresses);
            checkHops(hopsLeft);
        }
    }

    /**
     * IAmHere.
     *
     * @param sender    the sender's logical address
     * @param addresses the sender's substrate addresses, 1..{@value #MAX_ADDRESSES}
     * @param leader    the leader of the sender's partition as it knows it, or {@code null}
     */
    public record IAmHere(DtAddress sender, List<SubstrateAddress> addresses, DtAddress leader) implements DtMessage {
        /** Checks the parts. */
        public IAmHere {
            Objects.requireNonNull(sender, "sender");
            addresses = checkAddresses(addresses);
        }
    }

    /**
     * IAmLeader.
     *
     * @param leader   the announcing leader
     * @param sequence increases with each announcement of this leader
     * @param hopsLeft how many more hops it may travel, 0..{@value #MAX_HOPS}
     */
    public record IAmLeader(DtAddress leader, long sequence, int hopsLeft) implements DtMessage {
        /** Checks the parts. */
        public IAmLeader {
            Objects.requireNonNull(leader, "leader");
            checkHops(hopsLeft);
        }
    }

    private static List<SubstrateAddress> checkAddresses(List<SubstrateAddress> addresses) {
        List<SubstrateAddress> copy = List.copyOf(addresses);
        if (copy.isEmpty() || copy.size() > MAX_ADDRESSES) {
            throw new IllegalArgumentException("a DT message advertises 1.." + MAX_ADDRESSES + " addresses, got " + copy.size());
        }
        return copy;
    }

    private static void checkHops(int hops) {
        if (hops < 0 || hops > MAX_HOPS) {
            throw new IllegalArgumentException("hops must be 0.." + MAX_HOPS + ", got " + hops);
        }
    }

    /** Whether {@code address} fits a message (its URI is at most {@value #MAX_ADDRESS_BYTES} bytes). */
    public static boolean encodable(SubstrateAddress address) {
        return address.toString().length() <= MAX_ADDRESS_BYTES;
    }

    // ------------------------------------------------------------------------------------ encoding

    /** Encodes any DT message. */
    public static ProtocolMessage encode(DtMessage m) {
        Objects.requireNonNull(m, "message");
        if (m instanceof Hello h) {
            return encodeHello(h);
        }
        if (m instanceof Goodbye g) {
            return new ProtocolMessage(GOODBYE, ByteBuffer.allocate(9).put((byte) VERSION)
                    .putInt(g.sender().x()).putInt(g.sender().y()).array());
        }
        if (m instanceof NewNode n) {
            List<byte[]> addrs = ascii(n.addresses());
            ByteBuffer out = ByteBuffer.allocate(3 + 8 + listSize(addrs));
            out.put((byte) VERSION).put((byte) (n.fromLeader() ? FLAG_LEADER : 0)).put((byte) n.hopsLeft());
            putPoint(out, n.joiner());
            putList(out, addrs);
            return new ProtocolMessage(NEW_NODE, out.array());
        }
        if (m instanceof IAmHere i) {
            List<byte[]> addrs = ascii(i.addresses());
            ByteBuffer out = ByteBuffer.allocate(2 + 8 + listSize(addrs) + (i.leader() != null ? 8 : 0));
            out.put((byte) VERSION).put((byte) (i.leader() != null ? FLAG_LEADER : 0));
            putPoint(out, i.sender());
            putList(out, addrs);
            if (i.leader() != null) {
                putPoint(out, i.leader());
            }
            return new ProtocolMessage(I_AM_HERE, out.array());
        }
        IAmLeader l = (IAmLeader) m;
        ByteBuffer out = ByteBuffer.allocate(2 + 8 + 8);
        out.put((byte) VERSION).put((byte) l.hopsLeft());
        putPoint(out, l.leader());
        out.putLong(l.sequence());
        return new ProtocolMessage(I_AM_LEADER, out.array());
    }

    private static ProtocolMessage encodeHello(Hello h) {
        List<byte[]> addrs = ascii(h.addresses());
        byte[] cw = h.cw() == null ? null : ascii(h.cw().substrate());
        byte[] ccw = h.ccw() == null ? null : ascii(h.ccw().substrate());
        HeartbeatStamp stamp = h.stamp();
        int size = 2 + 8 + 8 + listSize(addrs) + (cw == null ? 0 : 9 + cw.length) + (ccw == null ? 0 : 9 + ccw.length)
                + stampSize(stamp);
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put((byte) VERSION).put((byte) ((cw != null ? FLAG_CW : 0) | (ccw != null ? FLAG_CCW : 0)
                | (stamp != null ? FLAG_TS : 0) | (stamp != null && stamp.echo() != null ? FLAG_ECHO : 0)));
        putPoint(out, h.sender());
        putPoint(out, h.receiver());
        putList(out, addrs);
        if (cw != null) {
            putPoint(out, h.cw().address());
            out.put((byte) cw.length).put(cw);
        }
        if (ccw != null) {
            putPoint(out, h.ccw().address());
            out.put((byte) ccw.length).put(ccw);
        }
        putStamp(out, stamp);
        return new ProtocolMessage(h.neighbour() ? HELLO_NEIGHBOR : HELLO_NOT_NEIGHBOR, out.array());
    }

    private static int stampSize(HeartbeatStamp stamp) {
        return stamp == null ? 0 : stamp.echo() == null ? 8 : 20;
    }

    private static void putStamp(ByteBuffer out, HeartbeatStamp stamp) {
        if (stamp != null) {
            out.putLong(stamp.sentMicros());
            if (stamp.echo() != null) {
                out.putLong(stamp.echo().echoMicros()).putInt((int) stamp.echo().heldMicros());
            }
        }
    }

    private static List<byte[]> ascii(List<SubstrateAddress> addresses) {
        List<byte[]> out = new ArrayList<>(addresses.size());
        for (SubstrateAddress a : addresses) {
            out.add(ascii(a));
        }
        return out;
    }

    private static byte[] ascii(SubstrateAddress a) {
        byte[] text = a.toString().getBytes(StandardCharsets.US_ASCII);
        if (text.length > MAX_ADDRESS_BYTES) {
            throw new IllegalArgumentException("substrate address longer than " + MAX_ADDRESS_BYTES + " bytes: " + a);
        }
        return text;
    }

    private static int listSize(List<byte[]> addrs) {
        int size = 1;
        for (byte[] a : addrs) {
            size += 1 + a.length;
        }
        return size;
    }

    private static void putPoint(ByteBuffer out, DtAddress p) {
        out.putInt(p.x()).putInt(p.y());
    }

    private static void putList(ByteBuffer out, List<byte[]> addrs) {
        out.put((byte) addrs.size());
        for (byte[] a : addrs) {
            out.put((byte) a.length).put(a);
        }
    }

    // ------------------------------------------------------------------------------------ decoding

    /**
     * Decodes a DT message.
     *
     * @param message the protocol message
     * @throws ProtocolBodyException naming what is wrong and where
     */
    public static DtMessage decode(ProtocolMessage message) throws ProtocolBodyException {
        Objects.requireNonNull(message, "message");
        ByteBuffer in = ByteBuffer.wrap(message.body());
        DtMessage m = switch (message.type()) {
            case HELLO_NEIGHBOR -> decodeHello(in, true);
            case HELLO_NOT_NEIGHBOR -> decodeHello(in, false);
            case GOODBYE -> {
                version(in);
                yield new Goodbye(point(in, "sender"));
            }
            case NEW_NODE -> {
                version(in);
                int flags = flags(in, FLAG_LEADER);
                int hops = readByte(in, "hops");
                DtAddress joiner = point(in, "joiner");
                yield new NewNode(joiner, addressList(in), hops, (flags & FLAG_LEADER) != 0);
            }
            case I_AM_HERE -> {
                version(in);
                int flags = flags(in, FLAG_LEADER);
                DtAddress sender = point(in, "sender");
                List<SubstrateAddress> addrs = addressList(in);
                DtAddress leader = (flags & FLAG_LEADER) != 0 ? point(in, "leader") : null;
                yield new IAmHere(sender, addrs, leader);
            }
            case I_AM_LEADER -> {
                version(in);
                int hops = readByte(in, "hops");
                DtAddress leader = point(in, "leader");
                need(in, 8, "sequence");
                yield new IAmLeader(leader, in.getLong(), hops);
            }
            default -> throw new ProtocolBodyException(Reason.UNKNOWN_TYPE, "protocol message type " + message.type());
        };
        if (in.hasRemaining()) {
            throw new ProtocolBodyException(Reason.TRAILING_BYTES, in.remaining() + " bytes after the body at offset " + in.position());
        }
        return m;
    }

    private static Hello decodeHello(ByteBuffer in, boolean neighbour) throws ProtocolBodyException {
        version(in);
        int flags = flags(in, FLAG_CW | FLAG_CCW | FLAG_TS | FLAG_ECHO);
        if ((flags & FLAG_ECHO) != 0 && (flags & FLAG_TS) == 0) {
            throw new ProtocolBodyException(Reason.BAD_FLAGS, "ECHO without TS");
        }
        DtAddress sender = point(in, "sender");
        DtAddress receiver = point(in, "receiver");
        List<SubstrateAddress> addrs = addressList(in);
        NodeRef cw = (flags & FLAG_CW) != 0 ? nodeRef(in, "CW") : null;
        NodeRef ccw = (flags & FLAG_CCW) != 0 ? nodeRef(in, "CCW") : null;
        HeartbeatStamp stamp = null;
        if ((flags & FLAG_TS) != 0) {
            need(in, 8, "sent timestamp");
            long sent = in.getLong();
            HeartbeatStamp.Echo echo = null;
            if ((flags & FLAG_ECHO) != 0) {
                need(in, 12, "echo timestamp and held time");
                echo = new HeartbeatStamp.Echo(in.getLong(), in.getInt() & 0xFFFF_FFFFL);
            }
            stamp = new HeartbeatStamp(sent, echo);
        }
        return new Hello(neighbour, sender, receiver, addrs, cw, ccw, stamp);
    }

    private static void version(ByteBuffer in) throws ProtocolBodyException {
        int v = readByte(in, "version");
        if (v != VERSION) {
            throw new ProtocolBodyException(Reason.BAD_VERSION, "version " + v + ", expected " + VERSION);
        }
    }

    private static int flags(ByteBuffer in, int defined) throws ProtocolBodyException {
        int flags = readByte(in, "flags");
        if ((flags & ~defined) != 0) {
            throw new ProtocolBodyException(Reason.BAD_FLAGS, "undefined flag bits 0x" + Integer.toHexString(flags & ~defined));
        }
        return flags;
    }

    private static DtAddress point(ByteBuffer in, String field) throws ProtocolBodyException {
        need(in, 8, field + " point");
        return new DtAddress(in.getInt(), in.getInt());
    }

    private static NodeRef nodeRef(ByteBuffer in, String field) throws ProtocolBodyException {
        DtAddress p = point(in, field);
        return new NodeRef(p, substrate(in, field + " address"));
    }

    private static List<SubstrateAddress> addressList(ByteBuffer in) throws ProtocolBodyException {
        int n = readByte(in, "address count");
        if (n < 1 || n > MAX_ADDRESSES) {
            throw new ProtocolBodyException(Reason.TOO_MANY, "address count " + n + " not in 1.." + MAX_ADDRESSES);
        }
        List<SubstrateAddress> addrs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            addrs.add(substrate(in, "address " + i));
        }
        return addrs;
    }

    private static SubstrateAddress substrate(ByteBuffer in, String field) throws ProtocolBodyException {
        int len = readByte(in, field + " length");
        if (len == 0) {
            throw new ProtocolBodyException(Reason.BAD_ADDRESS, field + " is empty at offset " + (in.position() - 1));
        }
        need(in, len, field);
        byte[] text = new byte[len];
        in.get(text);
        for (byte c : text) {
            if (c < 0x21 || c > 0x7E) {
                throw new ProtocolBodyException(Reason.BAD_ADDRESS, field + " is not printable ASCII");
            }
        }
        try {
            return SubstrateAddress.parse(new String(text, StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            throw new ProtocolBodyException(Reason.BAD_ADDRESS, field + ": " + e.getMessage());
        }
    }

    private static int readByte(ByteBuffer in, String field) throws ProtocolBodyException {
        need(in, 1, field);
        return in.get() & 0xFF;
    }

    private static void need(ByteBuffer in, int n, String field) throws ProtocolBodyException {
        if (in.remaining() < n) {
            throw new ProtocolBodyException(Reason.TRUNCATED, field + " at offset " + in.position() + " needs " + n
                    + " bytes, " + in.remaining() + " left");
        }
    }
}
