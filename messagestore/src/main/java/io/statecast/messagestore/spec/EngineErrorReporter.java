package io.statecast.messagestore.spec;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.scxml.ErrorReporter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs what the engine reports (non-determinism, unknown actions) and counts it per spec.
 * Shared by every executor of a spec; thread-safe.
 */
final class EngineErrorReporter implements ErrorReporter {

    private static final Logger LOG = LoggerFactory.getLogger(EngineErrorReporter.class);

    private final String service;
    private final AtomicLong errors = new AtomicLong();

    EngineErrorReporter(String service) {
        this.service = service;
    }

    @Override
    public void onError(String code, String detail, Object context) {
        long n = errors.incrementAndGet();
        if (n <= 10 || Long.bitCount(n) == 1) { // first few, then at powers of two
            LOG.warn("service {}: engine error {} ({} so far): {}", service, code, n, detail);
        }
    }

    long errors() {
        return errors.get();
    }
}
