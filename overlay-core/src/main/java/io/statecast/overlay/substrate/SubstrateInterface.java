package io.statecast.overlay.substrate;

import io.netty.buffer.ByteBuf;
import io.statecast.overlay.address.SubstrateAddress;
import java.util.concurrent.ScheduledExecutorService;

/**
 * One interface of an {@link Adapter} to one substrate network (UDP, TCP, in-memory). It moves
 * opaque frames; encoding, decoding and bound checks of messages are the adapter's.
 *
 * <p>Implementations are thread-safe: {@link #send} may be called from any thread. Received
 * frames are delivered on the interface's I/O thread (or the simulation's timer thread).
 */
public interface SubstrateInterface extends AutoCloseable {

    /** The address peers use to reach this interface (known once started; port 0 is resolved). */
    SubstrateAddress localAddress();

    /**
     * The scheme of the addresses this interface sends to; known before {@link #start}.
     * The default takes it from {@link #localAddress()}.
     */
    default SubstrateAddress.Scheme scheme() {
        return localAddress().scheme();
    }

    /** Binds and starts delivering received frames to {@code receiver}. */
    void start(FrameReceiver receiver) throws java.io.IOException;

    /**
     * Sends one frame. Never blocks: a frame that cannot be queued is dropped and counted.
     *
     * @param to    destination of this interface's scheme
     * @param frame the frame; ownership passes to the interface, which releases it
     * @return false if the frame was dropped at once (queue full, closed, wrong scheme)
     */
    boolean send(SubstrateAddress to, ByteBuf frame);

    /**
     * Whether a {@link #send} to {@code to} would now be accepted rather than dropped for lack of
     * buffer space: a hint for senders that want to pace themselves (the answer can change at
     * once). The default answers true.
     */
    default boolean isWritable(SubstrateAddress to) {
        return true;
    }

    /** Counters of this interface. */
    InterfaceMetrics metrics();

    /**
     * The one thread that calls the receiver once started, as an executor that runs tasks and
     * timed tasks on it, or {@code null} if frames arrive on more than one thread or on no thread
     * of the interface's own (a simulation's). A MessageStore may run there (io threading).
     */
    default ScheduledExecutorService receiveExecutor() {
        return null;
    }

    /** Stops receiving and releases the socket. Idempotent. */
    @Override
    void close();
}
