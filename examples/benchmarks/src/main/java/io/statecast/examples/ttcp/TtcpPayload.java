package io.statecast.examples.ttcp;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The payloads ttcp puts in overlay messages. Every payload starts with the magic {@code "TTCP"},
 * a kind byte and the run identifier, and ends with a CRC-32C of everything before it; all
 * integers big-endian.
 *
 * <pre>
 *   DATA   magic(4) kind=1 run(8) seq(4) count(4) sentMicros(8) filler… crc(4)   — exactly --size bytes
 *   HELLO  magic(4) kind=2 run(8)=0 crc(4)                                       — a receiver is ready
 *   DONE   magic(4) kind=3 run(8) received(4) missing(4) duplicates(4) crc(4)    — a receiver has finished
 *   FIN    magic(4) kind=4 run(8) count(4) crc(4)                                — the sender is leaving
 *   WARMUP as DATA with kind=5 and run=0                                        — traffic before the measured run
 *   WARMED magic(4) kind=6 run(8)=0 received(4) count(4) crc(4)                 — a receiver's warm-up so far
 * </pre>
 * A WARMUP payload decodes as a {@link Data} of run 0 ({@link Data#warmup()}): receivers take the
 * warm-up down the very code path of the measured run, so that what the JIT compiled for it is what
 * the run executes. A DATA payload of run 0, or a WARMUP payload of another run, is malformed.
 * The filler is a function of the sequence number, so a corrupted payload fails the CRC even
 * where only the filler changed.
 */
public final class TtcpPayload {

    /** {@code "TTCP"}. */
    static final int MAGIC = 0x5454_4350;
    /** Bytes of a DATA payload before the filler. */
    static final int DATA_HEADER = 4 + 1 + 8 + 4 + 4 + 8;
    /** The smallest DATA payload: header and CRC. */
    public static final int MIN_DATA_SIZE = DATA_HEADER + 4;
    /** The largest DATA payload ttcp makes (fits a UDP datagram with the overlay header). */
    public static final int MAX_DATA_SIZE = 60_000;

    private static final byte DATA = 1;
    private static final byte HELLO = 2;
    private static final byte DONE = 3;
    private static final byte FIN = 4;
    private static final byte WARMUP = 5;
    private static final byte WARMED = 6;

    private TtcpPayload() {
    }

    /** A decoded ttcp payload. */
    public sealed interface Message permits Data, Hello, Done, Fin, Warmed {
    }

    /** The run identifier of the warm-up; a measured run never has it. */
    public static final long WARMUP_RUN = 0;

    /**
     * A data message, of the measured run or of the warm-up before it.
     *
     * @param run        the sender's run identifier; {@link #WARMUP_RUN} in the warm-up
     * @param seq        sequence number, 0..count-1
     * @param count      how many data messages the run has
     * @param sentMicros the sender's wall clock when it sent the message, microseconds since the epoch
     * @param size       payload bytes
     */
    public record Data(long run, int seq, int count, long sentMicros, int size) implements Message {

        /** Whether this message belongs to the warm-up before the measured run. */
        public boolean warmup() {
            return run == WARMUP_RUN;
        }

        /** Whether this is the last message of its run (or warm-up). */
        public boolean last() {
            return seq == count - 1;
        }
    }

    /** A receiver announcing that it has joined and waits for data. */
    public record Hello() implements Message {
    }

    /**
     * A receiver announcing that it has finished.
     *
     * @param run        the run it received
     * @param received   distinct data messages it received
     * @param missing    data messages it did not receive
     * @param duplicates copies beyond the first
     */
    public record Done(long run, int received, int missing, int duplicates) implements Message {
    }

    /**
     * A receiver's progress through the warm-up, announced in place of HELLO once warm-up
     * messages arrive: the sender starts the measured run only when every receiver has the whole
     * warm-up (or a deadline passed), so that no recovery of the warm-up runs into the run.
     *
     * @param received distinct warm-up messages the receiver has
     * @param count    warm-up messages the sender announced
     */
    public record Warmed(int received, int count) implements Message {

        /** Whether the receiver has every warm-up message. */
        public boolean complete() {
            return received == count;
        }
    }

    /**
     * The sender leaving: receivers may stop.
     *
     * @param run   the run
     * @param count data messages the run had
     */
    public record Fin(long run, int count) implements Message {
    }

    /**
     * Encodes a DATA payload of exactly {@code size} bytes.
     *
     * @throws IllegalArgumentException if {@code size} is outside {@link #MIN_DATA_SIZE}..{@link #MAX_DATA_SIZE}
     */
    public static byte[] data(long run, int seq, int count, long sentMicros, int size) {
        if (run == WARMUP_RUN) {
            throw new IllegalArgumentException("run " + WARMUP_RUN + " is the warm-up's");
        }
        return dataLike(DATA, run, seq, count, sentMicros, size);
    }

    /** Encodes a WARMUP payload of exactly {@code size} bytes (the DATA layout, kind 5, run 0). */
    public static byte[] warmup(int seq, int count, long sentMicros, int size) {
        return dataLike(WARMUP, WARMUP_RUN, seq, count, sentMicros, size);
    }

    /**
     * Encodes a DATA payload, or a WARMUP one if {@code run} is {@link #WARMUP_RUN}, without a
     * branch between the two: a sender's one send path serves both, and the JIT sees no path the
     * warm-up left untaken when the run starts.
     */
    static byte[] dataOrWarmup(long run, int seq, int count, long sentMicros, int size) {
        return dataLike(dataKind(run), run, seq, count, sentMicros, size);
    }

    /** WARMUP for run 0, DATA for any other, computed rather than branched on. */
    private static byte dataKind(long run) {
        return (byte) (WARMUP - (WARMUP - DATA) * measured(run));
    }

    /**
     * 0 for the warm-up's run, 1 for any other, computed rather than branched on: the warm-up
     * never takes a branch the run's messages would, so the JIT leaves no trap for them.
     */
    static int measured(long run) {
        // (run | -run) >>> 63 is 1 exactly when run != 0
        return (int) ((run | -run) >>> 63);
    }

    private static String kindName(byte kind) {
        return kind == WARMUP ? "WARMUP" : "DATA";
    }

    private static byte[] dataLike(byte kind, long run, int seq, int count, long sentMicros, int size) {
        if (size < MIN_DATA_SIZE || size > MAX_DATA_SIZE) {
            throw new IllegalArgumentException("size=" + size + " must be within " + MIN_DATA_SIZE + ".." + MAX_DATA_SIZE);
        }
        byte[] b = new byte[size];
        ByteBuffer buf = ByteBuffer.wrap(b);
        buf.putInt(MAGIC).put(kind).putLong(run).putInt(seq).putInt(count).putLong(sentMicros);
        // eight bytes at a time: byte by byte, the filler took half the sending thread's CPU at
        // 55,000 msgs/s, a core shared with the node it measures
        long fill = (seq + 1L) * 0x9E37_79B9_7F4A_7C15L;
        int end = size - 4;
        int i = DATA_HEADER;
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            buf.putLong(i, fill ^ i);
        }
        for (; i < end; i++) {
            b[i] = (byte) (fill >>> ((i & 7) << 3) ^ i);
        }
        return seal(b);
    }

    /** Encodes a HELLO payload. */
    public static byte[] hello() {
        ByteBuffer buf = ByteBuffer.allocate(4 + 1 + 8 + 4);
        buf.putInt(MAGIC).put(HELLO).putLong(0);
        return seal(buf.array());
    }

    /** Encodes a DONE payload. */
    public static byte[] done(long run, int received, int missing, int duplicates) {
        ByteBuffer buf = ByteBuffer.allocate(4 + 1 + 8 + 12 + 4);
        buf.putInt(MAGIC).put(DONE).putLong(run).putInt(received).putInt(missing).putInt(duplicates);
        return seal(buf.array());
    }

    /** Encodes a WARMED payload ({@code 0 <= received <= count}, {@code count >= 1}). */
    public static byte[] warmed(int received, int count) {
        if (count < 1 || received < 0 || received > count) {
            throw new IllegalArgumentException("received=" + received + " count=" + count + ": need 0 <= received <= count, count >= 1");
        }
        ByteBuffer buf = ByteBuffer.allocate(4 + 1 + 8 + 8 + 4);
        buf.putInt(MAGIC).put(WARMED).putLong(WARMUP_RUN).putInt(received).putInt(count);
        return seal(buf.array());
    }

    /** Encodes a FIN payload. */
    public static byte[] fin(long run, int count) {
        ByteBuffer buf = ByteBuffer.allocate(4 + 1 + 8 + 4 + 4);
        buf.putInt(MAGIC).put(FIN).putLong(run).putInt(count);
        return seal(buf.array());
    }

    private static byte[] seal(byte[] b) {
        CRC32C crc = new CRC32C();
        crc.update(b, 0, b.length - 4);
        ByteBuffer.wrap(b).putInt(b.length - 4, (int) crc.getValue());
        return b;
    }

    /**
     * Decodes a payload.
     *
     * @throws TtcpFormatException if it is not a ttcp payload, is truncated, fails its CRC, or has
     *                             fields out of range
     */
    public static Message decode(byte[] b) throws TtcpFormatException {
        if (b == null || b.length < 4 + 1 + 8 + 4) {
            throw new TtcpFormatException("payload of " + (b == null ? 0 : b.length) + " bytes is too short for ttcp");
        }
        ByteBuffer buf = ByteBuffer.wrap(b);
        if (buf.getInt() != MAGIC) {
            throw new TtcpFormatException("not a ttcp payload (no TTCP magic)");
        }
        CRC32C crc = new CRC32C();
        crc.update(b, 0, b.length - 4);
        if ((int) crc.getValue() != buf.getInt(b.length - 4)) {
            throw new TtcpFormatException("ttcp payload of " + b.length + " bytes fails its CRC-32C");
        }
        byte kind = buf.get();
        long run = buf.getLong();
        if (kind == dataKind(run) && b.length >= MIN_DATA_SIZE) {
            // DATA and WARMUP share this path and every branch on it (see dataOrWarmup)
            int seq = buf.getInt();
            int count = buf.getInt();
            long sent = buf.getLong();
            if (count < 1 || seq < 0 || seq >= count) {
                throw new TtcpFormatException(kindName(kind) + " seq=" + seq + " count=" + count + ": need 0 <= seq < count");
            }
            return new Data(run, seq, count, sent, b.length);
        }
        return control(b, buf, kind, run);
    }

    /**
     * Decodes anything but a well-formed DATA or WARMUP payload, in a method of its own: a
     * receiver's per-message path sees control payloads a few times a second, and a kind it first
     * meets in the measured run (DONE, FIN) must not send that path back to the interpreter.
     */
    private static Message control(byte[] b, ByteBuffer buf, byte kind, long run) throws TtcpFormatException {
        switch (kind) {
            case DATA, WARMUP -> {
                need(b, MIN_DATA_SIZE, kindName(kind));
                throw new TtcpFormatException(kindName(kind) + " of run " + Long.toHexString(run)
                        + ": the warm-up, and only the warm-up, has run 0");
            }
            case HELLO -> {
                return new Hello();
            }
            case DONE -> {
                need(b, 4 + 1 + 8 + 12 + 4, "DONE");
                return new Done(run, buf.getInt(), buf.getInt(), buf.getInt());
            }
            case FIN -> {
                need(b, 4 + 1 + 8 + 4 + 4, "FIN");
                return new Fin(run, buf.getInt());
            }
            case WARMED -> {
                need(b, 4 + 1 + 8 + 8 + 4, "WARMED");
                int received = buf.getInt();
                int count = buf.getInt();
                if (run != WARMUP_RUN || count < 1 || received < 0 || received > count) {
                    throw new TtcpFormatException("WARMED run=" + Long.toHexString(run) + " received=" + received + " count="
                            + count + ": need run 0 and 0 <= received <= count, count >= 1");
                }
                return new Warmed(received, count);
            }
            default -> throw new TtcpFormatException("unknown ttcp payload kind " + kind);
        }
    }

    private static void need(byte[] b, int n, String kind) throws TtcpFormatException {
        if (b.length < n) {
            throw new TtcpFormatException(kind + " payload of " + b.length + " bytes, need " + n);
        }
    }
}
