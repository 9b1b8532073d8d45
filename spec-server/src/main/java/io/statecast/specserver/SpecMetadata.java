package io.statecast.specserver;

import java.util.List;
import java.util.Objects;

/**
 * What the spec server needs to know about a valid spec: the blueprint's <em>ServiceID</em>, the
 * service name and the instance scope ({@code message} or {@code flow}).
 *
 * @param serviceId the 32-bit ServiceID the document declares
 * @param name the service name the document declares; not blank
 * @param scope the instance scope the document declares; not blank
 * @param promises what the service promises its applications ({@code every-message},
 *                 {@code no-duplicates}, {@code source-order}), as the spec writes them; empty for
 *                 best effort
 */
public record SpecMetadata(int serviceId, String name, String scope, List<String> promises) {

    /** A service that promises nothing. */
    public SpecMetadata(int serviceId, String name, String scope) {
        this(serviceId, name, scope, List.of());
    }

    /** Rejects missing or blank names. */
    public SpecMetadata {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(scope, "scope");
        promises = List.copyOf(promises);
        if (name.isBlank()) {
            throw new IllegalArgumentException("name is blank");
        }
        if (scope.isBlank()) {
            throw new IllegalArgumentException("scope is blank");
        }
    }
}
