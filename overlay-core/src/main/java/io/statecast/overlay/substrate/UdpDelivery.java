package io.statecast.overlay.substrate;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The end of a {@link UdpInterface}'s pipeline: hands each {@link UdpFrame} to the
 * {@link FrameReceiver}, counting it as received, and a receiver's exception as
 * {@link InterfaceMetrics.ReceiveDrop#RECEIVER_ERROR}. A datagram socket survives errors such as
 * ICMP port-unreachable, so exceptions reaching here are logged and the channel stays open.
 */
final class UdpDelivery extends ChannelInboundHandlerAdapter {

    private final FrameReceiver receiver;
    private final InterfaceMetrics metrics;
    private final Object owner;

    /**
     * @param receiver where frames go
     * @param metrics  where they are counted
     * @param owner    names the interface in log lines
     */
    UdpDelivery(FrameReceiver receiver, InterfaceMetrics metrics, Object owner) {
        this.receiver = receiver;
        this.metrics = metrics;
        this.owner = owner;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof UdpFrame frame)) {
            ctx.fireChannelRead(msg);
            return;
        }
        metrics.recordReceived(frame.content().readableBytes());
        try {
            receiver.onFrame(frame.content(), frame.from());
        } catch (RuntimeException e) {
            metrics.recordDrop(InterfaceMetrics.ReceiveDrop.RECEIVER_ERROR);
            UdpInterface.LOG.warn("frame receiver of {} threw", owner, e);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // the end of the line: nothing above wants it
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        UdpInterface.LOG.debug("{}: {}", owner, cause.toString());
    }
}
