package io.statecast.overlay.node.tree;

import io.statecast.overlay.node.ProtocolBodyException;
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
 * The spanning-tree protocol's messages and their bodies. The {@code MessageCodec} frames each
 * body as a {@link ProtocolMessage} (and checks the overlay-ID hash); this class owns what is
 * inside. All integers are big-endian; every count is bounded and the body must end exactly
 * where the last field ends.
 *
 * <h2>Beacon (type {@value #BEACON})</h2>
 * Sent every heartbeat to every link, and to buddies for rendezvous.
 * <pre>
 *  0       1       2               10              18              26              34      36      37
 * +-------+-------+---------------+---------------+---------------+---------------+-------+-------+
 * |ver = 1| flags | sender id     | root id       | root sequence | parent id     | hops  | nAddr |
 * +-------+-------+---------------+---------------+---------------+---------------+-------+-------+
 * | nAddr x ( length (1) | substrate address URI, ASCII, 1..255 bytes )                         |
 * +-----------------------------------------------------------------------------------------------+
 * | only if flags.SUBTREE: count (2) | count x node id (8)                                        |
 * +-----------------------------------------------------------------------------------------------+
 * | only if flags.TS:   sent µs (8)                                                               |
 * | only if flags.ECHO: echo µs (8) | held µs (4, unsigned)                                       |
 * +-----------------------------------------------------------------------------------------------+
 * flags: bit 0 HAS_PARENT (parent id meaningful; else 0), bit 1 SUBTREE (the subtree list
 * follows: only in the beacon to the sender's parent), bit 2 TRUNCATED (the subtree list was cut
 * at the sender's bound), bit 3 CHILD (the sender counts the receiver as its child: only in
 * beacons to the sender's children; a node forwards to and accepts from its parent only once
 * the parent's beacons say so), bit 4 TS (a timestamp follows), bit 5 ECHO (an echo follows; only
 * with TS). Other bits must be 0. nAddr is 1..{@value #MAX_ADDRESSES}.
 * </pre>
 * The timestamps ({@link HeartbeatStamp}) measure round-trip times: {@code sent} is the sender's
 * monotonic clock in microseconds, {@code echo} the last {@code sent} it received from the
 * receiver and {@code held} how long it kept it; the receiver's sample is
 * {@code now - echo - held} on its own clock. A node stamps every beacon; a beacon without the
 * flags (as older nodes send) is still accepted and gives no sample.
 *
 * <h2>Goodbye (type {@value #GOODBYE})</h2>
 * Sent to every link on leave, and as a refusal to a node that cannot become a link.
 * <pre>
 * +-------+---------------+
 * |ver = 1| sender id     |
 * +-------+---------------+
 * </pre>
 */
public final class TreeMessages {

    /** Protocol-message type of a beacon. */
    public static final int BEACON = 0x41;
    /** Protocol-message type of a goodbye. */
    public static final int GOODBYE = 0x42;
    /** Body version written and accepted. */
    public static final int VERSION = 1;
    /** Most substrate addresses a beacon advertises. */
    public static final int MAX_ADDRESSES = 8;

    static final int FLAG_HAS_PARENT = 1;
    static final int FLAG_SUBTREE = 2;
    static final int FLAG_TRUNCATED = 4;
    static final int FLAG_CHILD = 8;
    static final int FLAG_TS = 16;
    static final int FLAG_ECHO = 32;
    private static final int FLAGS_DEFINED = FLAG_HAS_PARENT | FLAG_SUBTREE | FLAG_TRUNCATED | FLAG_CHILD | FLAG_TS
            | FLAG_ECHO;
    private static final int BEACON_FIXED_BYTES = 37;
    private static final long[] NO_IDS = new long[0];

    private TreeMessages() {
    }

    /** A decoded tree message. */
    public sealed interface TreeMessage permits Beacon, Goodbye {
        /** The sender's node id. */
        long sender();
    }

    /**
     * A beacon: the sender's offer of a route to the root.
     *
     * @param sender    sender's node id
     * @param root      the root the sender is attached to (itself if it is a root)
     * @param rootSeq   the root's heartbeat sequence as last heard by the sender (high 32 bits:
     *                  the root's random epoch, low 32: a counter)
     * @param hasParent whether the sender has a parent
     * @param parent    the sender's parent id (0 if none)
     * @param hops      the sender's distance to the root, 0..65535
     * @param addresses the sender's substrate addresses, 1..{@value #MAX_ADDRESSES}
     * @param subtree   ids of the sender's subtree (itself included), or {@code null} when absent
     * @param truncated whether the subtree list was cut short
     * @param child     whether the sender counts the receiver as its child (the parent's
     *                  acknowledgement of the receiver's claim)
     * @param stamp     the sender's heartbeat timestamps, or {@code null} if it sent none
     */
    public record Beacon(long sender, long root, long rootSeq, boolean hasParent, long parent, int hops,
                         List<SubstrateAddress> addresses, long[] subtree, boolean truncated, boolean child,
                         HeartbeatStamp stamp)
            implements TreeMessage {
        /** Checks ranges. */
        public Beacon {
            addresses = List.copyOf(addresses);
            if (addresses.isEmpty() || addresses.size() > MAX_ADDRESSES) {
                throw new IllegalArgumentException("a beacon advertises 1.." + MAX_ADDRESSES + " addresses");
            }
            if (hops < 0 || hops > 0xFFFF) {
                throw new IllegalArgumentException("hops must be 0..65535, got " + hops);
            }
            if (subtree != null && subtree.length > 0xFFFF) {
                throw new IllegalArgumentException("subtree list too long: " + subtree.length);
            }
            if (truncated && subtree == null) {
                throw new IllegalArgumentException("only a subtree list can be truncated");
            }
        }

        /** A beacon without timestamps. */
        public Beacon(long sender, long root, long rootSeq, boolean hasParent, long parent, int hops,
                      List<SubstrateAddress> addresses, long[] subtree, boolean truncated, boolean child) {
            this(sender, root, rootSeq, hasParent, parent, hops, addresses, subtree, truncated, child, null);
        }

        /** A beacon without timestamps that does not acknowledge the receiver as a child. */
        public Beacon(long sender, long root, long rootSeq, boolean hasParent, long parent, int hops,
                      List<SubstrateAddress> addresses, long[] subtree, boolean truncated) {
            this(sender, root, rootSeq, hasParent, parent, hops, addresses, subtree, truncated, false, null);
        }

        /** This beacon carrying {@code stamp} instead. */
        public Beacon withStamp(HeartbeatStamp stamp) {
            return new Beacon(sender, root, rootSeq, hasParent, parent, hops, addresses, subtree, truncated, child, stamp);
        }
    }

    /** A goodbye from {@code sender}. */
    public record Goodbye(long sender) implements TreeMessage {
    }

    /** Encodes a beacon. */
    public static ProtocolMessage encode(Beacon b) {
        List<byte[]> addrs = new ArrayList<>(b.addresses().size());
        int size = BEACON_FIXED_BYTES;
        for (SubstrateAddress a : b.addresses()) {
            byte[] text = a.toString().getBytes(StandardCharsets.US_ASCII);
            if (text.length > 255) {
                throw new IllegalArgumentException("substrate address too long for a beacon: " + a);
            }
            addrs.add(text);
            size += 1 + text.length;
        }
        if (b.subtree() != null) {
            size += 2 + 8 * b.subtree().length;
        }
        HeartbeatStamp stamp = b.stamp();
        if (stamp != null) {
            size += stamp.echo() == null ? 8 : 20;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        int flags = (b.hasParent() ? FLAG_HAS_PARENT : 0) | (b.subtree() != null ? FLAG_SUBTREE : 0)
                | (b.truncated() ? FLAG_TRUNCATED : 0) | (b.child() ? FLAG_CHILD : 0)
                | (stamp != null ? FLAG_TS : 0) | (stamp != null && stamp.echo() != null ? FLAG_ECHO : 0);
        out.put((byte) VERSION).put((byte) flags).putLong(b.sender()).putLong(b.root()).putLong(b.rootSeq())
                .putLong(b.hasParent() ? b.parent() : 0).putShort((short) b.hops()).put((byte) addrs.size());
        for (byte[] a : addrs) {
            out.put((byte) a.length).put(a);
        }
        if (b.subtree() != null) {
            out.putShort((short) b.subtree().length);
            for (long id : b.subtree()) {
                out.putLong(id);
            }
        }
        if (stamp != null) {
            out.putLong(stamp.sentMicros());
            if (stamp.echo() != null) {
                out.putLong(stamp.echo().echoMicros()).putInt((int) stamp.echo().heldMicros());
            }
        }
        return new ProtocolMessage(BEACON, out.array());
    }

    /** Encodes a goodbye. */
    public static ProtocolMessage encode(Goodbye g) {
        return new ProtocolMessage(GOODBYE, ByteBuffer.allocate(9).put((byte) VERSION).putLong(g.sender()).array());
    }

    /**
     * Decodes a tree message.
     *
     * @param message        the protocol message
     * @param maxSubtreeIds  the largest subtree list accepted
     * @throws ProtocolBodyException naming what is wrong and where
     */
    public static TreeMessage decode(ProtocolMessage message, int maxSubtreeIds) throws ProtocolBodyException {
        Objects.requireNonNull(message, "message");
        ByteBuffer in = ByteBuffer.wrap(message.body());
        TreeMessage m = switch (message.type()) {
            case BEACON -> decodeBeacon(in, maxSubtreeIds);
            case GOODBYE -> {
                version(in);
                yield new Goodbye(readLong(in, "sender id"));
            }
            default -> throw new ProtocolBodyException(Reason.UNKNOWN_TYPE, "protocol message type " + message.type());
        };
        if (in.hasRemaining()) {
            throw new ProtocolBodyException(Reason.TRAILING_BYTES, in.remaining() + " bytes after the body at offset " + in.position());
        }
        return m;
    }

    private static Beacon decodeBeacon(ByteBuffer in, int maxSubtreeIds) throws ProtocolBodyException {
        version(in);
        int flags = readByte(in, "flags");
        if ((flags & ~FLAGS_DEFINED) != 0) {
            throw new ProtocolBodyException(Reason.BAD_FLAGS, "undefined flag bits 0x" + Integer.toHexString(flags));
        }
        boolean hasSubtree = (flags & FLAG_SUBTREE) != 0;
        boolean truncated = (flags & FLAG_TRUNCATED) != 0;
        if (truncated && !hasSubtree) {
            throw new ProtocolBodyException(Reason.BAD_FLAGS, "TRUNCATED without SUBTREE");
        }
        if ((flags & FLAG_ECHO) != 0 && (flags & FLAG_TS) == 0) {
            throw new ProtocolBodyException(Reason.BAD_FLAGS, "ECHO without TS");
        }
        long sender = readLong(in, "sender id");
        long root = readLong(in, "root id");
        long seq = readLong(in, "root sequence");
        long parent = readLong(in, "parent id");
        boolean hasParent = (flags & FLAG_HAS_PARENT) != 0;
        if (!hasParent && parent != 0) {
            throw new ProtocolBodyException(Reason.BAD_FLAGS, "parent id " + parent + " without HAS_PARENT");
        }
        int hops = readShort(in, "hops");
        int nAddr = readByte(in, "address count");
        if (nAddr < 1 || nAddr > MAX_ADDRESSES) {
            throw new ProtocolBodyException(Reason.TOO_MANY, "address count " + nAddr + " not in 1.." + MAX_ADDRESSES);
        }
        List<SubstrateAddress> addrs = new ArrayList<>(nAddr);
        for (int i = 0; i < nAddr; i++) {
            int len = readByte(in, "address length");
            if (len == 0 || in.remaining() < len) {
                throw new ProtocolBodyException(len == 0 ? Reason.BAD_ADDRESS : Reason.TRUNCATED,
                        "address " + i + " of length " + len + " at offset " + in.position());
            }
            byte[] text = new byte[len];
            in.get(text);
            for (byte c : text) {
                if (c < 0x21 || c > 0x7E) {
                    throw new ProtocolBodyException(Reason.BAD_ADDRESS, "address " + i + " is not printable ASCII");
                }
            }
            try {
                addrs.add(SubstrateAddress.parse(new String(text, StandardCharsets.US_ASCII)));
            } catch (IllegalArgumentException e) {
                throw new ProtocolBodyException(Reason.BAD_ADDRESS, "address " + i + ": " + e.getMessage());
            }
        }
        long[] subtree = null;
        if (hasSubtree) {
            int count = readShort(in, "subtree count");
            if (count > maxSubtreeIds) {
                throw new ProtocolBodyException(Reason.TOO_MANY, "subtree count " + count + " > " + maxSubtreeIds);
            }
            if (in.remaining() < 8L * count) {
                throw new ProtocolBodyException(Reason.TRUNCATED, "subtree list of " + count + " ids, "
                        + in.remaining() + " bytes left at offset " + in.position());
            }
            subtree = count == 0 ? NO_IDS : new long[count];
            for (int i = 0; i < count; i++) {
                subtree[i] = in.getLong();
            }
        }
        HeartbeatStamp stamp = null;
        if ((flags & FLAG_TS) != 0) {
            long sent = readLong(in, "sent timestamp");
            HeartbeatStamp.Echo echo = null;
            if ((flags & FLAG_ECHO) != 0) {
                need(in, 12, "echo timestamp and held time");
                echo = new HeartbeatStamp.Echo(in.getLong(), in.getInt() & 0xFFFF_FFFFL);
            }
            stamp = new HeartbeatStamp(sent, echo);
        }
        return new Beacon(sender, root, seq, hasParent, parent, hops, addrs, subtree, truncated, (flags & FLAG_CHILD) != 0,
                stamp);
    }

    private static void version(ByteBuffer in) throws ProtocolBodyException {
        int v = readByte(in, "version");
        if (v != VERSION) {
            throw new ProtocolBodyException(Reason.BAD_VERSION, "version " + v + ", expected " + VERSION);
        }
    }

    private static int readByte(ByteBuffer in, String field) throws ProtocolBodyException {
        need(in, 1, field);
        return in.get() & 0xFF;
    }

    private static int readShort(ByteBuffer in, String field) throws ProtocolBodyException {
        need(in, 2, field);
        return in.getShort() & 0xFFFF;
    }

    private static long readLong(ByteBuffer in, String field) throws ProtocolBodyException {
        need(in, 8, field);
        return in.getLong();
    }

    private static void need(ByteBuffer in, int n, String field) throws ProtocolBodyException {
        if (in.remaining() < n) {
            throw new ProtocolBodyException(Reason.TRUNCATED, field + " at offset " + in.position() + " needs " + n
                    + " bytes, " + in.remaining() + " left");
        }
    }
}
