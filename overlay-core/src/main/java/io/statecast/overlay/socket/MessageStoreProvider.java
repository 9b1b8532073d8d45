package io.statecast.overlay.socket;

import com.fasterxml.jackson.databind.JsonNode;
import io.statecast.overlay.forward.MessageStorePort;

/**
 * Makes a MessageStore from the configuration's opaque {@code overlay.messageStore} section. A
 * socket whose configuration has that section uses the provider given to its builder, else the
 * first one found by {@link java.util.ServiceLoader} (the messagestore module registers one);
 * with neither it fails to start, naming the section.
 */
@FunctionalInterface
public interface MessageStoreProvider {

    /**
     * @param settings the {@code overlay.messageStore} object
     * @return a port, not yet opened (the socket installs it)
     * @throws OverlayConfigException if the section is invalid; the field path should start with
     *                                {@code overlay.messageStore.}
     */
    MessageStorePort create(JsonNode settings) throws OverlayConfigException;
}
