package io.statecast.overlay.substrate;

import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCounted;
import io.statecast.overlay.address.SubstrateAddress;

/**
 * One received frame on its way up a {@link UdpInterface}'s pipeline: what {@link UdpBundleCodec}
 * makes of a datagram (one, or one per frame of a bundle), classified by {@link UdpClassifier} and
 * handed to the receiver by {@link UdpDelivery}. Reference counting is the content's, so a frame
 * that reaches the pipeline's end undelivered is released there. Event loop only.
 */
final class UdpFrame implements ReferenceCounted {

    private ByteBuf content;
    private final SubstrateAddress from;
    private final boolean firstOfDatagram;

    /**
     * @param content         exactly one frame; owned by this object
     * @param from            the sender
     * @param firstOfDatagram whether this is the first (or only) frame of its datagram: bounds
     *                        that count datagrams count this one frame per datagram
     */
    UdpFrame(ByteBuf content, SubstrateAddress from, boolean firstOfDatagram) {
        this.content = content;
        this.from = from;
        this.firstOfDatagram = firstOfDatagram;
    }

    ByteBuf content() {
        return content;
    }

    SubstrateAddress from() {
        return from;
    }

    boolean firstOfDatagram() {
        return firstOfDatagram;
    }

    /**
     * Swaps the content for a copy (a right-sized one, so a held frame does not pin a 64 KiB
     * receive buffer); the caller has released the old content. Saves a second object per
     * received datagram.
     */
    void replaceContent(ByteBuf copy) {
        this.content = copy;
    }

    @Override
    public int refCnt() {
        return content.refCnt();
    }

    @Override
    public UdpFrame retain() {
        content.retain();
        return this;
    }

    @Override
    public UdpFrame retain(int increment) {
        content.retain(increment);
        return this;
    }

    @Override
    public UdpFrame touch() {
        content.touch();
        return this;
    }

    @Override
    public UdpFrame touch(Object hint) {
        content.touch(hint);
        return this;
    }

    @Override
    public boolean release() {
        return content.release();
    }

    @Override
    public boolean release(int decrement) {
        return content.release(decrement);
    }

    @Override
    public String toString() {
        return "UdpFrame[" + content.readableBytes() + " bytes from " + from + "]";
    }
}
