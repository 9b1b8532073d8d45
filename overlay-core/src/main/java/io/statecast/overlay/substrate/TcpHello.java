package io.statecast.overlay.substrate;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.NetUtil;
import io.statecast.overlay.address.SubstrateAddress;
import java.nio.charset.StandardCharsets;

/**
 * The hello a {@link TcpInterface} sends as the first frame of every connection it opens, so that
 * the accepting side learns the address the connector <em>listens</em> on (its source port is
 * ephemeral) and can send back on the same connection instead of opening a second one.
 *
 * <pre>
 *  length prefix (as every frame)        hello body, 7..261 bytes
 * +-----------------------------+------+------+------+------+---------+--------+------------------------+
 * |   body length, u32, big end | 'S'  | 'C'  | 'H'  | 'L'  | version | n (u8) | host:port, n bytes ASCII |
 * +-----------------------------+------+------+------+------+---------+--------+------------------------+
 * </pre>
 *
 * The host must be an IP literal (IPv6 in brackets) and the port 1..65535: the acceptor checks
 * it without a name lookup. The address is the connector's claim and is not authenticated, as a
 * UDP source address is not.
 */
final class TcpHello {

    /** "SCHL": Statecast hello. */
    static final int MAGIC = 0x5343484C;
    /** Hello format version. */
    static final int VERSION = 1;
    /** Bytes before the authority. */
    static final int HEADER_BYTES = 6;
    /** Largest hello body. */
    static final int MAX_BYTES = HEADER_BYTES + SubstrateAddress.MAX_AUTHORITY_LENGTH;

    /** Why a hello was refused. */
    static final class InvalidHello extends Exception {
        private static final long serialVersionUID = 1L;

        InvalidHello(String detail) {
            super(detail, null, false, false);
        }
    }

    private TcpHello() {
    }

    /** The hello body announcing {@code listening} (without the length prefix the pipeline adds). */
    static ByteBuf encode(ByteBufAllocator alloc, SubstrateAddress listening) {
        byte[] authority = listening.authority().getBytes(StandardCharsets.US_ASCII);
        ByteBuf b = alloc.buffer(HEADER_BYTES + authority.length);
        b.writeInt(MAGIC).writeByte(VERSION).writeByte(authority.length).writeBytes(authority);
        return b;
    }

    /** Reads a hello body (all readable bytes); does not release {@code frame}. */
    static SubstrateAddress decode(ByteBuf frame) throws InvalidHello {
        int size = frame.readableBytes();
        if (size < HEADER_BYTES || size > MAX_BYTES) {
            throw new InvalidHello("hello of " + size + " bytes, expected " + HEADER_BYTES + ".." + MAX_BYTES);
        }
        int i = frame.readerIndex();
        int magic = frame.getInt(i);
        if (magic != MAGIC) {
            throw new InvalidHello("bad hello magic 0x" + Integer.toHexString(magic));
        }
        int version = frame.getUnsignedByte(i + 4);
        if (version != VERSION) {
            throw new InvalidHello("hello version " + version + ", this node speaks " + VERSION);
        }
        int n = frame.getUnsignedByte(i + 5);
        if (n != size - HEADER_BYTES || n == 0) {
            throw new InvalidHello("hello address length " + n + " but " + (size - HEADER_BYTES) + " bytes follow");
        }
        for (int k = 0; k < n; k++) {
            byte c = frame.getByte(i + HEADER_BYTES + k);
            if (c <= ' ' || c >= 0x7f) {
                throw new InvalidHello("hello address has a non-printable byte at " + k);
            }
        }
        String authority = frame.toString(i + HEADER_BYTES, n, StandardCharsets.US_ASCII);
        SubstrateAddress a;
        try {
            a = new SubstrateAddress(SubstrateAddress.Scheme.TCP, authority);
        } catch (IllegalArgumentException e) {
            throw new InvalidHello("hello address: " + e.getMessage());
        }
        if (a.port() == 0) {
            throw new InvalidHello("hello address has port 0: " + authority);
        }
        if (NetUtil.createByteArrayFromIpAddressString(a.host()) == null) {
            throw new InvalidHello("hello address host is not an IP literal: " + authority);
        }
        return a;
    }
}
