package io.statecast.overlay.substrate;

import io.netty.buffer.ByteBuf;
import io.statecast.overlay.address.SubstrateAddress;

/** Where a {@link SubstrateInterface} hands every received frame. */
@FunctionalInterface
public interface FrameReceiver {
    /**
     * One frame has arrived. Called on an I/O thread (or the simulation thread); must not block.
     *
     * @param frame exactly one frame; the receiver owns it and must release it
     * @param from  the substrate address the frame came from
     */
    void onFrame(ByteBuf frame, SubstrateAddress from);

    /**
     * As {@link #onFrame}, and reports whether the frame was well formed. A stream substrate
     * closes the connection an ill-formed frame came on: on a reliable stream a conforming peer
     * never sends one. The default accepts every frame.
     *
     * @return false if the frame was malformed and dropped
     */
    default boolean onFrameChecked(ByteBuf frame, SubstrateAddress from) {
        onFrame(frame, from);
        return true;
    }

    /**
     * Whether {@code frame} is bulk data rather than overlay control. An interface may queue bulk
     * frames behind control frames and shed them first when the receiver falls behind, so that a
     * flood of data cannot crowd out heartbeats (the UDP interface does; see {@link UdpInterface}).
     * Called on the I/O thread before the frame is delivered; must be cheap and must neither
     * consume nor release the frame. The default, false, treats every frame as control: delivered
     * at once, in arrival order.
     */
    default boolean isBulk(ByteBuf frame) {
        return false;
    }
}
