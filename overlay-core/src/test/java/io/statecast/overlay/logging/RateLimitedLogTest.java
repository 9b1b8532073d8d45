package io.statecast.overlay.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.substrate.VirtualTimerService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

class RateLimitedLogTest {

    /** Collects formatted WARN lines. */
    private static final class CapturingLogger extends LegacyAbstractLogger {
        private static final long serialVersionUID = 1L;
        final List<String> lines = new ArrayList<>();

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] args, Throwable t) {
            lines.add(level + " " + MessageFormatter.basicArrayFormat(pattern, args) + (t == null ? "" : " !" + t.getMessage()));
        }

        @Override
        public boolean isTraceEnabled() {
            return true;
        }

        @Override
        public boolean isDebugEnabled() {
            return true;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }
    }

    private final VirtualTimerService clock = new VirtualTimerService();
    private final CapturingLogger logger = new CapturingLogger();

    @Test
    void shouldLogOncePerKeyPerIntervalAndSayHowManyWereHeldBack() {
        RateLimitedLog log = new RateLimitedLog(logger, clock::nanoTime, Duration.ofSeconds(10), 1, 2);
        for (int i = 0; i < 1000; i++) {
            log.warn(0, "drop {} {}", "x", i);
        }
        log.warn(1, "other {} {}", "y", 0);
        assertEquals(List.of("WARN drop x 0", "WARN other y 0"), logger.lines, "one key does not hide another");

        clock.advanceBy(Duration.ofSeconds(9));
        log.warn(0, "drop {} {}", "x", 1000);
        assertEquals(2, logger.lines.size(), "still within the interval");

        clock.advanceBy(Duration.ofSeconds(1));
        log.warn(0, "drop {} {}", "x", 1001);
        assertEquals("WARN drop x 1001 (1000 more held back since the last report)", logger.lines.get(2));
    }

    @Test
    void shouldLetABurstThroughPerWindow() {
        RateLimitedLog log = new RateLimitedLog(logger, clock::nanoTime, Duration.ofSeconds(10), 2, 1);
        for (int i = 0; i < 6; i++) {
            log.warn(0, "event {}", i);
        }
        assertEquals(List.of("WARN event 0", "WARN event 1"), logger.lines);
        clock.advanceBy(Duration.ofSeconds(10));
        log.warn(0, "event {}", 6);
        log.warn(0, "event {}", 7);
        assertEquals(List.of("WARN event 0", "WARN event 1", "WARN event 6 (4 more held back since the last report)",
                "WARN event 7"), logger.lines);
    }

    @Test
    void shouldKeepATrailingThrowableLast() {
        RateLimitedLog log = new RateLimitedLog(logger, clock::nanoTime, Duration.ofSeconds(1), 1, 1);
        log.warn(0, "failed {}", "a", new IllegalStateException("boom"));
        log.warn(0, "failed {}", "b", new IllegalStateException("boom"));
        clock.advanceBy(Duration.ofSeconds(1));
        log.warn(0, "failed {}", "c", new IllegalStateException("bang"));
        assertEquals(List.of("WARN failed a !boom", "WARN failed c (1 more held back since the last report) !bang"),
                logger.lines);
    }

    @Test
    void allowAndTakeSuppressedServeCallersThatFormatTheirOwnLine() {
        RateLimitedLog log = new RateLimitedLog(logger, clock::nanoTime, Duration.ofSeconds(1), 1, 1);
        assertTrue(log.allow());
        assertFalse(log.allow());
        assertFalse(log.allow());
        assertEquals(2, log.takeSuppressed());
        assertEquals(0, log.takeSuppressed());
        clock.advanceBy(Duration.ofMillis(999));
        assertFalse(log.allow());
        clock.advanceBy(Duration.ofMillis(1));
        assertTrue(log.allow());
        assertTrue(logger.lines.isEmpty());
    }

    @Test
    void shouldRefuseANonsenseConfiguration() {
        assertThrows(IllegalArgumentException.class,
                () -> new RateLimitedLog(logger, clock::nanoTime, Duration.ZERO, 1, 1));
        assertThrows(IllegalArgumentException.class,
                () -> new RateLimitedLog(logger, clock::nanoTime, Duration.ofSeconds(1), 0, 1));
        assertThrows(IllegalArgumentException.class,
                () -> new RateLimitedLog(logger, clock::nanoTime, Duration.ofSeconds(1), 1, 0));
    }
}
