package io.statecast.messagestore.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.socket.OverlayConfig;
import org.junit.jupiter.api.Test;

/** The AIMD window's arithmetic, fed counters by hand (the seeded path simulation: {@link AimdWindowSimulationTest}). */
class AimdWindowTest {

    /** Repeated timeouts enough to halve any window: a congestion burst. */
    private static final long BURST = 100_000;

    @Test
    void shouldStartAtTheConfiguredWindowAndNotGrowBeyondIt() {
        AimdWindow w = new AimdWindow(64, 0, 0);
        assertEquals(64, w.update(0, 0, 0));
        assertEquals(64, w.update(0, 1_000, 10), "bounded by the configured window");
    }

    @Test
    void shouldHalveOncePerBurstOfTimeouts() {
        AimdWindow w = new AimdWindow(64, 5, 100);
        assertEquals(64, w.update(5, 100, 64), "signals before the window existed do not count");
        assertEquals(64, w.update(5 + 16, 100, 64), "16 repeated timeouts of 64: a quarter, isolated losses");
        assertEquals(32, w.update(5 + 17, 100, 64), "more than a quarter of the window repeated: halves");
        assertEquals(32, w.update(60, 100, 50), "more of the same burst: the 64 in flight at the halving have not resolved");
        assertEquals(1, w.halvings());
        assertEquals(37, w.update(60, 110, 40), "10 completions at 32, half the way back to 64 per window: 32 + 10 * 16 / 32");
        assertEquals(56, w.update(60, 164, 40), "the burst resolved: grown to 56.7");
        assertEquals(56, w.update(60 + 14, 164, 40), "14 repeats: not more than a quarter of 56.7");
        assertEquals(28, w.update(60 + 15, 164, 40), "15: halves");
        assertEquals(2, w.halvings());
        assertEquals(31, w.update(200, 170, 40), "not again until the 40 in flight then resolve; growing meanwhile");
        assertEquals(2, w.halvings());
    }

    @Test
    void shouldForgetRepeatsOnceAWindowsWorthOfMessagesResolved() {
        AimdWindow w = new AimdWindow(1024, 0, 0);
        assertEquals(1024, w.update(200, 0, 1024), "200 repeats: under a quarter of 1024");
        assertEquals(1024, w.update(200, 1024, 1024), "a window's worth resolved: a new count starts");
        assertEquals(1024, w.update(400, 1024, 1024), "200 more: still under a quarter");
        assertEquals(512, w.update(457, 1024, 1024), "257 since the count started: halves");
    }

    @Test
    void shouldNotGoBelowItsFloor() {
        AimdWindow w = new AimdWindow(1024, 0, 0);
        long completions = 0;
        for (int i = 1; i <= 40; i++) {
            int inFlight = w.current(); // window-limited
            w.update(i * BURST, completions, inFlight);
            completions += inFlight; // all resolve before the next burst, which halves again
        }
        assertEquals(OverlayConfig.SendWindow.MIN_AIMD_WINDOW, w.current());
        AimdWindow small = new AimdWindow(4, 0, 0);
        assertEquals(4, small.update(BURST, 0, 4), "a configured window below the floor is the floor");
    }

    @Test
    void shouldClimbBackHalfTheDistancePerWindowOfCompletions() {
        AimdWindow w = new AimdWindow(1024, 0, 0);
        w.update(BURST, 0, 1024);
        assertEquals(512, w.current());
        assertEquals(768, w.update(BURST, 512, 0), "512 completions at 512: half of the 512 back to 1024");
        assertEquals(832, w.update(BURST, 512 + 384, 0), "half a window at 768: half of half the remaining 256");
    }

    @Test
    void shouldRegainTheConfiguredWindowWithinAFewWindowsOfASpuriousCollapse() {
        AimdWindow w = new AimdWindow(4096, 0, 0);
        // A stall: four bursts of timeouts, each once the previous one's messages resolved.
        long completions = 0;
        for (int i = 1; i <= 4; i++) {
            int inFlight = w.current();
            w.update(i * BURST, completions, inFlight);
            for (int k = 0; k < inFlight; k++) {
                w.update(i * BURST, ++completions, 0);
            }
        }
        assertEquals(4, w.halvings());
        int previous = w.current();
        assertTrue(previous < 2048, "collapsed to " + previous);
        long counted = 0;
        while (w.current() < 4096 && counted < 1_000_000) {
            completions++;
            counted++;
            int now = w.update(4 * BURST, completions, 0);
            assertTrue(now <= previous + 1, "never faster than slow start: " + previous + " -> " + now);
            assertTrue(now >= previous, "never shrinks without a timeout");
            previous = now;
        }
        // Additive increase alone would need about (4096² - 1919²) / 2 ≈ 6.5 million.
        assertTrue(counted < 100_000, "back at 4096 after " + counted + " completions");
    }

    @Test
    void shouldProbeBeyondItsTargetOnePerWindowAtFirstThenDoubling() {
        AimdWindow w = new AimdWindow(1024, 0, 0);
        halveTwice(w);
        long completions = 512;
        while (w.current() < 896) {
            w.update(2 * BURST, ++completions, 0);
        }
        assertEquals(896, w.current(), "binary search stops at its target");
        long atTarget = completions;
        completions += 896;
        assertEquals(897, w.update(2 * BURST, completions, 0), "a window's worth beyond the target: +1");
        while (w.current() < 1024) {
            w.update(2 * BURST, ++completions, 0);
        }
        // Additive increase from 896 to 1024: about 123,000 completions.
        long probing = completions - atTarget;
        assertTrue(probing < 15_000, "from 896 to 1024 in " + probing + " completions");
    }

    @Test
    void shouldLowerItsTargetWhenHalvedAgainBeforeGettingBack() {
        AimdWindow w = new AimdWindow(1024, 0, 0);
        halveTwice(w);
        assertEquals(640, w.update(2 * BURST, 512 + 384, 0), "one window at 384: half of 512 back to 896 = (768 + 1024) / 2, not to 1024");
    }

    @Test
    void shouldNotHalveForASourceItsApplicationPaces() {
        AimdWindow w = new AimdWindow(1024, 0, 0);
        assertEquals(1024, w.update(BURST, 0, 100), "100 in flight of 1024: losses, not the window's doing");
        assertEquals(1024, w.update(2 * BURST, 50, 511), "still under half the window");
        assertEquals(512, w.update(3 * BURST, 60, 512), "half the window in flight: held back by it, so it halves");
        assertEquals(1, w.halvings());
    }

    /** From 1,024: halved at 1,024, half the way back, halved again at 768; 512 completions counted. */
    private static void halveTwice(AimdWindow w) {
        assertEquals(512, w.update(BURST, 0, 512), "halved, aiming back at 1024");
        assertEquals(768, w.update(BURST, 512, 0), "a window's worth: half the way back");
        assertEquals(384, w.update(2 * BURST, 512, 768), "halved again before getting back: aiming at (768 + 1024) / 2 = 896");
    }
}
