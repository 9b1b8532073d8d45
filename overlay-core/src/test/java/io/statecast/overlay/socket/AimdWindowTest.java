package io.statecast.overlay.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The AIMD window's arithmetic, fed counters by hand. */
class AimdWindowTest {

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
        assertEquals(32, w.update(6, 100, 64), "a timeout halves");
        assertEquals(32, w.update(40, 120, 50), "more timeouts of the same burst: the 64 in flight at the halving have not resolved");
        assertEquals(1, w.halvings());
        // 64 completions after the halving (plus growth of 1/32 each, minus rounding)
        int grown = w.update(40, 164, 10);
        assertEquals(33, grown, "grew by about 64/32 = 2 from 32, less the first 20 counted at 32");
        assertEquals(16, w.update(41, 164, 20), "a timeout after the burst resolved halves again");
        assertEquals(17, w.update(42, 170, 20), "not again until the 20 in flight then resolve; growing meanwhile");
        assertEquals(2, w.halvings());
    }

    @Test
    void shouldNotGoBelowItsFloor() {
        AimdWindow w = new AimdWindow(1024, 0, 0);
        long completions = 0;
        for (int i = 1; i <= 20; i++) {
            int inFlight = w.current(); // window-limited
            w.update(i, completions, inFlight);
            completions += inFlight; // all resolve before the next timeout, which may halve again
        }
        assertEquals(OverlayConfig.SendWindow.MIN_AIMD_WINDOW, w.current());
        AimdWindow small = new AimdWindow(4, 0, 0);
        assertEquals(4, small.update(1, 0, 4), "a configured window below the floor is the floor");
    }

    @Test
    void shouldGrowByOnePerWindowOfCompletions() {
        AimdWindow w = new AimdWindow(1024, 0, 0);
        w.update(1, 0, 1024);
        assertEquals(512, w.current());
        assertEquals(513, w.update(1, 512, 0), "512 completions at 512: +1");
        assertEquals(514, w.update(1, 1025, 0));
    }

    @Test
    void shouldNotHalveForASourceItsApplicationPaces() {
        AimdWindow w = new AimdWindow(1024, 0, 0);
        assertEquals(1024, w.update(1, 0, 100), "100 in flight of 1024: a loss, not the window's doing");
        assertEquals(1024, w.update(2, 50, 511), "still under half the window");
        assertEquals(512, w.update(3, 60, 512), "half the window in flight: held back by it, so it halves");
        assertEquals(1, w.halvings());
    }
}
