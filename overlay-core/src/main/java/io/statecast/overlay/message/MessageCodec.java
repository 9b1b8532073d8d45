package io.statecast.overlay.message;

import io.netty.buffer.ByteBuf;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.RecentAddresses;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Encodes {@link WireMessage}s into and decodes them from Netty buffers. Safe to share between
 * threads: its only state after construction is a cache of decoded addresses
 * ({@link RecentAddresses}), which needs no lock.
 *
 * <h2>Frame layout</h2>
 * One frame carries one message. Multi-byte integers are big-endian (network order); offsets are
 * from the first byte of the frame. Every frame starts with the common header:
 * <pre>
 *    0        1        2        3        4        5        6
 *  +--------+--------+--------+--------+--------+--------+--------+
 *  | magic  | version|  kind  |    overlay-ID hash (int32)        |
 *  |  0x5C  |    1   | 1 or 2 |    see OverlayId                  |
 *  +--------+--------+--------+--------+--------+--------+--------+
 * </pre>
 * Kind 1, an application message ({@link OverlayMessage}):
 * <pre>
 *    7        8        9        10       11 .. 18       19 .. 26
 *  +--------+--------+--------+--------+--------------+--------------+
 *  |  mode  |  hop   | family | flags  |  source      | previous hop |
 *  | 1,2,3  | limit  |  1, 2  |000000RD|  (8 bytes)   |  (8 bytes)   |
 *  +--------+--------+--------+--------+--------------+--------------+
 *
 *  then, in this order, each only when its flag bit is set (D = 0x01, R = 0x02):
 *  +--------------+--------------+
 *  | destination  |  root        |
 *  |  (8 bytes)   |  (8 bytes)   |
 *  +--------------+--------------+
 *
 *  then the extension chain: 0..16 extensions, each
 *    +0       +1 .. +4                    +5
 *  +--------+--------+--------+--------+--------+------ .. ------+
 *  |  type  |    body length n (int32)          |  body, n bytes |
 *  | 1..255 |                                   |                |
 *  +--------+--------+--------+--------+--------+------ .. ------+
 *
 *  closed by one end byte, which is the last byte of the frame:
 *  +--------+
 *  |   0    |
 *  +--------+
 * </pre>
 * Mode is the {@link DeliveryMode} code, family the {@link LogicalAddress.Family} code, and every
 * address its {@link LogicalAddress#toBits()} form. Extension type 1 is the payload (body = the
 * data), type 2 the FSM extension (body exactly 13 bytes: service ID int32, message type byte,
 * message ID int64), type 4 the fields extension (below; only beside an FSM extension); other
 * types are kept as {@link UnknownExtension}s and re-encoded unchanged. An application frame is
 * at least {@value #MIN_APPLICATION_FRAME_BYTES} bytes.
 *
 * <p>The fields extension ({@link FieldsExtension}), body at most
 * {@value MessageFields#MAX_TOTAL_BYTES} bytes:
 * <pre>
 *  +--------+  then count fields, names in strictly ascending (byte) order:
 *  | count  |  +--------+---- .. ----+--------+--------+--------+---- .. ----+
 *  | 1..16  |  | name   |   name     |  type  | value length m  |   value    |
 *  +--------+  | length |  n bytes   |  1..4  |  (uint16)       |  m bytes   |
 *              | 1..32  | [A-Za-z_]  |        | 0..1024         |            |
 *              +--------+---- .. ----+--------+--------+--------+---- .. ----+
 *
 *  type 1 integer: m = 8, int64          type 3 bytes:  m = 0..1024, raw
 *  type 2 string:  m = 0..1024, UTF-8    type 4 ranges: m = 16 k, k pairs (first int64, last int64),
 *                  (well-formed)                        0 &lt;= first &lt;= last, ascending, gaps &gt;= 1
 * </pre>
 * The fields end exactly where the extension's body does. Version 1 is unchanged by this
 * extension: a node that predates it keeps the fields as an unknown extension and forwards them.
 * The bounds are {@link MessageFields#MAX_FIELDS}, {@link MessageFields#MAX_NAME_BYTES},
 * {@link MessageFields#MAX_VALUE_BYTES} and {@link MessageFields#MAX_TOTAL_BYTES}; the decoder's
 * error names the one a frame exceeds.
 *
 * <p>Kind 2, a protocol message ({@link ProtocolMessage}):
 * <pre>
 *    7        8 .. 11                             12
 *  +--------+--------+--------+--------+--------+------ .. ------+
 *  |  type  |    body length n (int32)          |  body, n bytes |
 *  | 0..255 |                                   |                |
 *  +--------+--------+--------+--------+--------+------ .. ------+
 * </pre>
 *
 * <h2>Decoding hostile bytes</h2>
 * The frame is the whole readable region of the buffer given to {@link #decode}; the codec does no
 * stream framing (a substrate's frame decoder does that). Decoding checks every field before it
 * uses it and throws only {@link DecodeException}: a frame above {@link #maxMessageBytes()} is
 * refused before its first byte is read, every length field is checked against that maximum and
 * against the bytes present before anything is allocated for it (so decoding never allocates
 * more than a small constant plus the frame's size), and the input is read once, front to back.
 * The encoding is canonical: a frame that decodes re-encodes to the same bytes, because every
 * field that could be written two ways (unused flag bits, unknown codes, trailing bytes) is
 * refused.
 *
 * <p>Offsets in a {@link DecodeException} point at the field that is wrong: the field itself for a
 * bad value or a field cut off by the end of the frame, the length field for a length above the
 * maximum or an FSM body of the wrong size, the body for a body cut off by the end of the frame,
 * the type byte for a duplicate or surplus extension, the frame's length for a chain without its
 * end byte, and the first surplus byte for trailing bytes.
 */
public final class MessageCodec {

    /** Default largest frame accepted or produced, in bytes. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024;

    /**
     * Smallest allowed {@code maxMessageBytes}: enough for the largest application header (with
     * destination and root), an FSM extension and the end byte, so every codec can carry every
     * header.
     */
    public static final int MIN_MAX_MESSAGE_BYTES = 64;

    /**
     * Largest allowed {@code maxMessageBytes}, 16 MiB: a bound on what one hostile frame can make
     * a node allocate. Bulk data belongs in many messages, not one.
     */
    public static final int MAX_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

    /** First byte of every frame. Chosen to be neither 0x00 nor 0xFF, which blank memory yields. */
    public static final int MAGIC = 0x5C;

    /** The wire format version this codec writes and accepts. */
    public static final int VERSION = 1;

    /** Kind byte of an application message. */
    public static final int KIND_APPLICATION = 1;

    /** Kind byte of a protocol message. */
    public static final int KIND_PROTOCOL = 2;

    /** Flag bit: a destination address follows the previous hop. */
    public static final int FLAG_DESTINATION = 0x01;

    /** Flag bit: a root address follows the destination (or the previous hop). */
    public static final int FLAG_ROOT = 0x02;

    /** Type byte that ends the extension chain. */
    public static final int END_OF_EXTENSIONS = 0;

    /**
     * Most extensions one application message may carry: bounds the per-frame object count and
     * the decode work a frame of tiny extensions can cause.
     */
    public static final int MAX_EXTENSIONS = 16;

    /** Bytes of the common header: magic, version, kind, overlay-ID hash. */
    public static final int COMMON_HEADER_BYTES = 7;

    /** Bytes of an application frame with no optional address and no extension. */
    public static final int MIN_APPLICATION_FRAME_BYTES = COMMON_HEADER_BYTES + 4 + 2 * LogicalAddress.ENCODED_BYTES + 1;

    /** Bytes of a protocol frame with an empty body. */
    public static final int MIN_PROTOCOL_FRAME_BYTES = COMMON_HEADER_BYTES + 1 + 4;

    private static final int EXTENSION_HEADER_BYTES = 1 + 4;
    private static final int OFF_MAGIC = 0;
    private static final int OFF_VERSION = 1;
    private static final int OFF_KIND = 2;
    private static final int OFF_HASH = 3;
    private static final int OFF_MODE = 7;
    private static final int OFF_HOP_LIMIT = 8;
    private static final int OFF_FAMILY = 9;
    private static final int OFF_FLAGS = 10;
    private static final int OFF_SOURCE = 11;
    private static final int OFF_PROTOCOL_TYPE = 7;
    private static final int OFF_PROTOCOL_LENGTH = 8;
    private static final int OFF_PROTOCOL_BODY = 12;

    private final int overlayHash;
    private final int maxMessageBytes;
    /** Decoded headers share the address objects of the nodes they name. */
    private final RecentAddresses addresses = new RecentAddresses();

    /**
     * @param overlayHash     hash of the overlay ID ({@link OverlayId#wireHash()}), written into
     *                        and required of every frame
     * @param maxMessageBytes largest frame accepted or produced,
     *                        {@value #MIN_MAX_MESSAGE_BYTES}..{@value #MAX_MAX_MESSAGE_BYTES}
     * @throws IllegalArgumentException if {@code maxMessageBytes} is out of range
     */
    public MessageCodec(int overlayHash, int maxMessageBytes) {
        if (maxMessageBytes < MIN_MAX_MESSAGE_BYTES) {
            throw new IllegalArgumentException(
                    "maxMessageBytes=" + maxMessageBytes + " < MIN_MAX_MESSAGE_BYTES=" + MIN_MAX_MESSAGE_BYTES);
        }
        if (maxMessageBytes > MAX_MAX_MESSAGE_BYTES) {
            throw new IllegalArgumentException(
                    "maxMessageBytes=" + maxMessageBytes + " > MAX_MAX_MESSAGE_BYTES=" + MAX_MAX_MESSAGE_BYTES);
        }
        this.overlayHash = overlayHash;
        this.maxMessageBytes = maxMessageBytes;
    }

    /**
     * Writes one frame for {@code message} at {@code out}'s writer index and advances it by
     * {@link #encodedSize encodedSize(message)}. Allocates nothing but what {@code out} needs to
     * grow. Nothing is written when the message cannot be encoded.
     *
     * @throws IllegalArgumentException if the frame would exceed {@link #maxMessageBytes()} or the
     *                                  message has more than {@value #MAX_EXTENSIONS} extensions
     * @throws IndexOutOfBoundsException if {@code out} cannot grow to hold the frame
     */
    public void encode(WireMessage message, ByteBuf out) {
        int size = encodedSize(message);
        out.ensureWritable(size);
        out.writeByte(MAGIC);
        out.writeByte(VERSION);
        if (message instanceof OverlayMessage m) {
            out.writeByte(KIND_APPLICATION);
            out.writeInt(overlayHash);
            encodeApplication(m, out);
        } else {
            ProtocolMessage p = (ProtocolMessage) message;
            out.writeByte(KIND_PROTOCOL);
            out.writeInt(overlayHash);
            out.writeByte(p.type());
            out.writeInt(p.body().length);
            out.writeBytes(p.body());
        }
    }

    /**
     * Size in bytes of the frame {@link #encode} writes for {@code message}.
     *
     * @throws IllegalArgumentException if the frame would exceed {@link #maxMessageBytes()} or the
     *                                  message has more than {@value #MAX_EXTENSIONS} extensions
     */
    public int encodedSize(WireMessage message) {
        Objects.requireNonNull(message, "message");
        long size;
        if (message instanceof OverlayMessage m) {
            List<Extension> extensions = m.extensions();
            int count = extensions.size();
            if (count > MAX_EXTENSIONS) {
                throw new IllegalArgumentException(
                        "message has " + count + " extensions > MAX_EXTENSIONS=" + MAX_EXTENSIONS);
            }
            size = MIN_APPLICATION_FRAME_BYTES;
            if (m.destination() != null) {
                size += LogicalAddress.ENCODED_BYTES;
            }
            if (m.root() != null) {
                size += LogicalAddress.ENCODED_BYTES;
            }
            // Indexed loop: an iterator would be the encoder's only allocation.
            for (int i = 0; i < count; i++) {
                size += EXTENSION_HEADER_BYTES + bodyLength(extensions.get(i));
            }
        } else {
            size = MIN_PROTOCOL_FRAME_BYTES + (long) ((ProtocolMessage) message).body().length;
        }
        if (size > maxMessageBytes) {
            throw new IllegalArgumentException(
                    "message needs a frame of " + size + " bytes > maxMessageBytes=" + maxMessageBytes);
        }
        return (int) size;
    }

    /**
     * Decodes exactly one frame: all readable bytes of {@code in}. The frame is consumed whether
     * or not it decodes (the reader index moves to the writer index, as a Netty decoder discards
     * a corrupt frame); {@code in} is not released, and the message shares no memory with it.
     *
     * @throws DecodeException if the bytes are not one valid frame of this overlay
     */
    public WireMessage decode(ByteBuf in) throws DecodeException {
        int start = in.readerIndex();
        int length = in.readableBytes();
        in.readerIndex(in.writerIndex());
        if (length > maxMessageBytes) {
            throw new DecodeException(DecodeException.Reason.TOO_LARGE, 0,
                    "frame of " + length + " bytes > maxMessageBytes=" + maxMessageBytes);
        }
        Frame frame = new Frame(in, start, length);
        if (frame.u8(OFF_MAGIC, "magic") != MAGIC) {
            throw new DecodeException(DecodeException.Reason.BAD_MAGIC, OFF_MAGIC,
                    "magic 0x" + Integer.toHexString(frame.u8(OFF_MAGIC, "magic")) + " is not 0x" + Integer.toHexString(MAGIC));
        }
        int version = frame.u8(OFF_VERSION, "version");
        if (version != VERSION) {
            throw new DecodeException(DecodeException.Reason.BAD_VERSION, OFF_VERSION,
                    "version " + version + ", this node speaks " + VERSION);
        }
        int kind = frame.u8(OFF_KIND, "kind");
        if (kind != KIND_APPLICATION && kind != KIND_PROTOCOL) {
            throw new DecodeException(DecodeException.Reason.UNKNOWN_KIND, OFF_KIND,
                    "kind " + kind + " is neither " + KIND_APPLICATION + " (application) nor " + KIND_PROTOCOL + " (protocol)");
        }
        int hash = frame.i32(OFF_HASH, "overlay-ID hash");
        if (hash != overlayHash) {
            throw new DecodeException(DecodeException.Reason.FOREIGN_OVERLAY, OFF_HASH,
                    String.format("overlay-ID hash 0x%08x, this overlay is 0x%08x", hash, overlayHash));
        }
        return kind == KIND_APPLICATION ? decodeApplication(frame) : decodeProtocol(frame);
    }

    /** The overlay-ID hash this codec writes and requires. */
    public int overlayHash() {
        return overlayHash;
    }

    /** The largest frame accepted or produced. */
    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    private static void encodeApplication(OverlayMessage m, ByteBuf out) {
        out.writeByte(m.mode().code());
        out.writeByte(m.hopLimit());
        out.writeByte(m.source().family().code());
        int flags = (m.destination() != null ? FLAG_DESTINATION : 0) | (m.root() != null ? FLAG_ROOT : 0);
        out.writeByte(flags);
        out.writeLong(m.source().toBits());
        out.writeLong(m.previousHop().toBits());
        if (m.destination() != null) {
            out.writeLong(m.destination().toBits());
        }
        if (m.root() != null) {
            out.writeLong(m.root().toBits());
        }
        List<Extension> extensions = m.extensions();
        for (int i = 0, n = extensions.size(); i < n; i++) {
            Extension e = extensions.get(i);
            out.writeByte(e.type());
            out.writeInt(bodyLength(e));
            if (e instanceof PayloadExtension p) {
                out.writeBytes(p.data());
            } else if (e instanceof FsmExtension f) {
                out.writeInt(f.serviceId());
                out.writeByte(f.messageType());
                out.writeLong(f.messageId());
            } else if (e instanceof FieldsExtension f) {
                encodeFields(f.fields(), out);
            } else {
                out.writeBytes(((UnknownExtension) e).body());
            }
        }
        out.writeByte(END_OF_EXTENSIONS);
    }

    private static int bodyLength(Extension e) {
        if (e instanceof PayloadExtension p) {
            return p.data().length;
        }
        if (e instanceof FsmExtension) {
            return FsmExtension.BODY_BYTES;
        }
        if (e instanceof FieldsExtension f) {
            return f.fields().encodedLength();
        }
        return ((UnknownExtension) e).body().length;
    }

    private WireMessage decodeApplication(Frame frame) throws DecodeException {
        int modeCode = frame.u8(OFF_MODE, "delivery mode");
        DeliveryMode mode = DeliveryMode.ofCode(modeCode);
        if (mode == null) {
            throw new DecodeException(DecodeException.Reason.BAD_FIELD, OFF_MODE, "unknown delivery mode " + modeCode);
        }
        int hopLimit = frame.u8(OFF_HOP_LIMIT, "hop limit");
        int familyCode = frame.u8(OFF_FAMILY, "address family");
        LogicalAddress.Family family = LogicalAddress.Family.ofCode(familyCode);
        if (family == null) {
            throw new DecodeException(DecodeException.Reason.BAD_FIELD, OFF_FAMILY, "unknown address family " + familyCode);
        }
        int flags = frame.u8(OFF_FLAGS, "flags");
        if ((flags & ~(FLAG_DESTINATION | FLAG_ROOT)) != 0) {
            throw new DecodeException(DecodeException.Reason.BAD_FIELD, OFF_FLAGS,
                    String.format("flags 0x%02x set bits other than destination (0x01) and root (0x02)", flags));
        }
        if (mode == DeliveryMode.UNICAST && (flags & FLAG_DESTINATION) == 0) {
            throw new DecodeException(DecodeException.Reason.BAD_FIELD, OFF_FLAGS, "unicast message without destination");
        }
        int off = OFF_SOURCE;
        LogicalAddress source = addresses.get(family, frame.i64(off, "source"));
        off += LogicalAddress.ENCODED_BYTES;
        LogicalAddress previousHop = addresses.get(family, frame.i64(off, "previous hop"));
        off += LogicalAddress.ENCODED_BYTES;
        LogicalAddress destination = null;
        if ((flags & FLAG_DESTINATION) != 0) {
            destination = addresses.get(family, frame.i64(off, "destination"));
            off += LogicalAddress.ENCODED_BYTES;
        }
        LogicalAddress root = null;
        if ((flags & FLAG_ROOT) != 0) {
            root = addresses.get(family, frame.i64(off, "root"));
            off += LogicalAddress.ENCODED_BYTES;
        }

        List<Extension> extensions = new ArrayList<>(2);
        boolean payloadSeen = false;
        boolean fsmSeen = false;
        int fieldsAt = -1;
        while (true) {
            if (off >= frame.length) {
                throw new DecodeException(DecodeException.Reason.BAD_EXTENSION, frame.length,
                        "extension chain has no end byte");
            }
            int type = frame.u8(off, "extension type");
            if (type == END_OF_EXTENSIONS) {
                off++;
                break;
            }
            if (extensions.size() == MAX_EXTENSIONS) {
                throw new DecodeException(DecodeException.Reason.BAD_EXTENSION, off,
                        "more than MAX_EXTENSIONS=" + MAX_EXTENSIONS + " extensions");
            }
            // Checked front to back: the type byte (duplicates), the length field, then the body.
            if (type == Extension.PAYLOAD && payloadSeen) {
                throw new DecodeException(DecodeException.Reason.BAD_EXTENSION, off, "second payload extension");
            }
            if (type == Extension.FSM && fsmSeen) {
                throw new DecodeException(DecodeException.Reason.BAD_EXTENSION, off, "second FSM extension");
            }
            if (type == Extension.FIELDS && fieldsAt >= 0) {
                throw new DecodeException(DecodeException.Reason.BAD_EXTENSION, off, "second fields extension");
            }
            int bodyLength = frame.lengthField(off + 1, "extension length");
            if (type == Extension.FSM && bodyLength != FsmExtension.BODY_BYTES) {
                throw new DecodeException(DecodeException.Reason.BAD_EXTENSION, off + 1,
                        "FSM extension body of " + bodyLength + " bytes, must be " + FsmExtension.BODY_BYTES);
            }
            if (type == Extension.FIELDS && bodyLength > MessageFields.MAX_TOTAL_BYTES) {
                throw new DecodeException(DecodeException.Reason.TOO_LARGE, off + 1,
                        "fields extension body of " + bodyLength + " bytes > MAX_TOTAL_BYTES=" + MessageFields.MAX_TOTAL_BYTES);
            }
            int body = off + EXTENSION_HEADER_BYTES;
            frame.require(body, bodyLength, "extension body");
            Extension extension;
            if (type == Extension.PAYLOAD) {
                payloadSeen = true;
                extension = new PayloadExtension(frame.bytes(body, bodyLength));
            } else if (type == Extension.FSM) {
                fsmSeen = true;
                extension = new FsmExtension(frame.i32(body, "service ID"), (byte) frame.u8(body + 4, "message type"),
                        frame.i64(body + 5, "message ID"));
            } else if (type == Extension.FIELDS) {
                fieldsAt = off;
                extension = new FieldsExtension(decodeFields(frame, body, bodyLength));
            } else {
                extension = new UnknownExtension(type, frame.bytes(body, bodyLength));
            }
            extensions.add(extension);
            off = body + bodyLength;
        }
        frame.requireEnd(off);
        if (fieldsAt >= 0 && !fsmSeen) {
            throw new DecodeException(DecodeException.Reason.BAD_EXTENSION, fieldsAt,
                    "fields extension without an FSM extension (fields belong to a service's message)");
        }
        try {
            return new OverlayMessage(mode, hopLimit, source, destination, previousHop, root, extensions);
        } catch (IllegalArgumentException e) {
            // Every invariant of OverlayMessage is checked above with its precise offset; this is
            // the safety net should the record ever gain a rule the codec does not yet know.
            throw new DecodeException(DecodeException.Reason.BAD_FIELD, OFF_MODE, "invalid message: " + e.getMessage());
        }
    }

    private static void encodeFields(MessageFields fields, ByteBuf out) {
        out.writeByte(fields.size());
        for (var e : fields.asMap().entrySet()) {
            String name = e.getKey();
            MessageField v = e.getValue();
            out.writeByte(name.length());
            for (int i = 0; i < name.length(); i++) {
                out.writeByte(name.charAt(i)); // ASCII, checked by MessageFields
            }
            out.writeByte(v.type().code());
            out.writeShort(v.encodedLength());
            if (v instanceof MessageField.Int i) {
                out.writeLong(i.value());
            } else if (v instanceof MessageField.Text t) {
                out.writeBytes(MessageFields.utf8(t));
            } else if (v instanceof MessageField.Bytes b) {
                out.writeBytes(b.value());
            } else {
                for (MessageField.Range range : ((MessageField.Ranges) v).ranges()) {
                    out.writeLong(range.first());
                    out.writeLong(range.last());
                }
            }
        }
    }

    /**
     * Decodes a fields extension's body of {@code length} bytes at {@code body}, which
     * {@link Frame#require} has checked is inside the frame. Every count and length is checked
     * against its bound and against the body's end before it is used.
     */
    private static MessageFields decodeFields(Frame frame, int body, int length) throws DecodeException {
        int end = body + length;
        if (length < 1) {
            throw new DecodeException(DecodeException.Reason.BAD_EXTENSION, body, "fields extension has no count byte");
        }
        int count = frame.u8(body, "field count");
        if (count == 0) {
            throw new DecodeException(DecodeException.Reason.BAD_EXTENSION, body,
                    "fields extension with 0 fields (a message without fields has no fields extension)");
        }
        if (count > MessageFields.MAX_FIELDS) {
            throw new DecodeException(DecodeException.Reason.TOO_LARGE, body,
                    "field count " + count + " > MAX_FIELDS=" + MessageFields.MAX_FIELDS);
        }
        TreeMap<String, MessageField> fields = new TreeMap<>();
        String previous = null;
        int off = body + 1;
        for (int i = 0; i < count; i++) {
            within(off, 1, end, "field name length");
            int nameLength = frame.u8(off, "field name length");
            if (nameLength == 0 || nameLength > MessageFields.MAX_NAME_BYTES) {
                throw new DecodeException(nameLength == 0 ? DecodeException.Reason.BAD_FIELD : DecodeException.Reason.TOO_LARGE,
                        off, "field name length " + nameLength + " outside 1..MAX_NAME_BYTES=" + MessageFields.MAX_NAME_BYTES);
            }
            within(off + 1, nameLength, end, "field name");
            byte[] nameBytes = frame.bytes(off + 1, nameLength);
            String name = new String(nameBytes, StandardCharsets.ISO_8859_1);
            try {
                MessageFields.checkName(name);
            } catch (IllegalArgumentException e) {
                throw new DecodeException(DecodeException.Reason.BAD_FIELD, off + 1, e.getMessage());
            }
            if (previous != null && name.compareTo(previous) <= 0) {
                throw new DecodeException(DecodeException.Reason.BAD_FIELD, off + 1,
                        "field names must be strictly ascending: '" + name + "' after '" + previous + "'");
            }
            previous = name;
            off += 1 + nameLength;
            within(off, 3, end, "field type and value length");
            int typeCode = frame.u8(off, "field type");
            MessageField.Type type = MessageField.Type.ofCode(typeCode);
            if (type == null) {
                throw new DecodeException(DecodeException.Reason.BAD_FIELD, off,
                        "field '" + name + "' has unknown type " + typeCode + " (known 1..4)");
            }
            int valueLength = (frame.u8(off + 1, "field value length") << 8) | frame.u8(off + 2, "field value length");
            if (valueLength > MessageFields.MAX_VALUE_BYTES) {
                throw new DecodeException(DecodeException.Reason.TOO_LARGE, off + 1,
                        "field '" + name + "' value of " + valueLength + " bytes > MAX_VALUE_BYTES=" + MessageFields.MAX_VALUE_BYTES);
            }
            int value = off + 3;
            within(value, valueLength, end, "value of field '" + name + "'");
            fields.put(name, decodeValue(frame, name, type, value, valueLength, off + 1));
            off = value + valueLength;
        }
        if (off != end) {
            throw new DecodeException(DecodeException.Reason.BAD_EXTENSION, off,
                    (end - off) + " bytes after the last field of the fields extension");
        }
        try {
            return MessageFields.of(fields);
        } catch (IllegalArgumentException e) {
            // unreachable: the body bound is MAX_TOTAL_BYTES and every part is checked above
            throw new DecodeException(DecodeException.Reason.BAD_FIELD, body, e.getMessage());
        }
    }

    private static MessageField decodeValue(Frame frame, String name, MessageField.Type type, int value, int length,
            int lengthOffset) throws DecodeException {
        switch (type) {
            case INTEGER -> {
                if (length != Long.BYTES) {
                    throw new DecodeException(DecodeException.Reason.BAD_FIELD, lengthOffset,
                            "integer field '" + name + "' of " + length + " bytes, must be 8");
                }
                return new MessageField.Int(frame.i64(value, "integer field"));
            }
            case STRING -> {
                try {
                    String text = StandardCharsets.UTF_8.newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(frame.bytes(value, length))).toString();
                    return new MessageField.Text(text);
                } catch (CharacterCodingException e) {
                    throw new DecodeException(DecodeException.Reason.BAD_FIELD, value,
                            "string field '" + name + "' is not well-formed UTF-8");
                }
            }
            case BYTES -> {
                return new MessageField.Bytes(frame.bytes(value, length));
            }
            case RANGES -> {
                if (length % 16 != 0) {
                    throw new DecodeException(DecodeException.Reason.BAD_FIELD, lengthOffset,
                            "ranges field '" + name + "' of " + length + " bytes, must be a multiple of 16");
                }
                List<MessageField.Range> ranges = new ArrayList<>(length / 16);
                long previousLast = Long.MIN_VALUE;
                for (int at = value; at < value + length; at += 16) {
                    long first = frame.i64(at, "range first");
                    long last = frame.i64(at + 8, "range last");
                    if (first < 0 || last < first) {
                        throw new DecodeException(DecodeException.Reason.BAD_FIELD, at,
                                "range " + first + "-" + last + " of field '" + name + "' needs 0 <= first <= last");
                    }
                    if (!ranges.isEmpty() && (first <= previousLast || first - previousLast < 2)) {
                        throw new DecodeException(DecodeException.Reason.BAD_FIELD, at, "range " + first + "-" + last
                                + " of field '" + name + "' must come after " + previousLast + "+1 (ascending, disjoint, not adjacent)");
                    }
                    ranges.add(new MessageField.Range(first, last));
                    previousLast = last;
                }
                return new MessageField.Ranges(ranges);
            }
            default -> throw new AssertionError(type);
        }
    }

    /** Requires {@code n} bytes at {@code off} before the fields extension's {@code end}. */
    private static void within(int off, int n, int end, String field) throws DecodeException {
        if (n > end - off) {
            throw new DecodeException(DecodeException.Reason.BAD_EXTENSION, Math.min(off, end),
                    field + " needs " + n + " bytes, the fields extension has " + Math.max(0, end - off) + " left");
        }
    }

    private WireMessage decodeProtocol(Frame frame) throws DecodeException {
        int type = frame.u8(OFF_PROTOCOL_TYPE, "protocol type");
        int bodyLength = frame.lengthField(OFF_PROTOCOL_LENGTH, "protocol body length");
        frame.require(OFF_PROTOCOL_BODY, bodyLength, "protocol body");
        byte[] body = frame.bytes(OFF_PROTOCOL_BODY, bodyLength);
        frame.requireEnd(OFF_PROTOCOL_BODY + bodyLength);
        return new ProtocolMessage(type, body);
    }

    /**
     * Bounds-checked reads at offsets relative to the frame start; the one place that turns a
     * short frame into {@link DecodeException.Reason#TRUNCATED}.
     */
    private final class Frame {
        private final ByteBuf buf;
        private final int start;
        private final int length;

        Frame(ByteBuf buf, int start, int length) {
            this.buf = buf;
            this.start = start;
            this.length = length;
        }

        /** Requires {@code n} bytes at {@code off}. */
        void require(int off, int n, String field) throws DecodeException {
            if (n > length - off) {
                throw new DecodeException(DecodeException.Reason.TRUNCATED, off,
                        field + " needs " + n + " bytes, frame has " + Math.max(0, length - off) + " left");
            }
        }

        /** Requires that the message ended exactly at the frame's end. */
        void requireEnd(int end) throws DecodeException {
            if (end != length) {
                throw new DecodeException(DecodeException.Reason.TRAILING_BYTES, end,
                        (length - end) + " bytes after the end of the message");
            }
        }

        int u8(int off, String field) throws DecodeException {
            require(off, 1, field);
            return buf.getUnsignedByte(start + off);
        }

        int i32(int off, String field) throws DecodeException {
            require(off, 4, field);
            return buf.getInt(start + off);
        }

        long i64(int off, String field) throws DecodeException {
            require(off, 8, field);
            return buf.getLong(start + off);
        }

        /** A length field: an unsigned int32 that may not exceed the codec's maximum. */
        int lengthField(int off, String field) throws DecodeException {
            long n = i32(off, field) & 0xFFFF_FFFFL;
            if (n > maxMessageBytes) {
                throw new DecodeException(DecodeException.Reason.TOO_LARGE, off,
                        field + " " + n + " > maxMessageBytes=" + maxMessageBytes);
            }
            return (int) n;
        }

        /** Copies {@code n} bytes that {@link #require} has checked. */
        byte[] bytes(int off, int n) {
            byte[] copy = new byte[n];
            buf.getBytes(start + off, copy);
            return copy;
        }
    }
}
