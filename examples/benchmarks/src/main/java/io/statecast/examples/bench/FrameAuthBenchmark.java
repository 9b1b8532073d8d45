package io.statecast.examples.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.statecast.overlay.security.FrameAuthenticator;
import io.statecast.overlay.security.KeyFileException;
import io.statecast.overlay.security.OverlayKeys;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Cost of frame authentication ({@code overlay.security}) per 1 KB frame, next to
 * {@link CodecBenchmark}'s encode and decode of the same size: {@link #sealAndVerify} is what one
 * hop adds (the sender seals, the receiver verifies, checks the replay window and cuts the trailer
 * off), in pooled direct buffers as the adapter uses them. {@link #gmacSealAndVerify} measures the
 * alternative that was not chosen — AES-GMAC through the JDK's {@code AES/GCM/NoPadding} with an
 * empty plaintext — on the same bytes, so the choice can be re-checked on other hardware;
 * {@link #aeadSealAndVerify} is {@code mode: aead} (the frame encrypted as well).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FrameAuthBenchmark {

    /** Bytes of the authenticated frame (before the trailer). */
    public static final int FRAME_BYTES = 1024;

    private FrameAuthenticator sender;
    private FrameAuthenticator receiver;
    private FrameAuthenticator aeadSender;
    private FrameAuthenticator aeadReceiver;
    private ByteBuf frame;
    private byte[] body;
    private SecretKeySpec aesKey;
    private Cipher gcm;
    private byte[] iv;
    private long ivCounter;
    private ByteBuffer aad;
    private byte[] tag;

    /** Keys, the frame bytes and the buffer, once per fork. */
    @Setup(Level.Trial)
    public void setUp() throws KeyFileException, GeneralSecurityException {
        byte[] secret = new byte[32];
        new SplittableRandom(7).nextBytes(secret);
        OverlayKeys keys = OverlayKeys.parse("1 " + Base64.getEncoder().encodeToString(secret), "bench");
        sender = new FrameAuthenticator(keys, 1);
        receiver = new FrameAuthenticator(keys, 2);
        aeadSender = new FrameAuthenticator(keys, 3, true);
        aeadReceiver = new FrameAuthenticator(keys, 4, true);
        body = new byte[FRAME_BYTES];
        new SplittableRandom(42).nextBytes(body);
        frame = PooledByteBufAllocator.DEFAULT.directBuffer(FRAME_BYTES + FrameAuthenticator.TRAILER_BYTES);
        aesKey = new SecretKeySpec(secret, 0, 16, "AES");
        gcm = Cipher.getInstance("AES/GCM/NoPadding");
        iv = new byte[12];
        aad = ByteBuffer.allocateDirect(FRAME_BYTES + 1 + 1 + 8 + 8);
        tag = new byte[16];
    }

    /** Returns the buffer. */
    @TearDown(Level.Trial)
    public void tearDown() {
        frame.release();
    }

    /** Seal a 1 KB frame, then verify it as its receiver would. */
    @Benchmark
    public FrameAuthenticator.Verdict sealAndVerify() {
        frame.clear();
        frame.writeBytes(body);
        sender.seal(frame, true);
        return receiver.verify(frame);
    }

    /** {@code mode: aead}: encrypt a 1 KB frame (AES-256-GCM) and decrypt it as its receiver would. */
    @Benchmark
    public FrameAuthenticator.Verdict aeadSealAndVerify() {
        frame.clear();
        frame.writeBytes(body);
        aeadSender.seal(frame, true);
        return aeadReceiver.verify(frame);
    }

    /** The same with AES-GMAC: a fresh 96-bit IV per frame (GCM forbids reuse), tag over the same bytes. */
    @Benchmark
    public boolean gmacSealAndVerify() throws GeneralSecurityException {
        aad.clear();
        aad.put(body);
        aad.putLong(++ivCounter);
        aad.flip();
        ByteBuffer.wrap(iv, 4, 8).putLong(ivCounter);
        gcm.init(Cipher.ENCRYPT_MODE, aesKey, new GCMParameterSpec(128, iv));
        gcm.updateAAD(aad.duplicate());
        byte[] sealed = gcm.doFinal();
        gcm.init(Cipher.DECRYPT_MODE, aesKey, new GCMParameterSpec(128, iv));
        gcm.updateAAD(aad);
        System.arraycopy(sealed, 0, tag, 0, 16);
        return gcm.doFinal(tag).length == 0;
    }
}
