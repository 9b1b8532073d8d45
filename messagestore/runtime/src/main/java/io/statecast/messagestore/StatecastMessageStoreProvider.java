package io.statecast.messagestore;

import io.statecast.messagestore.deploy.SpecServerSettings;
import io.statecast.messagestore.deploy.SpecDownloader;
import io.statecast.messagestore.deploy.ServiceLoadException;
import io.statecast.messagestore.deploy.HttpSpecSource;
import com.fasterxml.jackson.databind.JsonNode;
import io.statecast.overlay.forward.MessageStorePort;
import io.statecast.overlay.socket.MessageStoreProvider;
import io.statecast.overlay.socket.OverlayConfigException;

/**
 * Builds a {@link MessageStore} from the socket configuration's {@code overlay.messageStore}
 * section ({@link MessageStoreSettings}) and loads the services it lists (each warmed). Found by
 * {@link java.util.ServiceLoader} through {@code META-INF/services}. With a {@code specServer}, the
 * store downloads the specs of unknown services on demand ({@link SpecDownloader}).
 */
public final class StatecastMessageStoreProvider implements MessageStoreProvider {

    @Override
    public MessageStorePort create(JsonNode settings) throws OverlayConfigException {
        MessageStoreSettings s = MessageStoreSettings.parse(settings);
        MessageStore store = new MessageStore(s.config());
        s.trustedKeys().ifPresent(store::trust);
        // https URIs of services (and loadService) trust the spec server's certificates too
        s.specServer().flatMap(SpecServerSettings::tls).ifPresent(tls -> store.resolver().register(
                new HttpSpecSource("https", HttpSpecSource.DEFAULT_CONNECT_TIMEOUT, HttpSpecSource.DEFAULT_TOTAL_TIMEOUT,
                        java.util.Optional.of(tls), false)));
        // installed before the configured services load, so messages held meanwhile are asked for too
        s.specServer().ifPresent(server -> store.onUnknownService(new SpecDownloader(store, server)));
        for (int i = 0; i < s.services().size(); i++) {
            MessageStoreSettings.ServiceSource src = s.services().get(i);
            try {
                store.loadService(src.uri(), src.parameters());
            } catch (ServiceLoadException e) {
                store.close();
                String path = MessageStoreSettings.PREFIX + ".services[" + i + "]";
                throw new OverlayConfigException(path, path + ": " + e.getMessage(), e);
            }
        }
        return store;
    }
}
