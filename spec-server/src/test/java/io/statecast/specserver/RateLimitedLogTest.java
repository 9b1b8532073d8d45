package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.junit.jupiter.api.Test;

class RateLimitedLogTest {

    /** Records formatted WARN lines. */
    private static final class Recording extends LegacyAbstractLogger {
        private static final long serialVersionUID = 1L;
        final List<String> lines = new ArrayList<>();

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String msg, Object[] args, Throwable t) {
            lines.add(MessageFormatter.basicArrayFormat(msg, args));
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
    void shouldLetABurstThroughPerPeriodAndCountTheRest() {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        Recording log = new Recording();
        RateLimitedLog limited = new RateLimitedLog(log, now::get, 2, 10, TimeUnit.SECONDS);
        for (int i = 0; i < 5; i++) {
            limited.warn("event {}", i);
        }
        assertEquals(List.of("event 0", "event 1"), log.lines);
        now.addAndGet(TimeUnit.SECONDS.toNanos(9));
        limited.warn("event {}", 5);
        assertEquals(2, log.lines.size(), "still inside the period");
        now.addAndGet(TimeUnit.SECONDS.toNanos(1));
        limited.warn("event {}", 6);
        assertEquals(List.of("event 0", "event 1", "(4 similar messages suppressed)", "event 6"), log.lines);
    }
}
