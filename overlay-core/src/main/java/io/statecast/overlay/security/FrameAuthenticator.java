package io.statecast.overlay.security;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Mac;

/**
 * Seals outgoing frames with a MAC trailer and verifies incoming ones: integrity, authenticity
 * (only holders of an overlay key can produce a frame that verifies) and freshness (a replayed
 * frame is refused). One per node; the adapter seals every frame it sends and verifies every frame
 * it receives before decoding it.
 *
 * <p><b>Trailer</b> ({@value #TRAILER_BYTES} bytes, appended to the frame, integers big-endian):
 * <pre>
 * +----------------+-------+-------+---------+-----------+-------------+
 * | frame (as the  | keyId | flags |  epoch  |  counter  |     MAC     |
 * | codec wrote it)|  1 B  |  1 B  |   8 B   |    8 B    |    16 B     |
 * +----------------+-------+-------+---------+-----------+-------------+
 * |&lt;------------------ authenticated by the MAC ------------&gt;|
 * </pre>
 * {@code keyId} names the key of the file ({@link OverlayKeys}); {@code flags} bit 0 says which of
 * the sender's two counter streams the frame belongs to (0: control-sized frames, 1: bulk), the
 * other bits are 0; {@code epoch} is drawn at random when the sender starts; {@code counter}
 * counts the sender's frames of that stream from 0; the MAC is HMAC-SHA256 over everything before
 * it, truncated to 16 bytes. Control frames and bulk frames count separately because the UDP
 * interface lets control frames overtake queued bulk frames: in one stream, a control frame could
 * push the window past hundreds of bulk frames still waiting, which would then look like replays.
 *
 * <p><b>Replay window.</b> Per sender (epoch) and stream, a {@value ReplayWindow#SIZE}-counter
 * sliding window ({@link ReplayWindow}). A sender that restarts draws a new epoch and starts a new
 * window. Windows of the {@value #MAX_SENDERS} senders heard from most recently are kept.
 *
 * <p><b>Threads.</b> {@link #seal} and {@link #verify} may be called from any thread; each thread
 * keeps its own {@link Mac} per key. {@link #setKeys} takes effect for frames sealed or verified
 * after it returns.
 */
public final class FrameAuthenticator {

    /** Bytes the trailer adds to each frame. */
    public static final int TRAILER_BYTES = 1 + 1 + 8 + 8 + 16;
    /** Bytes of the truncated MAC. */
    public static final int MAC_BYTES = 16;
    /** Senders whose replay windows are kept; the least recently heard one is forgotten first. */
    public static final int MAX_SENDERS = 4096;
    /** The {@code flags} bit of a bulk frame. */
    static final int FLAG_BULK = 1;

    /** Why {@link #verify} refused a frame, or {@link #OK}. */
    public enum Verdict {
        /** Authentic and fresh; the trailer has been cut off. */
        OK,
        /** Shorter than a trailer plus one byte. */
        TRUNCATED,
        /** Sealed with a key id the key file does not hold. */
        UNKNOWN_KEY,
        /** The MAC does not match (forged or corrupted), or flags this version does not know. */
        BAD_MAC,
        /** Authentic, but its counter was seen already or is too far behind the window. */
        REPLAY
    }

    private volatile OverlayKeys keys;
    private final long epoch;
    private final java.util.concurrent.atomic.AtomicLong[] counters = {
            new java.util.concurrent.atomic.AtomicLong(), new java.util.concurrent.atomic.AtomicLong()};
    private final FastThreadLocal<MacCache> macs = new FastThreadLocal<>() {
        @Override
        protected MacCache initialValue() {
            return new MacCache();
        }
    };
    private final Map<Long, ReplayWindow[]> windows = new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, ReplayWindow[]> eldest) {
            return size() > MAX_SENDERS;
        }
    };

    /**
     * @param keys  the keys to seal with and accept
     * @param epoch this sender's epoch: random, new at every start (see {@link #create})
     */
    public FrameAuthenticator(OverlayKeys keys, long epoch) {
        this.keys = Objects.requireNonNull(keys, "keys");
        this.epoch = epoch;
    }

    /** An authenticator with a fresh random epoch. */
    public static FrameAuthenticator create(OverlayKeys keys) {
        return new FrameAuthenticator(keys, new SecureRandom().nextLong());
    }

    /** This sender's epoch. */
    public long epoch() {
        return epoch;
    }

    /** The keys in use. */
    public OverlayKeys keys() {
        return keys;
    }

    /** Replaces the keys (a rotation): later frames are sealed with the new sending key. */
    public void setKeys(OverlayKeys newKeys) {
        this.keys = Objects.requireNonNull(newKeys, "keys");
    }

    /**
     * Appends the trailer to the readable bytes of {@code frame}.
     *
     * @param frame the encoded frame; needs {@value #TRAILER_BYTES} writable bytes
     * @param bulk  whether the frame counts in the bulk stream (what the receiving interface may
     *              let control frames overtake)
     */
    public void seal(ByteBuf frame, boolean bulk) {
        OverlayKey key = keys.sending();
        int flags = bulk ? FLAG_BULK : 0;
        long counter = counters[flags].getAndIncrement();
        frame.writeByte(key.id());
        frame.writeByte(flags);
        frame.writeLong(epoch);
        frame.writeLong(counter);
        Mac mac = macs.get().mac(key);
        int start = frame.readerIndex();
        mac.update(frame.nioBuffer(start, frame.writerIndex() - start));
        byte[] tag = mac.doFinal();
        frame.writeBytes(tag, 0, MAC_BYTES);
    }

    /**
     * Verifies {@code frame} (its readable bytes) and, if it is authentic and fresh, cuts the
     * trailer off (lowers the writer index) so that what remains is the frame as its sender's
     * codec wrote it. Reads nothing of the frame but the trailer before the MAC has been checked.
     * Never throws on any content.
     */
    public Verdict verify(ByteBuf frame) {
        int start = frame.readerIndex();
        int length = frame.readableBytes();
        if (length <= TRAILER_BYTES) {
            return Verdict.TRUNCATED;
        }
        int trailer = start + length - TRAILER_BYTES;
        OverlayKey key = keys.byId(frame.getUnsignedByte(trailer));
        if (key == null) {
            return Verdict.UNKNOWN_KEY;
        }
        int tagAt = trailer + TRAILER_BYTES - MAC_BYTES;
        Mac mac = macs.get().mac(key);
        mac.update(frame.nioBuffer(start, tagAt - start));
        byte[] expected = mac.doFinal();
        int diff = 0;
        for (int i = 0; i < MAC_BYTES; i++) {
            diff |= expected[i] ^ frame.getByte(tagAt + i);
        }
        if (diff != 0) {
            return Verdict.BAD_MAC;
        }
        int flags = frame.getUnsignedByte(trailer + 1);
        if ((flags & ~FLAG_BULK) != 0) {
            return Verdict.BAD_MAC; // a later version's frame: not one this node can vouch for
        }
        long senderEpoch = frame.getLong(trailer + 2);
        long counter = frame.getLong(trailer + 10);
        if (!fresh(senderEpoch, flags, counter)) {
            return Verdict.REPLAY;
        }
        frame.writerIndex(trailer);
        return Verdict.OK;
    }

    private boolean fresh(long senderEpoch, int stream, long counter) {
        synchronized (windows) {
            ReplayWindow[] w = windows.get(senderEpoch);
            if (w == null) {
                w = new ReplayWindow[] {new ReplayWindow(), new ReplayWindow()};
                windows.put(senderEpoch, w);
            }
            return w[stream].accept(counter);
        }
    }

    @Override
    public String toString() {
        return "FrameAuthenticator[epoch=" + Long.toHexString(epoch) + ", " + keys + "]";
    }

    /** One thread's MAC instances, for the (at most two) keys in use; replaced when keys rotate. */
    private static final class MacCache {
        private final OverlayKey[] keys = new OverlayKey[OverlayKeys.MAX_KEYS];
        private final Mac[] macs = new Mac[OverlayKeys.MAX_KEYS];
        private int next;

        Mac mac(OverlayKey key) {
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] == key) {
                    return macs[i];
                }
            }
            int slot = next;
            next = (next + 1) % keys.length;
            keys[slot] = key;
            macs[slot] = key.newMac();
            return macs[slot];
        }
    }
}
