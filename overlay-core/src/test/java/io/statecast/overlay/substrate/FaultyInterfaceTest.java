package io.statecast.overlay.substrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.testkit.Await;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FaultyInterfaceTest {

    private final long seed = Seeds.seed();
    private final SplittableRandom random = new SplittableRandom(seed);
    private final VirtualTimerService clock = new VirtualTimerService();
    private final MemNetwork network = new MemNetwork(clock, seed);

    private static FrameReceiver counting(ExchangeCounter c) {
        return (frame, from) -> {
            c.record(TestFrames.check(frame));
            frame.release();
        };
    }

    @Test
    void inputLossShouldDropItsShareAndDeliverExactlyWhatTheModelPassed() throws IOException {
        FaultModel input = new FaultModel(seed, FaultConfig.loss(0.2));
        ExchangeCounter got = new ExchangeCounter();
        MemInterface a = network.newInterface("a");
        a.start((f, from) -> f.release());
        FaultyInterface b = FaultyInterface.atInput(network.newInterface("b"), clock, input);
        b.start(counting(got));

        for (int i = 0; i < 20_000; i++) {
            a.send(b.localAddress(), TestFrames.frame(i, 24, random));
        }
        clock.runUntilIdle(1_000_000);
        FaultStats s = input.stats();

        assertEquals(20_000, s.seen());
        assertEquals(s.delivered(), got.received());
        assertTrue(Math.abs(s.lossRate() - 0.2) <= 0.01, "loss " + s.lossRate() + ", seed " + seed);
        assertEquals(20_000, b.metrics().framesReceived(), "the inner interface saw every frame");
    }

    @Test
    void outputFaultsShouldDuplicateAndDelayOnTheVirtualClock() throws IOException {
        FaultModel output = new FaultModel(seed, FaultConfig.NONE.withDuplication(1.0).withDelay(Duration.ofMillis(5), Duration.ZERO));
        ExchangeCounter got = new ExchangeCounter();
        FaultyInterface a = new FaultyInterface(network.newInterface("a"), clock, null, output);
        a.start((f, from) -> f.release());
        MemInterface b = network.newInterface("b");
        b.start(counting(got));

        for (int i = 0; i < 10; i++) {
            assertTrue(a.send(b.localAddress(), TestFrames.frame(i, 24, random)));
        }
        clock.advanceBy(4, TimeUnit.MILLISECONDS);
        assertEquals(0, got.received());
        clock.advanceBy(1, TimeUnit.MILLISECONDS);

        assertEquals(20, got.received());
        assertEquals(10, got.duplicates());
        assertEquals(10, output.stats().duplicated());
    }

    @Test
    void blackholingOneSenderAtTheInputShouldSpareTheOthers() throws IOException {
        FaultModel input = new FaultModel(seed);
        ExchangeCounter got = new ExchangeCounter();
        MemInterface a = network.newInterface("a");
        MemInterface c = network.newInterface("c");
        a.start((f, from) -> f.release());
        c.start((f, from) -> f.release());
        FaultyInterface b = FaultyInterface.atInput(network.newInterface("b"), clock, input);
        b.start(counting(got));

        input.blackholeNode(a.localAddress());
        a.send(b.localAddress(), TestFrames.frame(1, 24, random));
        c.send(b.localAddress(), TestFrames.frame(2, 24, random));
        clock.runUntilIdle(100);
        assertEquals(1, got.received());
        input.liftNode(a.localAddress());
        a.send(b.localAddress(), TestFrames.frame(3, 24, random));
        clock.runUntilIdle(100);

        assertEquals(2, got.received());
        assertEquals(1, input.stats().blackholed());
    }

    @Test
    void framesStillDelayedAtCloseShouldBeReleasedNotDelivered() throws IOException {
        FaultModel input = new FaultModel(seed, FaultConfig.NONE.withDelay(Duration.ofSeconds(1), Duration.ZERO));
        ExchangeCounter got = new ExchangeCounter();
        MemInterface a = network.newInterface("a");
        a.start((f, from) -> f.release());
        FaultyInterface b = FaultyInterface.atInput(network.newInterface("b"), clock, input);
        b.start(counting(got));
        List<ByteBuf> sent = new ArrayList<>();

        for (int i = 0; i < 5; i++) {
            ByteBuf f = TestFrames.frame(i, 24, random);
            sent.add(f);
            a.send(b.localAddress(), f);
        }
        clock.advanceBy(10, TimeUnit.MILLISECONDS); // arrived at b's input, held for 1 s
        b.close();
        clock.runUntilIdle(100);

        assertEquals(0, got.received());
        for (ByteBuf f : sent) {
            assertEquals(0, f.refCnt());
        }
    }

    @Test
    void inputLossShouldWorkOverRealUdp() throws IOException {
        FaultModel input = new FaultModel(seed, FaultConfig.loss(0.25));
        ExchangeCounter got = new ExchangeCounter();
        try (RealTimerService timers = new RealTimerService();
                UdpInterface a = new UdpInterface(UdpConfig.defaults());
                FaultyInterface b = FaultyInterface.atInput(new UdpInterface(UdpConfig.defaults()), timers, input)) {
            a.start((f, from) -> f.release());
            b.start(counting(got));
            SubstrateAddress to = b.localAddress();
            int frames = 20_000;

            for (int i = 0; i < frames; i++) {
                long seq = i;
                // pace on what the model has seen (lost frames count as seen, unlike received ones)
                if (i - input.stats().seen() > 256) {
                    Await.until(() -> seq - input.stats().seen() <= 256, Duration.ofMillis(200));
                }
                a.send(to, TestFrames.frame(i, 64, random));
            }
            Await.untilOrQuiet(() -> input.stats().seen() == frames, () -> input.stats().seen(),
                    Duration.ofMillis(500), Duration.ofSeconds(20));
            FaultStats s = input.stats();

            assertEquals(s.delivered(), got.received(), "exactly what the model passed reaches the receiver");
            assertEquals(b.metrics().framesReceived(), s.seen());
            assertTrue(s.seen() >= frames * 0.99, "loopback itself lost " + (frames - s.seen()));
            assertTrue(Math.abs(s.lossRate() - 0.25) <= 0.015, "loss " + s.lossRate() + ", seed " + seed);
            assertEquals(0, got.corrupt());
        }
    }
}
