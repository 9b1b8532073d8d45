package io.statecast.overlay.node.tree;

import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.ProtocolMessage;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;

/**
 * A lossy in-memory network for protocol tests: every message arrives after one millisecond of
 * virtual time unless it is lost (seeded), its destination is gone, or the pair is blocked.
 */
final class SimNet {

    private final SimClock clock;
    private final Random random;
    private final Map<SubstrateAddress, BiConsumer<Object, SubstrateAddress>> endpoints = new HashMap<>();
    double loss;
    BiPredicate<SubstrateAddress, SubstrateAddress> blocked = (a, b) -> false;
    long sent;
    long lost;

    SimNet(SimClock clock, long seed) {
        this.clock = clock;
        this.random = new Random(seed);
    }

    /** Attaches a receiver of protocol messages (and, through {@code Object}, anything else). */
    void attach(SubstrateAddress address, BiConsumer<Object, SubstrateAddress> receiver) {
        endpoints.put(address, receiver);
    }

    /** Silently removes an endpoint (a crash). */
    void detach(SubstrateAddress address) {
        endpoints.remove(address);
    }

    boolean send(SubstrateAddress from, SubstrateAddress to, Object message) {
        if (!endpoints.containsKey(from)) {
            return true; // a crashed node's timers may still run; nothing it sends arrives
        }
        sent++;
        if (blocked.test(from, to) || (message instanceof ProtocolMessage && random.nextDouble() < loss)) {
            lost++;
            return true;
        }
        clock.schedule(1, TimeUnit.MILLISECONDS, () -> {
            BiConsumer<Object, SubstrateAddress> r = endpoints.get(to);
            if (r != null) {
                r.accept(message, from);
            }
        });
        return true;
    }
}
