package io.statecast.examples.ttcp;

import io.statecast.overlay.forward.MessageStorePort;
import io.statecast.overlay.socket.MessageStoreProvider;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlayConfigException;
import io.statecast.overlay.socket.OverlaySocket;
import java.io.IOException;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Opens the socket ttcp runs on. When the configuration asks for a MessageStore, the store is
 * made by the same provider the socket would find itself, but through a wrapper that keeps a
 * reference to it, so ttcp can read the store's metrics ({@link StoreProbe}).
 */
public final class TtcpSockets {

    /**
     * A socket and the probe of its store.
     *
     * @param socket the socket, not yet joined
     * @param probe  reads its MessageStore's metrics (or says why it cannot)
     */
    public record Opened(OverlaySocket socket, StoreProbe probe) {
    }

    private TtcpSockets() {
    }

    /**
     * Builds a socket from {@code config}.
     *
     * @throws OverlayConfigException if the configuration is invalid or names an unavailable part
     * @throws IOException            if a substrate interface cannot be opened
     */
    public static Opened open(OverlayConfig config) throws OverlayConfigException, IOException {
        OverlaySocket.Builder b = OverlaySocket.builder(config);
        AtomicReference<MessageStorePort> store = new AtomicReference<>();
        if (config.messageStore() != null) {
            Optional<MessageStoreProvider> found = ServiceLoader.load(MessageStoreProvider.class).findFirst();
            // without a provider the socket itself reports the missing store, naming the section
            found.ifPresent(p -> b.messageStoreProvider(settings -> {
                MessageStorePort port = p.create(settings);
                store.set(port);
                return port;
            }));
        }
        OverlaySocket socket = b.build();
        return new Opened(socket, StoreProbe.of(store.get()));
    }
}
