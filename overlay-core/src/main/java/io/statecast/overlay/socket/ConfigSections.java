package io.statecast.overlay.socket;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Binds a section the overlay keeps opaque ({@link OverlayConfig#messageStore()}) onto the
 * records of the module that reads it, with the mapper and the error messages of the rest of the
 * file: unknown fields, wrong types, fractions where integers belong and strings where numbers
 * belong are errors naming the field ({@code overlay.messageStore.instances.burst: unknown field
 * (known: …)}), and so is a {@link ConfigValueException} a creator throws.
 */
public final class ConfigSections {

    private ConfigSections() {
    }

    /**
     * @param section the section's tree
     * @param type    the record it maps onto (Jackson annotations on its creators)
     * @param path    the section's path in the document ({@code overlay.messageStore}), which
     *                every error's field starts with
     * @throws OverlayConfigException naming the first offending field
     */
    public static <T> T bind(JsonNode section, Class<T> type, String path) throws OverlayConfigException {
        return OverlayConfigLoader.bind(section, type, path);
    }
}
