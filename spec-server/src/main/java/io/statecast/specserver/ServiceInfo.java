package io.statecast.specserver;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of {@code GET /services}, as {@link SpecServerClient} reads it.
 *
 * @param serviceId the ServiceID
 * @param name the service name
 * @param scope the instance scope
 * @param sha256 lower-case hex SHA-256 of the document; its quoted form is the ETag
 * @param size document size in bytes
 * @param storedAt when this version was stored
 */
public record ServiceInfo(int serviceId, String name, String scope, String sha256, long size, Instant storedAt) {
    /** Rejects missing values. */
    public ServiceInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(storedAt, "storedAt");
    }

    /** @return the ETag of this version */
    public String etag() {
        return EntityTags.of(sha256);
    }
}
