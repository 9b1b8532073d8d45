package io.statecast.specserver;

import java.time.Instant;
import java.util.Objects;

/**
 * A spec the server holds: what the document declares plus what the server knows about the bytes.
 *
 * @param metadata ServiceID, name and scope, as validated
 * @param sha256 lower-case hex SHA-256 of the document bytes
 * @param size document size in bytes
 * @param storedAt when this version was written (the file's modification time, millisecond precision)
 */
public record StoredSpec(SpecMetadata metadata, String sha256, long size, Instant storedAt) {
    /** Rejects missing values. */
    public StoredSpec {
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(storedAt, "storedAt");
    }

    /** @return the ServiceID */
    public int serviceId() {
        return metadata.serviceId();
    }

    /** @return the HTTP entity tag of this version: the quoted SHA-256 */
    public String etag() {
        return EntityTags.of(sha256);
    }
}
