package io.statecast.overlay.socket;

import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.substrate.RealTimerService;
import io.statecast.overlay.substrate.SubstrateInterface;
import io.statecast.overlay.substrate.TcpConfig;
import io.statecast.overlay.substrate.TcpInterface;
import io.statecast.overlay.substrate.TimerService;
import io.statecast.overlay.substrate.UdpConfig;
import io.statecast.overlay.substrate.UdpInterface;
import java.io.IOException;

/** The substrates and timer service a socket uses unless its builder injects others. */
final class DefaultSubstrates {

    private DefaultSubstrates() {
    }

    /** A timer service the socket owns, and how to close it. */
    record OwnedTimers(TimerService timers, AutoCloseable closer) {
    }

    static OwnedTimers timers(String threadName) {
        RealTimerService t = new RealTimerService(threadName);
        return new OwnedTimers(t, t);
    }

    /**
     * Opens a UDP or TCP interface with the substrate's defaults, its frame limit matched to the
     * overlay's {@code maxMessageBytes}. In-memory addresses need a network the caller owns.
     */
    static SubstrateInterface open(SubstrateAddress address, int maxMessageBytes) throws IOException {
        return switch (address.scheme()) {
            case UDP -> new UdpInterface(UdpConfig.defaults().withAddress(address.host(), address.port())
                    .withMaxDatagramBytes(Math.min(maxMessageBytes, UdpConfig.MAX_UDP_PAYLOAD_BYTES)));
            case TCP -> new TcpInterface(TcpConfig.defaults().withAddress(address.host(), address.port())
                    .withMaxFrameBytes(maxMessageBytes));
            case MEM -> throw new IOException("cannot open " + address + " from a configuration: in-memory interfaces belong "
                    + "to a MemNetwork; pass them to OverlaySocket.builder(..).interfaces(..)");
        };
    }
}
