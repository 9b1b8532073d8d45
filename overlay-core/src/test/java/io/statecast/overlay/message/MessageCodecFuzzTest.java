package io.statecast.overlay.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Feeds the decoder random byte strings and mutated valid frames. The only allowed outcomes are a
 * message or a {@link DecodeException} with an offset inside the frame; a decoded message must
 * re-encode to exactly the input (the encoding is canonical). The number of cases comes from
 * {@code statecast.fuzz.cases} (50,000 by default, 1,000,000 under {@code -Psoak}).
 */
class MessageCodecFuzzTest {

    private static final int MAX_BYTES = 2048;
    private static final int[] INTERESTING_BYTES = {0x00, 0x01, 0x02, 0x03, 0x04, 0x7F, 0x80, 0xFE, 0xFF};

    private final long seed = Long.getLong("statecast.seed", System.nanoTime());
    private final int cases = Integer.getInteger("statecast.fuzz.cases", 50_000);

    @Test
    void shouldOnlyDecodeOrRefuseHostileFramesAndReencodeWhatItDecodesToTheSameBytes() {
        MessageCodec codec = new MessageCodec(OverlayId.wireHash("fuzz"), MAX_BYTES);
        Random random = new Random(seed);
        RandomMessages messages = new RandomMessages(new Random(seed * 31 + 7), 96);
        Map<DecodeException.Reason, Integer> refused = new EnumMap<>(DecodeException.Reason.class);
        int decoded = 0;
        for (int i = 0; i < cases; i++) {
            byte[] input = hostileInput(random, messages, codec);
            String where = "seed=" + seed + " (rerun with -Dstatecast.seed=" + seed + "), case #" + i
                    + ", input " + input.length + " bytes: " + ByteBufUtil.hexDump(input);
            ByteBuf buf = embedded(input, random);
            WireMessage message = null;
            DecodeException refusal = null;
            try {
                message = codec.decode(buf);
            } catch (DecodeException e) {
                refusal = e;
            } catch (RuntimeException | Error e) {
                fail("decode threw something other than DecodeException, " + where, e);
            }
            assertEquals(buf.writerIndex(), buf.readerIndex(), "decode must consume the frame, " + where);
            buf.release();
            if (refusal != null) {
                assertTrue(refusal.offset() >= 0 && refusal.offset() <= input.length,
                        "offset " + refusal.offset() + " outside the frame, " + refusal.getMessage() + ", " + where);
                refused.merge(refusal.reason(), 1, Integer::sum);
            } else {
                decoded++;
                ByteBuf out = Unpooled.buffer(input.length);
                codec.encode(message, out);
                assertArrayEquals(input, ByteBufUtil.getBytes(out), "not canonical: re-encoding " + message + " differs, " + where);
                out.release();
            }
        }
        if (cases >= 10_000) {
            // A fuzzer that never reaches some check is not testing it.
            for (DecodeException.Reason reason : DecodeException.Reason.values()) {
                assertTrue(refused.containsKey(reason), "no case was refused for " + reason + ": " + refused + ", seed=" + seed);
            }
            assertTrue(decoded > cases / 100, "only " + decoded + " of " + cases + " inputs decoded, seed=" + seed);
        }
    }

    /**
     * Puts the input between junk bytes: before the reader index and after the writer index, so a
     * decoder reading outside the readable region reads garbage and fails the re-encode check.
     */
    private static ByteBuf embedded(byte[] input, Random random) {
        int before = random.nextBoolean() ? 0 : 1 + random.nextInt(8);
        int after = random.nextInt(16);
        ByteBuf buf = Unpooled.buffer(before + input.length + after);
        for (int i = 0; i < before; i++) {
            buf.writeByte(random.nextInt());
        }
        buf.writeBytes(input);
        for (int i = 0; i < after; i++) {
            buf.setByte(buf.writerIndex() + i, random.nextInt());
        }
        buf.readerIndex(before);
        return buf;
    }

    private static byte[] hostileInput(Random random, RandomMessages messages, MessageCodec codec) {
        int strategy = random.nextInt(20);
        if (strategy == 0) {
            byte[] b = new byte[random.nextInt(64)];
            random.nextBytes(b);
            return b;
        }
        if (strategy == 1) {
            byte[] b = new byte[MessageCodec.COMMON_HEADER_BYTES + random.nextInt(128)];
            random.nextBytes(b);
            System.arraycopy(valid(messages.next(), codec), 0, b, 0, MessageCodec.COMMON_HEADER_BYTES);
            return b;
        }
        if (strategy == 2) {
            // Larger than the maximum, starting like a valid frame.
            byte[] b = new byte[MAX_BYTES + 1 + random.nextInt(64)];
            byte[] v = valid(messages.next(), codec);
            System.arraycopy(v, 0, b, 0, v.length);
            return b;
        }
        byte[] frame = valid(messages.next(), codec);
        int rounds = random.nextInt(4) == 0 ? 2 + random.nextInt(2) : 1;
        for (int r = 0; r < rounds; r++) {
            frame = mutate(frame, random, messages, codec);
        }
        return frame;
    }

    private static byte[] mutate(byte[] f, Random random, RandomMessages messages, MessageCodec codec) {
        switch (random.nextInt(8)) {
            case 0 -> { // bit flips
                byte[] b = f.clone();
                for (int n = 1 + random.nextInt(4); n > 0 && b.length > 0; n--) {
                    int at = random.nextInt(b.length);
                    b[at] ^= (byte) (1 << random.nextInt(8));
                }
                return b;
            }
            case 1 -> { // truncation
                return Arrays.copyOf(f, f.length == 0 ? 0 : random.nextInt(f.length));
            }
            case 2 -> { // extension with random bytes
                byte[] b = Arrays.copyOf(f, f.length + 1 + random.nextInt(16));
                for (int i = f.length; i < b.length; i++) {
                    b[i] = (byte) random.nextInt();
                }
                return b;
            }
            case 3 -> { // length-field corruption
                List<Integer> fields = lengthFields(f);
                if (fields.isEmpty()) {
                    return f;
                }
                byte[] b = f.clone();
                int at = fields.get(random.nextInt(fields.size()));
                int old = readInt(b, at);
                int[] values = {0, 1, -1, 12, 13, 14, old - 1, old + 1, old + random.nextInt(9) - 4, b.length - at,
                    MAX_BYTES, MAX_BYTES + 1, Integer.MAX_VALUE, Integer.MIN_VALUE, random.nextInt()};
                writeInt(b, at, values[random.nextInt(values.length)]);
                return b;
            }
            case 4 -> { // one byte set to a value near a boundary
                if (f.length == 0) {
                    return f;
                }
                byte[] b = f.clone();
                int at = random.nextInt(4) == 0 ? random.nextInt(Math.min(b.length, 32)) : random.nextInt(b.length);
                b[at] = (byte) INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)];
                return b;
            }
            case 5 -> { // insert bytes
                int at = random.nextInt(f.length + 1);
                int n = 1 + random.nextInt(8);
                byte[] b = new byte[f.length + n];
                System.arraycopy(f, 0, b, 0, at);
                for (int i = 0; i < n; i++) {
                    b[at + i] = (byte) random.nextInt();
                }
                System.arraycopy(f, at, b, at + n, f.length - at);
                return b;
            }
            case 6 -> { // delete bytes
                if (f.length == 0) {
                    return f;
                }
                int at = random.nextInt(f.length);
                int n = Math.min(f.length - at, 1 + random.nextInt(8));
                byte[] b = new byte[f.length - n];
                System.arraycopy(f, 0, b, 0, at);
                System.arraycopy(f, at + n, b, at, f.length - at - n);
                return b;
            }
            default -> { // splice: a prefix of this frame and a suffix of another
                byte[] other = valid(messages.next(), codec);
                int cut = random.nextInt(f.length + 1);
                int from = random.nextInt(other.length + 1);
                byte[] b = new byte[cut + other.length - from];
                System.arraycopy(f, 0, b, 0, cut);
                System.arraycopy(other, from, b, cut, other.length - from);
                return b;
            }
        }
    }

    private static byte[] valid(WireMessage message, MessageCodec codec) {
        ByteBuf out = Unpooled.buffer(codec.encodedSize(message));
        codec.encode(message, out);
        byte[] b = ByteBufUtil.getBytes(out);
        out.release();
        return b;
    }

    /**
     * Offsets of the length fields of a frame, found by walking it independently of the codec;
     * stops quietly where an earlier mutation made the frame unwalkable.
     */
    private static List<Integer> lengthFields(byte[] f) {
        List<Integer> fields = new ArrayList<>();
        if (f.length < MessageCodec.COMMON_HEADER_BYTES + 1) {
            return fields;
        }
        if (f[2] == MessageCodec.KIND_PROTOCOL) {
            if (f.length >= 12) {
                fields.add(8);
            }
            return fields;
        }
        if (f.length < 11) {
            return fields;
        }
        int off = 27 + ((f[10] & MessageCodec.FLAG_DESTINATION) != 0 ? 8 : 0) + ((f[10] & MessageCodec.FLAG_ROOT) != 0 ? 8 : 0);
        while (off + 5 <= f.length && f[off] != 0) {
            fields.add(off + 1);
            long next = (long) off + 5 + (readInt(f, off + 1) & 0xFFFF_FFFFL);
            if (next > f.length) {
                break;
            }
            off = (int) next;
        }
        return fields;
    }

    private static int readInt(byte[] b, int at) {
        return (b[at] & 0xFF) << 24 | (b[at + 1] & 0xFF) << 16 | (b[at + 2] & 0xFF) << 8 | (b[at + 3] & 0xFF);
    }

    private static void writeInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
