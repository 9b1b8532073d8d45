package io.statecast.overlay.substrate;

import io.netty.buffer.ByteBuf;
import io.statecast.overlay.address.SubstrateAddress;
import java.util.Objects;

/**
 * An interface to a {@link MemNetwork}, reachable at {@code mem://name}. Created by
 * {@link MemNetwork#newInterface}; frames reach it only once started. Receivers are called on the
 * network's timer thread.
 */
public final class MemInterface implements SubstrateInterface {

    private final MemNetwork network;
    private final SubstrateAddress address;
    private final InterfaceMetrics metrics = new InterfaceMetrics();
    private volatile FrameReceiver receiver;
    private volatile boolean closed;

    MemInterface(MemNetwork network, SubstrateAddress address) {
        this.network = network;
        this.address = address;
    }

    @Override
    public SubstrateAddress localAddress() {
        return address;
    }

    @Override
    public SubstrateAddress.Scheme scheme() {
        return SubstrateAddress.Scheme.MEM;
    }

    /** The network this interface is attached to. */
    public MemNetwork network() {
        return network;
    }

    @Override
    public void start(FrameReceiver receiver) {
        Objects.requireNonNull(receiver, "receiver");
        if (closed) {
            throw new IllegalStateException(address + " is closed");
        }
        if (this.receiver != null) {
            throw new IllegalStateException(address + " is already started");
        }
        this.receiver = receiver;
    }

    @Override
    public boolean send(SubstrateAddress to, ByteBuf frame) {
        InterfaceMetrics.SendDrop drop = null;
        if (closed || receiver == null) {
            drop = InterfaceMetrics.SendDrop.CLOSED;
        } else if (to.scheme() != SubstrateAddress.Scheme.MEM) {
            drop = InterfaceMetrics.SendDrop.WRONG_SCHEME;
        } else if (frame.readableBytes() > network.config().maxFrameBytes()) {
            drop = InterfaceMetrics.SendDrop.TOO_LARGE;
        }
        if (drop != null) {
            metrics.recordDrop(drop);
            frame.release();
            return false;
        }
        int size = frame.readableBytes();
        if (!network.transmit(this, to, frame)) {
            return false;
        }
        metrics.recordSent(size);
        return true;
    }

    /** Called by the network on delivery; false if this interface cannot take the frame. */
    boolean accept(ByteBuf frame, SubstrateAddress from) {
        FrameReceiver r = receiver;
        if (closed || r == null) {
            metrics.recordDrop(InterfaceMetrics.ReceiveDrop.CLOSED);
            return false;
        }
        metrics.recordReceived(frame.readableBytes());
        try {
            r.onFrame(frame, from);
        } catch (RuntimeException e) {
            metrics.recordDrop(InterfaceMetrics.ReceiveDrop.RECEIVER_ERROR);
        }
        return true;
    }

    @Override
    public InterfaceMetrics metrics() {
        return metrics;
    }

    /** Detaches from the network; frames in flight to this interface become undeliverable. Idempotent. */
    @Override
    public void close() {
        closed = true;
        network.detach(this);
    }

    @Override
    public String toString() {
        return address.toString();
    }
}
