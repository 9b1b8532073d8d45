package io.statecast.overlay.substrate;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;
import io.statecast.overlay.address.SubstrateAddress;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * The datagram codec of a {@link UdpInterface}'s pipeline: datagrams to frames and back, in the
 * {@link UdpBundle} layout.
 *
 * <p><b>Inbound</b> each {@link DatagramPacket} becomes one {@link UdpFrame}, or one per frame if it
 * is a bundle, carrying the sender's substrate address (from a cache of
 * {@value #SENDER_CACHE_SIZE} senders, so no address is built per datagram). A datagram above
 * the largest accepted is dropped and counted as {@link InterfaceMetrics.ReceiveDrop#TOO_LARGE}
 * (the receive buffer is one byte larger, so the kernel's truncation shows), a malformed bundle
 * as {@link InterfaceMetrics.ReceiveDrop#BAD_BUNDLE}, and one read after the interface closed as
 * {@link InterfaceMetrics.ReceiveDrop#CLOSED}.
 *
 * <p><b>Outbound</b> datagrams written with the channel's void promise are packed: per destination,
 * frames written between two flushes share a datagram of at most the bundle limit while they fit,
 * for up to {@value #OPEN_BUNDLES} destinations at once (a node sends to its few neighbours). A
 * flush writes every open bundle, then flushes. A destination's frames leave in the order written:
 * its bundle is written before a frame too large to join it, and a frame alone is written as it
 * came. A write with a real promise is not packed (its promise is that datagram's); it is written
 * after its destination's open bundle. Every datagram this handler writes that fails counts as
 * {@link InterfaceMetrics.SendDrop#WRITE_FAILED}. A bundle limit of 0 packs nothing.
 *
 * <p>One instance per channel; its state is confined to the event loop.
 */
final class UdpBundleCodec extends ChannelDuplexHandler {

    /** Sender addresses remembered, to avoid building a substrate address per datagram. */
    static final int SENDER_CACHE_SIZE = 1024;
    /** Destinations bundles are filled for at a time. */
    static final int OPEN_BUNDLES = 8;

    private final int maxDatagramBytes;
    private final int bundleLimit;
    private final InterfaceMetrics metrics;
    private final LongAdder bundlesSent;
    private final LongAdder bundlesReceived;
    private final BooleanSupplier closed;
    private final ChannelFutureListener writeListener;
    private final Map<InetSocketAddress, SubstrateAddress> senders =
            new LinkedHashMap<>(64, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<InetSocketAddress, SubstrateAddress> eldest) {
                    return size() > SENDER_CACHE_SIZE;
                }
            };

    // The bundles being filled: parallel arrays, the oldest first.
    private final InetSocketAddress[] to = new InetSocketAddress[OPEN_BUNDLES];
    /** The first frame's datagram while the bundle holds one frame. */
    private final DatagramPacket[] first = new DatagramPacket[OPEN_BUNDLES];
    /** The bundle once it holds two frames or more. */
    private final ByteBuf[] packed = new ByteBuf[OPEN_BUNDLES];
    private final int[] frames = new int[OPEN_BUNDLES];
    private final int[] size = new int[OPEN_BUNDLES];
    private int open;

    /**
     * @param maxDatagramBytes largest datagram accepted ({@link UdpConfig#maxDatagramBytes()})
     * @param bundleLimit      largest bundle written; 0 writes every datagram as it comes
     * @param metrics          where drops are counted
     * @param bundlesSent      counts bundles of two frames or more written
     * @param bundlesReceived  counts well-formed bundles read
     * @param closed           whether the interface has closed (datagrams then are dropped)
     */
    UdpBundleCodec(int maxDatagramBytes, int bundleLimit, InterfaceMetrics metrics, LongAdder bundlesSent,
            LongAdder bundlesReceived, BooleanSupplier closed) {
        this.maxDatagramBytes = maxDatagramBytes;
        this.bundleLimit = bundleLimit;
        this.metrics = metrics;
        this.bundlesSent = bundlesSent;
        this.bundlesReceived = bundlesReceived;
        this.closed = closed;
        this.writeListener = f -> {
            if (!f.isSuccess()) {
                metrics.recordDrop(InterfaceMetrics.SendDrop.WRITE_FAILED);
                UdpInterface.LOG.debug("datagram write failed", f.cause());
            }
        };
    }

    // ---- inbound: datagrams to frames ----

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof DatagramPacket packet)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        ByteBuf content = packet.content();
        if (closed.getAsBoolean()) {
            metrics.recordDrop(InterfaceMetrics.ReceiveDrop.CLOSED);
            content.release();
            return;
        }
        if (content.readableBytes() > maxDatagramBytes) {
            metrics.recordDrop(InterfaceMetrics.ReceiveDrop.TOO_LARGE);
            content.release();
            return;
        }
        SubstrateAddress from = senders.computeIfAbsent(packet.sender(),
                a -> InetAddresses.toSubstrate(SubstrateAddress.Scheme.UDP, a));
        if (!UdpBundle.isBundle(content)) {
            ctx.fireChannelRead(new UdpFrame(content, from, true));
            return;
        }
        List<ByteBuf> parts = UdpBundle.split(content, ctx.alloc());
        content.release();
        if (parts == null) {
            metrics.recordDrop(InterfaceMetrics.ReceiveDrop.BAD_BUNDLE);
            return;
        }
        bundlesReceived.increment();
        for (int i = 0, n = parts.size(); i < n; i++) {
            ctx.fireChannelRead(new UdpFrame(parts.get(i), from, i == 0));
        }
    }

    // ---- outbound: frames to datagrams ----

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof DatagramPacket p)) {
            ctx.write(msg, promise);
            return;
        }
        if (!promise.isVoid()) {
            int i = indexOf(p.recipient());
            if (i >= 0) {
                writeAt(ctx, i);
            }
            ctx.write(p, promise.addListener(writeListener));
            return;
        }
        if (bundleLimit == 0) {
            write(ctx, p);
        } else {
            add(ctx, p);
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        while (open > 0) {
            writeAt(ctx, 0);
        }
        ctx.flush();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        // unflushed bundles of a closing channel: nobody will write them
        for (int i = 0; i < open; i++) {
            if (packed[i] != null) {
                packed[i].release();
            } else {
                first[i].release();
            }
            metrics.recordDrop(InterfaceMetrics.SendDrop.WRITE_FAILED);
            to[i] = null;
            first[i] = null;
            packed[i] = null;
        }
        open = 0;
    }

    private void write(ChannelHandlerContext ctx, DatagramPacket p) {
        ctx.write(p, ctx.newPromise().addListener(writeListener));
    }

    private void add(ChannelHandlerContext ctx, DatagramPacket p) {
        int len = p.content().readableBytes();
        InetSocketAddress dest = p.recipient();
        int i = indexOf(dest);
        if (UdpBundle.size(2, len + 1) > bundleLimit) { // cannot share a datagram with any other frame
            if (i >= 0) {
                writeAt(ctx, i);
            }
            write(ctx, p);
            return;
        }
        if (i >= 0 && (frames[i] == UdpBundle.MAX_FRAMES
                || size[i] + UdpBundle.LENGTH_BYTES + len > bundleLimit)) {
            writeAt(ctx, i);
            i = -1;
        }
        if (i < 0) {
            if (open == OPEN_BUNDLES) {
                writeAt(ctx, 0);
            }
            i = open++;
            to[i] = dest;
            first[i] = p;
            frames[i] = 1;
            size[i] = UdpBundle.size(1, len);
            return;
        }
        if (packed[i] == null) {
            ByteBuf b = ctx.alloc().directBuffer(bundleLimit, bundleLimit);
            b.writeByte(UdpBundle.MAGIC).writeByte(UdpBundle.VERSION);
            ByteBuf f = first[i].content();
            b.writeShort(f.readableBytes()).writeBytes(f, f.readerIndex(), f.readableBytes());
            first[i].release();
            first[i] = null;
            packed[i] = b;
        }
        ByteBuf c = p.content();
        packed[i].writeShort(len).writeBytes(c, c.readerIndex(), len);
        p.release();
        frames[i]++;
        size[i] += UdpBundle.LENGTH_BYTES + len;
    }

    private int indexOf(InetSocketAddress dest) {
        for (int i = 0; i < open; i++) {
            if (to[i].equals(dest)) {
                return i;
            }
        }
        return -1;
    }

    /** Writes bundle {@code i} and closes it (the later ones move down, keeping their order). */
    private void writeAt(ChannelHandlerContext ctx, int i) {
        if (packed[i] != null) {
            write(ctx, new DatagramPacket(packed[i], to[i]));
            bundlesSent.increment();
        } else {
            write(ctx, first[i]);
        }
        int last = open - 1;
        System.arraycopy(to, i + 1, to, i, last - i);
        System.arraycopy(first, i + 1, first, i, last - i);
        System.arraycopy(packed, i + 1, packed, i, last - i);
        System.arraycopy(frames, i + 1, frames, i, last - i);
        System.arraycopy(size, i + 1, size, i, last - i);
        to[last] = null;
        first[last] = null;
        packed[last] = null;
        open = last;
    }
}
