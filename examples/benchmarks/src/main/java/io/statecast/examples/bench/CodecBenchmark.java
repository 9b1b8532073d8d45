package io.statecast.examples.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.message.DecodeException;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.MessageCodec;
import io.statecast.overlay.message.OverlayId;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.message.WireMessage;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
 * Cost of the wire codec for the message a MessageStore service sends most: a multicast with an
 * FSM extension and a 1 KB payload. Encode writes into one pooled direct buffer that is cleared
 * and reused, as a substrate writing into its pooled outbound buffers would; decode reads one
 * pooled direct buffer holding the frame and copies the payload out (the decoded message shares
 * no memory with the buffer). Run with {@code bin/statecast bench Codec --prof gc} to see
 * allocation per operation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CodecBenchmark {

    /** Payload bytes of the benchmarked message. */
    public static final int PAYLOAD_BYTES = 1024;

    private MessageCodec codec;
    private OverlayMessage message;
    private ByteBuf out;
    private ByteBuf frame;

    /** Builds the message and the two pooled buffers once per fork. */
    @Setup(Level.Trial)
    public void setUp() {
        codec = new MessageCodec(OverlayId.wireHash("bench"), MessageCodec.DEFAULT_MAX_MESSAGE_BYTES);
        byte[] payload = new byte[PAYLOAD_BYTES];
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) random.nextInt();
        }
        message = new OverlayMessage(DeliveryMode.MULTICAST, 32, new DtAddress(1200, -340), null, new DtAddress(980, 75), null,
                List.of(new FsmExtension(17, FsmExtension.PAYLOAD_TYPE, 0x1234_5678_9ABCL), new PayloadExtension(payload)));
        int size = codec.encodedSize(message);
        out = PooledByteBufAllocator.DEFAULT.directBuffer(size);
        frame = PooledByteBufAllocator.DEFAULT.directBuffer(size);
        codec.encode(message, frame);
    }

    /** Returns the pooled buffers. */
    @TearDown(Level.Trial)
    public void tearDown() {
        out.release();
        frame.release();
    }

    /** One frame into the reused pooled buffer. */
    @Benchmark
    public ByteBuf encode() {
        out.clear();
        codec.encode(message, out);
        return out;
    }

    /** One frame out of the pooled buffer (decode consumes it, so the reader index is rewound). */
    @Benchmark
    public WireMessage decode() throws DecodeException {
        frame.readerIndex(0);
        return codec.decode(frame);
    }
}
