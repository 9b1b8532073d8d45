package io.statecast.specserver;

import io.statecast.overlay.logging.RateLimitedLog;
import java.util.concurrent.ExecutorService;

/**
 * What every connection's handlers share: one per server, all members thread-safe.
 *
 * @param store the repository
 * @param check the validation applied to uploads
 * @param limits request and connection bounds
 * @param auth the write authorization
 * @param responses response builders
 * @param metrics counters
 * @param workers bounded executor for validation and disk work
 * @param problemLog rate-limited WARN log for misbehaving connections
 * @param catalogue the descriptions and diagrams the HTML catalogue shows
 * @param trustedKeys when present, the keys uploads and restores must be signed by
 */
record ServerContext(
        SpecStore store,
        SpecCheck check,
        SpecServerLimits limits,
        BearerAuth auth,
        Responses responses,
        SpecServerMetrics metrics,
        ExecutorService workers,
        RateLimitedLog problemLog,
        Catalogue catalogue,
        java.util.Optional<io.statecast.messagestore.deploy.TrustedKeys> trustedKeys) {
}
