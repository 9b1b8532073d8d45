package io.statecast.overlay.substrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.statecast.overlay.address.AddressRepository;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.message.ProtocolMessage;
import io.statecast.overlay.security.FrameAuthenticator;
import io.statecast.overlay.security.KeyFileException;
import io.statecast.overlay.security.OverlayKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The adapter with a {@link FrameAuthenticator}: sealed frames are delivered, every unauthentic
 * one is dropped before decoding and counted by cause, whatever its bytes; on the in-memory
 * substrate with a virtual clock.
 */
class AdapterAuthTest {

    private static final int MAX = 1000;
    private final long seed = Seeds.seed();
    private final VirtualTimerService timers = new VirtualTimerService();
    private final MemNetwork network = new MemNetwork(timers, seed);
    private final List<String> received = new ArrayList<>();

    private final AdapterListener recorder = new AdapterListener() {
        @Override
        public void onProtocolMessage(ProtocolMessage message, SubstrateAddress from) {
            received.add("protocol " + message.type());
        }

        @Override
        public void onApplicationMessage(OverlayMessage message, SubstrateAddress from) {
            received.add("application " + new String(message.payload()));
        }
    };

    static OverlayKeys keys(int id, int fill) {
        byte[] secret = new byte[32];
        java.util.Arrays.fill(secret, (byte) fill);
        try {
            return OverlayKeys.parse(id + " " + Base64.getEncoder().encodeToString(secret), "test");
        } catch (KeyFileException e) {
            throw new AssertionError(e);
        }
    }

    private Adapter adapter(String name, FrameAuthenticator auth) throws IOException {
        Adapter a = new Adapter(new StandInCodec(MAX), timers, List.of(network.newInterface(name)),
                new AddressRepository(), AdapterConfig.defaults(), auth);
        a.start(recorder);
        return a;
    }

    private static OverlayMessage application(String payload) {
        return new OverlayMessage(DeliveryMode.UNICAST, 8, new TreeAddress(1), new TreeAddress(2), new TreeAddress(1),
                null, List.of(new PayloadExtension(payload.getBytes())));
    }

    private void settle() {
        assertTrue(timers.runUntilIdle(1_000_000));
        assertEquals(0, timers.taskFailures(), () -> "an exception escaped into the substrate thread: " + timers.lastFailure()
                + " (seed " + seed + ")");
    }

    @Test
    void shouldDeliverBetweenNodesWithTheKeyAndDropEverythingElseByCause() throws IOException {
        Adapter a = adapter("a", FrameAuthenticator.create(keys(1, 1)));
        Adapter b = adapter("b", FrameAuthenticator.create(keys(1, 1)));
        Adapter stranger = adapter("stranger", FrameAuthenticator.create(keys(2, 2)));
        Adapter sameIdOtherKey = adapter("impostor", FrameAuthenticator.create(keys(1, 9)));
        Adapter open = adapter("open", null);

        assertTrue(a.send(b.localAddresses().get(0), new ProtocolMessage(7, new byte[] {1})));
        assertTrue(a.send(b.localAddresses().get(0), application("x".repeat(600))));
        stranger.send(b.localAddresses().get(0), application("from a stranger"));
        sameIdOtherKey.send(b.localAddresses().get(0), new ProtocolMessage(7, new byte[] {1}));
        open.send(b.localAddresses().get(0), application("unsealed"));
        open.send(b.localAddresses().get(0), new ProtocolMessage(1, new byte[0]));
        b.send(open.localAddresses().get(0), application("open cannot read it"));
        settle();

        assertEquals(List.of("protocol 7", "application " + "x".repeat(600)), received);
        AdapterMetrics m = b.metrics();
        assertTrue(m.dropped(AdapterMetrics.ReceiveDrop.AUTH_UNKNOWN_KEY) >= 1, "the stranger's key id: " + m);
        assertTrue(m.dropped(AdapterMetrics.ReceiveDrop.AUTH_BAD_MAC) >= 1, "the impostor's MAC: " + m);
        assertEquals(4, m.receiveDropsTotal(), "stranger, impostor and two unsealed frames: " + m);
        assertEquals(1, open.metrics().receiveDropsTotal(), "the node without a key cannot decode keyed frames");
        assertEquals(0L, m.snapshot().get("rx.dropped.auth_replay"));
    }

    @Test
    void shouldDropReplayedFramesFromAnyPort() throws IOException {
        Adapter b = adapter("b", FrameAuthenticator.create(keys(1, 1)));
        FrameAuthenticator thief = FrameAuthenticator.create(keys(1, 1)); // stands for a captured frame's sender
        ByteBuf captured = sealedFrame(thief, application("once"));
        MemInterface replayer = network.newInterface("replayer");
        replayer.start((f, from) -> f.release());
        MemInterface other = network.newInterface("other-port");
        other.start((f, from) -> f.release());
        replayer.send(b.localAddresses().get(0), captured.retainedDuplicate());
        replayer.send(b.localAddresses().get(0), captured.retainedDuplicate());
        other.send(b.localAddresses().get(0), captured);
        settle();
        assertEquals(List.of("application once"), received);
        assertEquals(2, b.metrics().dropped(AdapterMetrics.ReceiveDrop.AUTH_REPLAY));
    }

    private static ByteBuf sealedFrame(FrameAuthenticator auth, OverlayMessage m) {
        StandInCodec codec = new StandInCodec(MAX);
        ByteBuf frame = Unpooled.buffer();
        codec.encode(m, frame);
        auth.seal(frame, false);
        return frame;
    }

    /** Seeded random frames, some random bytes, some genuine frames corrupted: none delivered, each counted once. */
    @Test
    void shouldCountEveryFuzzedFrameAndDeliverNone() throws IOException {
        Adapter b = adapter("b", FrameAuthenticator.create(keys(1, 1)));
        FrameAuthenticator forger = FrameAuthenticator.create(keys(1, 1));
        MemInterface evil = network.newInterface("evil");
        evil.start((f, from) -> f.release());
        SplittableRandom random = new SplittableRandom(seed);
        int sent = 0;
        for (int i = 0; i < 5_000; i++) {
            ByteBuf frame;
            if (random.nextBoolean()) {
                byte[] bytes = new byte[random.nextInt(0, MAX + 2 * FrameAuthenticator.TRAILER_BYTES)];
                random.nextBytes(bytes);
                frame = Unpooled.wrappedBuffer(bytes);
            } else {
                frame = sealedFrame(forger, application("p" + i));
                int at = random.nextInt(frame.readableBytes());
                frame.setByte(at, frame.getByte(at) ^ random.nextInt(1, 256));
            }
            if (evil.send(b.localAddresses().get(0), frame)) {
                sent++;
            }
            if (i % 100 == 0) {
                settle();
            }
        }
        settle();
        assertEquals(List.of(), received, "seed " + seed);
        assertEquals(sent, b.metrics().receiveDropsTotal(), b.metrics() + " (seed " + seed + ")");
        assertEquals(0, b.metrics().dropped(AdapterMetrics.ReceiveDrop.CODEC_FAILURE), "nothing unauthentic reached the codec");
    }
}
