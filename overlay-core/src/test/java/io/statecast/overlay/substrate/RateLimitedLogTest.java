package io.statecast.overlay.substrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
            lines.add(level + " " + MessageFormatter.basicArrayFormat(pattern, args));
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

    @Test
    void shouldLogOncePerKeyPerIntervalAndSayHowManyEventsItStandsFor() {
        VirtualTimerService clock = new VirtualTimerService();
        CapturingLogger logger = new CapturingLogger();
        RateLimitedLog log = new RateLimitedLog(logger, clock::nanoTime, TimeUnit.SECONDS.toNanos(10), 2);

        for (int i = 0; i < 1000; i++) {
            log.warn(0, "drop {} {}", "x", i);
        }
        log.warn(1, "other {} {}", "y", 0);
        assertEquals(List.of("WARN drop x 0 (1 such events since the last report)",
                "WARN other y 0 (1 such events since the last report)"), logger.lines);

        clock.advanceBy(Duration.ofSeconds(9));
        log.warn(0, "drop {} {}", "x", 1000);
        assertEquals(2, logger.lines.size(), "still within the interval");

        clock.advanceBy(Duration.ofSeconds(1));
        log.warn(0, "drop {} {}", "x", 1001);
        assertEquals(3, logger.lines.size());
        assertTrue(logger.lines.get(2).endsWith("(1001 such events since the last report)"), logger.lines.get(2));
    }
}
