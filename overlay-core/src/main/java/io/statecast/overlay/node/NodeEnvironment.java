package io.statecast.overlay.node;

import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.substrate.TimerService;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * What an {@link OverlayNode} is built on: a way to send protocol messages, the local substrate
 * addresses (advertised to neighbours), the timer service that is the node's only protocol
 * thread, and a random generator (seeded in tests) for jitter and random addresses.
 *
 * @param transport      sends protocol messages
 * @param localAddresses the adapter's substrate addresses, at least one
 * @param timers         the node's protocol thread and clock
 * @param random         randomness; used only on the protocol thread
 */
public record NodeEnvironment(
        ProtocolTransport transport,
        List<SubstrateAddress> localAddresses,
        TimerService timers,
        RandomGenerator random) {

    /** Checks the parts and freezes the address list. */
    public NodeEnvironment {
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(timers, "timers");
        Objects.requireNonNull(random, "random");
        localAddresses = List.copyOf(localAddresses);
        if (localAddresses.isEmpty()) {
            throw new IllegalArgumentException("a node needs at least one local substrate address");
        }
    }
}
