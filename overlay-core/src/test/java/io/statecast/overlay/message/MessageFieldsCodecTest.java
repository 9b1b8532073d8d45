package io.statecast.overlay.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.message.DecodeException.Reason;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The fields extension: its layout byte for byte, each bound refused by name, canonical form. */
class MessageFieldsCodecTest {

    private static final int HASH = 0x01020304;
    private static final int CHAIN = 27;
    private static final byte[] FSM_EXT = concat(new byte[] {2, 0, 0, 0, 13}, new byte[13]);

    private final MessageCodec codec = new MessageCodec(HASH, MessageCodec.DEFAULT_MAX_MESSAGE_BYTES);
    private final long seed = Long.getLong("statecast.seed", System.nanoTime());

    @Test
    void shouldWriteTheDocumentedFieldsLayout() throws DecodeException {
        MessageFields fields = MessageFields.of(Map.of("seq", new MessageField.Int(258), "ack",
                new MessageField.Ranges(List.of(new MessageField.Range(1, 2))), "n", new MessageField.Text("é"),
                "b", new MessageField.Bytes(new byte[] {7})));
        OverlayMessage m = message(new FsmExtension(5, (byte) 1, 9), new FieldsExtension(fields));
        String hex = ByteBufUtil.hexDump(frame(m));
        String body = "04"
                + "03" + "61636b" + "04" + "0010" + "0000000000000001" + "0000000000000002"
                + "01" + "62" + "03" + "0001" + "07"
                + "01" + "6e" + "02" + "0002" + "c3a9"
                + "03" + "736571" + "01" + "0008" + "0000000000000102";
        assertTrue(hex.endsWith("04" + String.format("%08x", body.length() / 2) + body + "00"), hex);
        assertEquals(fields.encodedLength(), body.length() / 2);
        assertEquals(m, codec.decode(Unpooled.wrappedBuffer(frame(m))));
        assertEquals(fields, m.fields());
    }

    @Test
    void shouldRoundTripRandomFieldsOfEveryType() throws DecodeException {
        Random random = new Random(seed);
        RandomMessages messages = new RandomMessages(random, 64);
        for (int i = 0; i < 2_000; i++) {
            MessageFields fields = messages.fields();
            OverlayMessage m = message(new FsmExtension(1, (byte) 2, i), new FieldsExtension(fields));
            assertEquals(m, codec.decode(Unpooled.wrappedBuffer(frame(m))), "seed=" + seed + ", case " + i);
        }
    }

    @Test
    void shouldRefuseEachBoundNamingIt() {
        List<Object[]> cases = new ArrayList<>();
        // count above MAX_FIELDS
        cases.add(new Object[] {new byte[] {17}, Reason.TOO_LARGE, 0, "MAX_FIELDS=16"});
        // name longer than MAX_NAME_BYTES
        cases.add(new Object[] {concat(new byte[] {1, 33}, ascii("a".repeat(33)), new byte[] {1, 0, 8}, new byte[8]),
            Reason.TOO_LARGE, 1, "MAX_NAME_BYTES=32"});
        // value longer than MAX_VALUE_BYTES
        cases.add(new Object[] {concat(new byte[] {1, 1}, ascii("a"), new byte[] {3, 0x04, 0x01}, new byte[1025]),
            Reason.TOO_LARGE, 4, "MAX_VALUE_BYTES=1024"});
        for (Object[] c : cases) {
            DecodeException e = refused(fieldsFrame((byte[]) c[0]), (Reason) c[1], fieldsBody() + (int) c[2]);
            assertTrue(e.getMessage().contains((String) c[3]), e.getMessage());
        }
        // total above MAX_TOTAL_BYTES: refused at the extension's length field, before its body is read
        byte[] big = new byte[MessageFields.MAX_TOTAL_BYTES + 1];
        DecodeException e = refused(fieldsFrame(big), Reason.TOO_LARGE, CHAIN + FSM_EXT.length + 1);
        assertTrue(e.getMessage().contains("MAX_TOTAL_BYTES=4096"), e.getMessage());
    }

    @Test
    void shouldRefuseMalformedFieldsWithTheOffsetOfTheBadPart() {
        int b = fieldsBody();
        refused(fieldsFrame(new byte[0]), Reason.BAD_EXTENSION, b);
        refused(fieldsFrame(new byte[] {0}), Reason.BAD_EXTENSION, b);
        refused(fieldsFrame(field("9a", 1, new byte[8])), Reason.BAD_FIELD, b + 2);
        refused(fieldsFrame(field("a-b", 1, new byte[8])), Reason.BAD_FIELD, b + 2);
        refused(fieldsFrame(concat(new byte[] {1, 0})), Reason.BAD_FIELD, b + 1);
        refused(fieldsFrame(field("a", 5, new byte[0])), Reason.BAD_FIELD, b + 3);
        refused(fieldsFrame(field("a", 1, new byte[7])), Reason.BAD_FIELD, b + 4);
        refused(fieldsFrame(field("a", 2, new byte[] {(byte) 0xC3})), Reason.BAD_FIELD, b + 6);
        refused(fieldsFrame(field("a", 2, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80})), Reason.BAD_FIELD, b + 6);
        refused(fieldsFrame(field("a", 4, new byte[15])), Reason.BAD_FIELD, b + 4);
        refused(fieldsFrame(field("a", 4, ranges(5, 4))), Reason.BAD_FIELD, b + 6);
        refused(fieldsFrame(field("a", 4, ranges(-1, 4))), Reason.BAD_FIELD, b + 6);
        refused(fieldsFrame(field("a", 4, ranges(1, 4, 5, 6))), Reason.BAD_FIELD, b + 6 + 16);
        refused(fieldsFrame(field("a", 4, ranges(1, 4, 3, 6))), Reason.BAD_FIELD, b + 6 + 16);
        // names out of order, and duplicates
        byte[] two = concat(new byte[] {2}, Arrays.copyOfRange(field("b", 1, new byte[8]), 1, 14),
                Arrays.copyOfRange(field("a", 1, new byte[8]), 1, 14));
        DecodeException order = refused(fieldsFrame(two), Reason.BAD_FIELD, b + 1 + 13 + 1);
        assertTrue(order.getMessage().contains("ascending"), order.getMessage());
        byte[] dup = concat(new byte[] {2}, Arrays.copyOfRange(field("a", 1, new byte[8]), 1, 14),
                Arrays.copyOfRange(field("a", 1, new byte[8]), 1, 14));
        refused(fieldsFrame(dup), Reason.BAD_FIELD, b + 1 + 13 + 1);
        // a value running past the extension, and bytes after the last field
        byte[] cut = field("a", 3, new byte[4]);
        refused(fieldsFrame(Arrays.copyOf(cut, cut.length - 1)), Reason.BAD_EXTENSION, b + 6);
        refused(fieldsFrame(concat(field("a", 1, new byte[8]), new byte[1])), Reason.BAD_EXTENSION, b + 14);
    }

    @Test
    void shouldRefuseFieldsWithoutAnFsmExtensionAndASecondFieldsExtension() {
        byte[] header = Arrays.copyOf(frame(message()), CHAIN);
        byte[] fields = ext(4, field("a", 1, new byte[8]));
        DecodeException e = refused(concat(header, fields, new byte[] {0}), Reason.BAD_EXTENSION, CHAIN);
        assertTrue(e.getMessage().contains("without an FSM extension"), e.getMessage());
        refused(concat(header, FSM_EXT, fields, fields, new byte[] {0}), Reason.BAD_EXTENSION,
                CHAIN + FSM_EXT.length + fields.length);
        // the record refuses the same, for messages built in Java
        assertThrows(IllegalArgumentException.class, () -> message(new FieldsExtension(
                MessageFields.of(Map.of("a", new MessageField.Int(1))))));
    }

    @Test
    void shouldRefuseOversizedFieldsWhenBuiltNamingTheBound() {
        Map<String, MessageField> seventeen = new LinkedHashMap<>();
        for (int i = 0; i < 17; i++) {
            seventeen.put("f" + i, new MessageField.Int(i));
        }
        assertEquals("17 fields > MAX_FIELDS=16",
                assertThrows(IllegalArgumentException.class, () -> MessageFields.of(seventeen)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new MessageField.Bytes(new byte[1025]))
                .getMessage().contains("MAX_VALUE_BYTES=1024"));
        Map<String, MessageField> fat = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            fat.put("f" + i, new MessageField.Bytes(new byte[1000]));
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MessageFields.of(fat)).getMessage()
                .contains("MAX_TOTAL_BYTES=4096"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> MessageFields.of(Map.of("x".repeat(33), new MessageField.Int(1)))).getMessage()
                .contains("MAX_NAME_BYTES=32"));
    }

    @Test
    void shouldNormaliseRangesAndParseTheirTextForm() {
        MessageField.Ranges r = MessageField.Ranges.parse(" 9-12 1-3 4 20-20 ");
        assertEquals("1-4 9-12 20-20", r.text());
        assertEquals(r, MessageField.Ranges.parse(r.text()));
        assertThrows(IllegalArgumentException.class, () -> MessageField.Ranges.parse("1-x"));
        assertThrows(IllegalArgumentException.class, () -> MessageField.Ranges.parse("-3"));
    }

    // ---- helpers -----------------------------------------------------------------------------

    /** Offset of the fields body in {@link #fieldsFrame}. */
    private static int fieldsBody() {
        return CHAIN + FSM_EXT.length + 5;
    }

    private byte[] fieldsFrame(byte[] body) {
        byte[] header = Arrays.copyOf(frame(message()), CHAIN);
        return concat(header, FSM_EXT, ext(4, body), new byte[] {0});
    }

    /** A fields body of one field. */
    private static byte[] field(String name, int type, byte[] value) {
        return concat(new byte[] {1, (byte) name.length()}, ascii(name),
                new byte[] {(byte) type, (byte) (value.length >> 8), (byte) value.length}, value);
    }

    private static byte[] ranges(long... ends) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (long v : ends) {
            for (int s = 56; s >= 0; s -= 8) {
                out.write((int) (v >>> s));
            }
        }
        return out.toByteArray();
    }

    private DecodeException refused(byte[] frame, Reason reason, int offset) {
        DecodeException e = assertThrows(DecodeException.class, () -> codec.decode(Unpooled.wrappedBuffer(frame)),
                () -> "expected " + reason + " for " + ByteBufUtil.hexDump(frame));
        assertEquals(reason, e.reason(), () -> e.getMessage() + " for " + ByteBufUtil.hexDump(frame));
        assertEquals(offset, e.offset(), () -> e.getMessage() + " for " + ByteBufUtil.hexDump(frame));
        return e;
    }

    private static OverlayMessage message(Extension... extensions) {
        return new OverlayMessage(DeliveryMode.MULTICAST, 7, new DtAddress(1, 2), null, new DtAddress(3, 4), null,
                List.of(extensions));
    }

    private byte[] frame(WireMessage m) {
        ByteBuf out = Unpooled.buffer();
        codec.encode(m, out);
        byte[] bytes = ByteBufUtil.getBytes(out);
        out.release();
        return bytes;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] ext(int type, byte[] body) {
        return concat(new byte[] {(byte) type, (byte) (body.length >>> 24), (byte) (body.length >>> 16),
            (byte) (body.length >>> 8), (byte) body.length}, body);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
