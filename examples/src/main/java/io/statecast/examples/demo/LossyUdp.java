package io.statecast.examples.demo;

import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.socket.SubstrateFactory;
import io.statecast.overlay.substrate.FaultConfig;
import io.statecast.overlay.substrate.FaultModel;
import io.statecast.overlay.substrate.FaultStats;
import io.statecast.overlay.substrate.FaultyInterface;
import io.statecast.overlay.substrate.SubstrateInterface;
import io.statecast.overlay.substrate.TimerService;
import io.statecast.overlay.substrate.UdpConfig;
import io.statecast.overlay.substrate.UdpInterface;
import java.io.IOException;
import java.util.Objects;

/**
 * Opens real UDP interfaces on loopback whose input drops each frame with a set probability
 * (a {@link FaultyInterface} around a {@link UdpInterface}): the loss a node sees, below its
 * adapter, protocol and MessageStore alike. Seeded; each node gets its own model.
 */
final class LossyUdp implements SubstrateFactory {

    private final FaultModel model;
    private final TimerService timers;
    private final int maxDatagramBytes;

    /**
     * @param loss             probability of dropping a received frame
     * @param seed             seeds the drops
     * @param timers           runs delayed frames (loss alone delays none)
     * @param maxDatagramBytes the overlay's largest message
     */
    LossyUdp(double loss, long seed, TimerService timers, int maxDatagramBytes) {
        this.model = new FaultModel(seed, FaultConfig.loss(loss));
        this.timers = Objects.requireNonNull(timers, "timers");
        this.maxDatagramBytes = Math.min(maxDatagramBytes, UdpConfig.MAX_UDP_PAYLOAD_BYTES);
    }

    @Override
    public SubstrateInterface open(SubstrateAddress address) throws IOException {
        if (address.scheme() != SubstrateAddress.Scheme.UDP) {
            throw new IOException("the demo runs on UDP only, not " + address);
        }
        UdpInterface udp = new UdpInterface(UdpConfig.defaults().withAddress(address.host(), address.port())
                .withMaxDatagramBytes(maxDatagramBytes));
        return FaultyInterface.atInput(udp, timers, model);
    }

    /** Frames seen and dropped so far. */
    FaultStats stats() {
        return model.stats();
    }
}
