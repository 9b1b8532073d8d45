package io.statecast.overlay.socket;

import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.substrate.SubstrateInterface;
import java.io.IOException;

/** Opens the substrate interface a configured address names ({@code udp://127.0.0.1:0}, …). */
@FunctionalInterface
public interface SubstrateFactory {

    /**
     * @param address the configured local address (port 0: any free port)
     * @return an interface, not yet started
     * @throws IOException if the interface cannot be created
     */
    SubstrateInterface open(SubstrateAddress address) throws IOException;
}
