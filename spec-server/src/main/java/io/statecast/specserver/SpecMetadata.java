package io.statecast.specserver;

import java.util.Objects;

/**
 * What the spec server needs to know about a valid spec: the blueprint's <em>ServiceID</em>, the
 * service name and the instance scope ({@code message} or {@code flow}).
 *
 * @param serviceId the 32-bit ServiceID the document declares
 * @param name the service name the document declares; not blank
 * @param scope the instance scope the document declares; not blank
 */
public record SpecMetadata(int serviceId, String name, String scope) {
    /** Rejects missing or blank names. */
    public SpecMetadata {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(scope, "scope");
        if (name.isBlank()) {
            throw new IllegalArgumentException("name is blank");
        }
        if (scope.isBlank()) {
            throw new IllegalArgumentException("scope is blank");
        }
    }
}
