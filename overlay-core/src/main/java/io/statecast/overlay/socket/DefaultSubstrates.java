package io.statecast.overlay.socket;

import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.substrate.SubstrateInterface;
import io.statecast.overlay.substrate.TimerService;
import java.io.IOException;

/** The substrates and timer service a socket uses unless a builder injects others. */
final class DefaultSubstrates {

    private DefaultSubstrates() {
    }

    /** A timer service the socket owns, and how to close it. */
    record OwnedTimers(TimerService timers, AutoCloseable closer) {
    }

    static OwnedTimers timers(String threadName) {
        throw new UnsupportedOperationException("no real-time timer service in this build yet: pass one to OverlaySocket.builder(..).timers(..)");
    }

    static SubstrateInterface open(SubstrateAddress address) throws IOException {
        throw new IOException("cannot open " + address + ": no " + address.scheme().uriScheme()
                + " substrate in this build yet; pass interfaces to OverlaySocket.builder(..).interfaces(..)");
    }
}
