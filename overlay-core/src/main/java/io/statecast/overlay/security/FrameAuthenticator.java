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
 * <p><b>Encryption</b> ({@code mode: aead}, {@link #FrameAuthenticator(OverlayKeys, long, boolean)}):
 * the same trailer, flags bit 1 set, the frame after its first {@value #CLEAR_PREFIX_BYTES} bytes
 * encrypted with AES-256-GCM, and the GCM tag (over the clear prefix and the trailer's fields as
 * associated data) in the MAC's place.
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
    /** The {@code flags} bit of an encrypted frame ({@code mode: aead}). */
    static final int FLAG_ENCRYPTED = 2;
    /**
     * Leading bytes an encrypted frame leaves in clear (authenticated, not encrypted): the codec's
     * common header (magic, version, kind, overlay hash), which the receiving interface reads to
     * rank control frames ahead of bulk ones before anything is verified.
     */
    public static final int CLEAR_PREFIX_BYTES = 7;
    /** The trailer's fields before the tag: key id, flags, epoch, counter. */
    private static final int FIELDS_BYTES = TRAILER_BYTES - MAC_BYTES;

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
    /** Whether frames are encrypted (AES-GCM) rather than only authenticated (HMAC). */
    private final boolean encrypt;
    private final java.util.concurrent.atomic.AtomicLong[] counters = {
            new java.util.concurrent.atomic.AtomicLong(), new java.util.concurrent.atomic.AtomicLong()};
    private final FastThreadLocal<MacCache> macs = new FastThreadLocal<>() {
        @Override
        protected MacCache initialValue() {
            return new MacCache();
        }
    };
    private final FastThreadLocal<Gcm> ciphers = new FastThreadLocal<>() {
        @Override
        protected Gcm initialValue() {
            return new Gcm();
        }
    };
    private final Map<Long, ReplayWindow[]> windows = new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, ReplayWindow[]> eldest) {
            boolean forget = size() > MAX_SENDERS;
            if (forget && eldest.getValue() == lastWindows) {
                lastWindows = null; // forgotten: the one-entry cache must forget it too
            }
            return forget;
        }
    };
    /** The sender whose windows {@link #fresh} used last, guarded by {@link #windows}. */
    private long lastEpoch;
    private ReplayWindow[] lastWindows;

    /**
     * @param keys  the keys to seal with and accept
     * @param epoch this sender's epoch: random, new at every start (see {@link #create})
     */
    public FrameAuthenticator(OverlayKeys keys, long epoch) {
        this(keys, epoch, false);
    }

    /**
     * @param keys    the keys to seal with and accept
     * @param epoch   this sender's epoch: random, new at every start (see {@link #create})
     * @param encrypt true to encrypt frames too ({@code mode: aead}): AES-256-GCM of everything
     *                after the first {@value #CLEAR_PREFIX_BYTES} bytes, the GCM tag in the MAC's
     *                place; such an authenticator accepts only encrypted frames, and one that
     *                does not encrypt only unencrypted ones
     */
    public FrameAuthenticator(OverlayKeys keys, long epoch, boolean encrypt) {
        this.keys = Objects.requireNonNull(keys, "keys");
        this.epoch = epoch;
        this.encrypt = encrypt;
    }

    /** An authenticator (MAC only) with a fresh random epoch. */
    public static FrameAuthenticator create(OverlayKeys keys) {
        return create(keys, false);
    }

    /** An authenticator with a fresh random epoch; {@code encrypt} as in the constructor. */
    public static FrameAuthenticator create(OverlayKeys keys, boolean encrypt) {
        return new FrameAuthenticator(keys, new SecureRandom().nextLong(), encrypt);
    }

    /** Whether frames are encrypted as well as authenticated. */
    public boolean encrypts() {
        return encrypt;
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
        int stream = bulk ? FLAG_BULK : 0;
        long counter = counters[stream].getAndIncrement();
        if (encrypt) {
            ciphers.get().seal(frame, key, stream | FLAG_ENCRYPTED, epoch, counter);
            return;
        }
        int flags = stream;
        frame.writeByte(key.id());
        frame.writeByte(flags);
        frame.writeLong(epoch);
        frame.writeLong(counter);
        MacCache cache = macs.get();
        byte[] tag = cache.tag(key, frame, frame.readerIndex(), frame.writerIndex());
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
        int flags = frame.getUnsignedByte(trailer + 1);
        if (encrypt) {
            if ((flags & ~FLAG_BULK) != FLAG_ENCRYPTED) {
                return Verdict.BAD_MAC; // in clear, or a later version's frame: an encrypted overlay takes neither
            }
            Gcm gcm = ciphers.get();
            if (!gcm.open(frame, key, trailer)) {
                return Verdict.BAD_MAC;
            }
            if (!fresh(frame.getLong(trailer + 2), flags & FLAG_BULK, frame.getLong(trailer + 10))) {
                return Verdict.REPLAY;
            }
            gcm.writePlaintext(frame);
            frame.writerIndex(trailer);
            return Verdict.OK;
        }
        byte[] expected = macs.get().tag(key, frame, start, tagAt);
        int diff = 0;
        for (int i = 0; i < MAC_BYTES; i++) {
            diff |= expected[i] ^ frame.getByte(tagAt + i);
        }
        if (diff != 0) {
            return Verdict.BAD_MAC;
        }
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
            ReplayWindow[] w;
            if (lastWindows != null && lastEpoch == senderEpoch) {
                w = lastWindows; // frames come in runs from one sender: no boxing, no map walk
            } else {
                w = windows.get(senderEpoch);
                if (w == null) {
                    w = new ReplayWindow[] {new ReplayWindow(), new ReplayWindow()};
                    windows.put(senderEpoch, w);
                }
                lastEpoch = senderEpoch;
                lastWindows = w;
            }
            return w[stream].accept(counter);
        }
    }

    @Override
    public String toString() {
        return "FrameAuthenticator[epoch=" + Long.toHexString(epoch) + ", " + keys + "]";
    }

    /**
     * One thread's AES-GCM cipher and scratch space for {@code mode: aead}. The frame's bytes after
     * the clear prefix are encrypted in the scratch array (GCM writes ciphertext and tag in one
     * piece, while the trailer puts its fields between them) and copied back. The IV is the
     * sender's epoch and its stream-tagged counter (16 bytes), unique per key for as long as
     * epochs do not collide (64 random bits).
     */
    private static final class Gcm {
        private final javax.crypto.Cipher cipher;
        private final byte[] aad = new byte[CLEAR_PREFIX_BYTES + FIELDS_BYTES];
        private final byte[] iv = new byte[16];
        private byte[] scratch = new byte[2048];
        /** Where the plaintext {@link #open} produced goes back, and its length. */
        private int plainAt;
        private int plainLength;

        Gcm() {
            try {
                cipher = javax.crypto.Cipher.getInstance(OverlayKey.AEAD_ALGORITHM);
            } catch (java.security.GeneralSecurityException e) {
                throw new IllegalStateException("the JDK lacks " + OverlayKey.AEAD_ALGORITHM, e);
            }
        }

        private byte[] scratch(int bytes) {
            if (scratch.length < bytes) {
                scratch = new byte[Math.max(bytes, 2 * scratch.length)];
            }
            return scratch;
        }

        /** Sets up {@link #iv} and {@link #aad} from a trailer's fields at {@code fields}; returns the AAD length. */
        private int prepare(ByteBuf frame, int clearAt, int clear, int fields) {
            frame.getBytes(fields + 2, iv, 0, 16); // epoch, counter
            iv[8] ^= (byte) ((frame.getUnsignedByte(fields + 1) & FLAG_BULK) << 7); // the stream in the counter's top bit
            frame.getBytes(clearAt, aad, 0, clear);
            frame.getBytes(fields, aad, clear, FIELDS_BYTES);
            return clear + FIELDS_BYTES;
        }

        void seal(ByteBuf frame, OverlayKey key, int flags, long epoch, long counter) {
            int start = frame.readerIndex();
            int end = frame.writerIndex();
            int clear = Math.min(CLEAR_PREFIX_BYTES, end - start);
            int plain = end - start - clear;
            byte[] buf = scratch(plain + MAC_BYTES);
            frame.getBytes(start + clear, buf, 0, plain);
            frame.writeByte(key.id());
            frame.writeByte(flags);
            frame.writeLong(epoch);
            frame.writeLong(counter);
            int aadLength = prepare(frame, start, clear, end);
            try {
                cipher.init(javax.crypto.Cipher.ENCRYPT_MODE, key.aeadKey(), new javax.crypto.spec.GCMParameterSpec(128, iv));
                cipher.updateAAD(aad, 0, aadLength);
                int n = cipher.doFinal(buf, 0, plain, buf, 0);
                if (n != plain + MAC_BYTES) {
                    throw new IllegalStateException("GCM wrote " + n + " bytes, expected " + (plain + MAC_BYTES));
                }
            } catch (java.security.GeneralSecurityException e) {
                throw new IllegalStateException("AES-GCM failed to seal", e);
            }
            frame.setBytes(start + clear, buf, 0, plain);
            frame.writeBytes(buf, plain, MAC_BYTES);
        }

        /** Decrypts into the scratch array; false if the tag does not verify. */
        boolean open(ByteBuf frame, OverlayKey key, int trailer) {
            int start = frame.readerIndex();
            int clear = Math.min(CLEAR_PREFIX_BYTES, trailer - start);
            int cipherLength = trailer - start - clear;
            byte[] buf = scratch(cipherLength + MAC_BYTES);
            frame.getBytes(start + clear, buf, 0, cipherLength);
            frame.getBytes(trailer + FIELDS_BYTES, buf, cipherLength, MAC_BYTES);
            int aadLength = prepare(frame, start, clear, trailer);
            try {
                cipher.init(javax.crypto.Cipher.DECRYPT_MODE, key.aeadKey(), new javax.crypto.spec.GCMParameterSpec(128, iv));
                cipher.updateAAD(aad, 0, aadLength);
                plainLength = cipher.doFinal(buf, 0, cipherLength + MAC_BYTES, buf, 0);
            } catch (javax.crypto.AEADBadTagException e) {
                return false;
            } catch (java.security.GeneralSecurityException e) {
                throw new IllegalStateException("AES-GCM failed to open", e);
            }
            plainAt = start + clear;
            return true;
        }

        /** Puts the plaintext of the last successful {@link #open} into the frame, over the ciphertext. */
        void writePlaintext(ByteBuf frame) {
            frame.setBytes(plainAt, scratch, 0, plainLength);
        }
    }

    /**
     * One thread's MAC instances, for the (at most two) keys in use (replaced when keys rotate), and
     * the buffer each tag is computed into: a MAC costs no allocation per frame.
     */
    private static final class MacCache {
        private final OverlayKey[] keys = new OverlayKey[OverlayKeys.MAX_KEYS];
        private final Mac[] macs = new Mac[OverlayKeys.MAX_KEYS];
        private final byte[] tag = new byte[32];
        private int next;

        /** HMAC of {@code frame}'s bytes {@code [from, to)} under {@code key}, in a buffer reused by the next call. */
        byte[] tag(OverlayKey key, ByteBuf frame, int from, int to) {
            Mac mac = mac(key);
            int length = to - from;
            if (frame.hasArray()) {
                mac.update(frame.array(), frame.arrayOffset() + from, length);
            } else if (frame.nioBufferCount() == 1) {
                mac.update(frame.internalNioBuffer(from, length));
            } else {
                mac.update(frame.nioBuffer(from, length));
            }
            try {
                mac.doFinal(tag, 0);
            } catch (javax.crypto.ShortBufferException e) {
                throw new IllegalStateException("HMAC-SHA256 wrote more than 32 bytes", e);
            }
            return tag;
        }

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
