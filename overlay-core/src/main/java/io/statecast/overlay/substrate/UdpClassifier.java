package io.statecast.overlay.substrate;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Control before bulk, in a {@link UdpInterface}'s pipeline. When the receiver outruns the event
 * loop, the kernel drops whatever arrives at a full socket buffer, overlay heartbeats as readily
 * as data. So each {@link UdpFrame} is classified ({@link FrameReceiver#isBulk}): control frames
 * go on up at once; bulk frames wait in a bounded backlog ({@value #BACKLOG_DATAGRAMS} datagrams,
 * the frames of one bundle counting as one, and no more bytes than the socket's receive buffer)
 * and go on up, in order, in slices of event-loop time between reads. Reading thus stays far
 * ahead of bulk delivery: under overload the socket keeps being drained, bulk frames are shed at
 * the full backlog ({@link InterfaceMetrics.ReceiveDrop#BACKLOG_FULL}) and control frames still
 * get through. A control frame may overtake bulk frames that arrived before it; bulk frames keep
 * their order. When the loop keeps up, a bulk frame goes up right after the read event it came in.
 *
 * <p>A frame that the receiver fails to classify is dropped as
 * {@link InterfaceMetrics.ReceiveDrop#RECEIVER_ERROR}, one arriving or waiting after the interface
 * closed as {@link InterfaceMetrics.ReceiveDrop#CLOSED}. A frame in a buffer that wastes more than
 * {@value #COMPACT_ABOVE_WASTE_BYTES} bytes (a single frame in its 64 KiB receive buffer) goes on
 * in a right-sized copy, so frames held by upper layers do not pin receive buffers, which the
 * {@link ReceiveBufferRing} then reuses; the ring learns here when a read's work is done.
 *
 * <p>One instance per channel; its state is confined to the event loop.
 */
final class UdpClassifier extends ChannelInboundHandlerAdapter {

    /** Bulk datagrams the backlog holds at most. */
    static final int BACKLOG_DATAGRAMS = 1024;
    /** Wasted capacity above which a frame is copied into a right-sized buffer. */
    static final int COMPACT_ABOVE_WASTE_BYTES = 2048;
    /** Event-loop time bulk frames get per turn before the socket is read again. */
    private static final long BULK_SLICE_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private final FrameReceiver receiver;
    private final long backlogByteLimit;
    private final ReceiveBufferRing buffers;
    private final InterfaceMetrics metrics;
    private final BooleanSupplier closed;
    private final Object owner;
    /** Bulk frames read and not yet passed on, in order. */
    private final ArrayDeque<UdpFrame> backlog = new ArrayDeque<>();
    /**
     * Per backlogged frame, whether it is the first of its datagram there: the bound is in
     * datagrams, as the socket buffer the backlog stands in for would hold them, so a bundle's
     * frames count once.
     */
    private final ArrayDeque<Boolean> backlogFirsts = new ArrayDeque<>();
    private int backlogDatagrams;
    private long backlogBytes;
    /** Whether an earlier frame of the datagram being read waits in the backlog. */
    private boolean datagramQueued;
    private boolean drainScheduled;
    private ChannelHandlerContext context;
    private final Runnable drainTask = () -> {
        drainScheduled = false;
        drainBacklog();
    };

    /**
     * @param receiver         classifies frames
     * @param backlogByteLimit bytes of bulk frames the backlog holds at most
     * @param buffers          the channel's receive buffers, told when a read's work is done
     * @param metrics          where drops are counted
     * @param closed           whether the interface has closed
     * @param owner            names the interface in log lines
     */
    UdpClassifier(FrameReceiver receiver, long backlogByteLimit, ReceiveBufferRing buffers, InterfaceMetrics metrics,
            BooleanSupplier closed, Object owner) {
        this.receiver = receiver;
        this.backlogByteLimit = backlogByteLimit;
        this.buffers = buffers;
        this.metrics = metrics;
        this.closed = closed;
        this.owner = owner;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        context = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof UdpFrame frame)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (frame.firstOfDatagram()) {
            datagramQueued = false;
        }
        if (closed.getAsBoolean()) {
            metrics.recordDrop(InterfaceMetrics.ReceiveDrop.CLOSED);
            frame.release();
            return;
        }
        ByteBuf content = frame.content();
        boolean bulk;
        try {
            bulk = receiver.isBulk(content);
        } catch (RuntimeException e) {
            metrics.recordDrop(InterfaceMetrics.ReceiveDrop.RECEIVER_ERROR);
            UdpInterface.LOG.warn("frame receiver of {} threw classifying a frame", owner, e);
            frame.release();
            return;
        }
        int size = content.readableBytes();
        if (bulk && ((!datagramQueued && backlogDatagrams >= BACKLOG_DATAGRAMS)
                || backlogBytes + size > backlogByteLimit)) {
            metrics.recordDrop(InterfaceMetrics.ReceiveDrop.BACKLOG_FULL);
            frame.release();
            return;
        }
        if (content.capacity() - size > COMPACT_ABOVE_WASTE_BYTES) {
            ByteBuf copy = ctx.alloc().buffer(size, size);
            copy.writeBytes(content);
            content.release();
            frame.replaceContent(copy);
        }
        if (!bulk) {
            ctx.fireChannelRead(frame);
            return;
        }
        backlog.add(frame);
        backlogFirsts.add(!datagramQueued);
        if (!datagramQueued) {
            backlogDatagrams++;
            datagramQueued = true;
        }
        backlogBytes += size;
    }

    /** After each read event: bulk frames get their time slice once the control frames are through. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (!drainScheduled) {
            drainBacklog();
        }
        ctx.fireChannelReadComplete();
    }

    /**
     * Passes backlogged bulk frames on for at most {@link #BULK_SLICE_NANOS} (at least one). If
     * some remain, the rest waits for a task scheduled with no delay: Netty runs it only after its
     * next look at the socket, so reading, and with it every control frame, keeps pace with the
     * sender while the bulk frames wait or, when the backlog is full, are shed.
     */
    private void drainBacklog() {
        long start = System.nanoTime();
        UdpFrame frame;
        while ((frame = backlog.poll()) != null) {
            if (backlogFirsts.poll()) {
                backlogDatagrams--;
            }
            backlogBytes -= frame.content().readableBytes();
            if (closed.getAsBoolean()) {
                metrics.recordDrop(InterfaceMetrics.ReceiveDrop.CLOSED);
                frame.release();
                continue;
            }
            context.fireChannelRead(frame);
            if (System.nanoTime() - start >= BULK_SLICE_NANOS) {
                break;
            }
        }
        if (!backlog.isEmpty() && !drainScheduled) {
            drainScheduled = true;
            context.executor().schedule(drainTask, 0, TimeUnit.NANOSECONDS);
        }
        buffers.workDone();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        UdpFrame frame;
        while ((frame = backlog.poll()) != null) {
            metrics.recordDrop(InterfaceMetrics.ReceiveDrop.CLOSED);
            ReferenceCountUtil.release(frame);
        }
        backlogFirsts.clear();
        backlogDatagrams = 0;
        backlogBytes = 0;
        buffers.releaseAll();
        ctx.fireChannelInactive();
    }
}
