package io.statecast.overlay.substrate;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.DatagramChannelConfig;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.InternetProtocolFamily;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.statecast.overlay.address.SubstrateAddress;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The UDP interface: one datagram per frame, on a Netty NIO datagram channel.
 *
 * <p><b>Threading.</b> Received frames are delivered on the channel's event-loop thread, one at a
 * time. {@link #send} may be called from any thread; it never blocks: when more than
 * {@link UdpConfig#sendQueueBytes()} wait for the socket it drops the frame and counts
 * {@link InterfaceMetrics.SendDrop#NOT_WRITABLE}. The event-loop group is either given (shared,
 * e.g. with the adapter's TCP interface, and not shut down by this interface) or created with one
 * thread and shut down on {@link #close()}.
 *
 * <p><b>Send batching.</b> {@link #send} only appends the datagram to a lock-free queue; the first
 * send into an empty queue schedules one flush task on the event loop, which writes everything
 * queued by then and flushes once. A thread that sends a burst (a MessageStore shard answering a
 * drained batch) thus costs the event loop one task and at most one wake-up instead of one per
 * datagram, and nothing waits for a timer: the flush runs as soon as the loop gets to it. All
 * senders share the one queue, so datagrams leave in the order {@link #send} accepted them (per
 * destination and overall). Bytes in that queue are bounded by {@link UdpConfig#sendQueueBytes()}
 * like those in the channel's own buffer.
 *
 * <p><b>Reading.</b> On a busy socket each read event takes up to {@value #DATAGRAMS_PER_READ}
 * datagrams before the event loop polls again, so it costs one selector call per batch rather
 * than one per datagram; a quiet one is read a datagram per event, without the extra read that
 * would find it empty ({@link ReceiveBufferRing}).
 *
 * <p><b>Control before bulk.</b> When the receiver outruns the event loop, the kernel drops
 * whatever arrives at a full socket buffer, overlay heartbeats as readily as data. So frames the
 * receiver calls bulk ({@link FrameReceiver#isBulk}) wait in a bounded backlog
 * ({@value #BACKLOG_DATAGRAMS} datagrams, the frames of one bundle counting as one, and no more
 * bytes than {@link UdpConfig#receiveBufferBytes()})
 * and are delivered, in order, in slices of event-loop time between reads, while control frames
 * are delivered as soon as they are read. Reading thus stays far ahead of bulk delivery: under
 * overload the socket keeps being drained, bulk frames are shed at the full backlog (counted as
 * {@link InterfaceMetrics.ReceiveDrop#BACKLOG_FULL}) and control frames still get through. A
 * control frame may overtake bulk frames that arrived before it; bulk frames keep their order.
 * When the loop keeps up, a bulk frame is delivered right after the read event it came in.
 *
 * <p><b>Bounds.</b> The receive buffer of each read is {@link UdpConfig#maxDatagramBytes()} + 1,
 * so a larger datagram is recognised (the kernel truncates it to that size) and dropped as
 * {@link InterfaceMetrics.ReceiveDrop#TOO_LARGE}. A small datagram is copied into a right-sized
 * buffer before it is handed on, so frames held by upper layers do not pin 64 KiB each, and the
 * receive buffers themselves are reused ({@link ReceiveBufferRing}).
 */
public final class UdpInterface implements SubstrateInterface {

    private static final Logger LOG = LoggerFactory.getLogger(UdpInterface.class);
    /** Wasted capacity above which a received datagram is copied into a right-sized buffer. */
    private static final int COMPACT_ABOVE_WASTE_BYTES = 2048;
    /** Sender addresses remembered per channel, to avoid building a substrate address per datagram. */
    private static final int SENDER_CACHE_SIZE = 1024;
    /** Datagrams read per read event (the socket is read until empty or this many). */
    static final int DATAGRAMS_PER_READ = 32;
    /** Datagrams one flush task writes before it yields the event loop and schedules itself again. */
    private static final int DATAGRAMS_PER_FLUSH = 256;
    /** Destinations one flush fills bundles for at a time (a node sends to its few neighbours). */
    private static final int OPEN_BUNDLES = 8;
    /** Bulk datagrams the receive backlog holds at most (its bytes are bounded by SO_RCVBUF's size). */
    static final int BACKLOG_DATAGRAMS = 1024;
    /** Event-loop time bulk frames get per turn before the socket is read again. */
    private static final long BULK_SLICE_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private final UdpConfig config;
    private final EventLoopGroup group;
    private final boolean ownsGroup;
    private final InterfaceMetrics metrics = new InterfaceMetrics();
    private final InetAddresses resolver = new InetAddresses();
    private final ChannelFutureListener writeListener;
    /** Datagrams accepted by {@link #send} and not yet written to the channel, in send order. */
    private final Queue<DatagramPacket> outbox = new ConcurrentLinkedQueue<>();
    private final AtomicLong outboxBytes = new AtomicLong();
    /** Whether a flush task is scheduled and has not yet started draining {@link #outbox}. */
    private final AtomicBoolean flushScheduled = new AtomicBoolean();
    private final Runnable flushTask = this::flushOutbox;
    private final Bundles bundles = new Bundles();
    private final LongAdder bundlesSent = new LongAdder();
    private final LongAdder bundlesReceived = new LongAdder();
    private volatile Channel channel;
    private volatile SubstrateAddress local;
    private volatile FrameReceiver receiver;
    private volatile boolean closed;

    /** An interface with its own one-thread event loop. */
    public UdpInterface(UdpConfig config) {
        this(config, null);
    }

    /**
     * @param config settings
     * @param group  event loops to run on (shared, not shut down by this interface), or
     *               {@code null} to create a one-thread group owned by this interface
     */
    public UdpInterface(UdpConfig config, EventLoopGroup group) {
        this.config = Objects.requireNonNull(config, "config");
        this.ownsGroup = group == null;
        this.group = group != null ? group : NettyLoops.newGroup("statecast-udp");
        this.local = new SubstrateAddress(SubstrateAddress.Scheme.UDP, hostPort(config.host(), config.port()));
        this.writeListener = f -> {
            if (!f.isSuccess()) {
                metrics.recordDrop(InterfaceMetrics.SendDrop.WRITE_FAILED);
                LOG.debug("datagram write failed", f.cause());
            }
        };
    }

    private static String hostPort(String host, int port) {
        return (host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
    }

    /** The bound address once started (the configured one before). */
    @Override
    public SubstrateAddress localAddress() {
        return local;
    }

    @Override
    public SubstrateAddress.Scheme scheme() {
        return SubstrateAddress.Scheme.UDP;
    }

    /** The settings. */
    public UdpConfig config() {
        return config;
    }

    /**
     * Binds the socket and starts delivering datagrams.
     *
     * @throws IOException           if the host is unresolvable or the port cannot be bound
     * @throws IllegalStateException if already started or closed
     */
    @Override
    public synchronized void start(FrameReceiver receiver) throws IOException {
        Objects.requireNonNull(receiver, "receiver");
        if (closed || channel != null) {
            throw new IllegalStateException("udp interface " + local + " is " + (closed ? "closed" : "already started"));
        }
        InetSocketAddress bindTo = InetAddresses.resolveUncached(config.host(), config.port());
        if (bindTo == null) {
            throw new IOException("cannot resolve UDP bind host '" + config.host() + "'");
        }
        this.receiver = receiver;
        InternetProtocolFamily family = bindTo.getAddress() instanceof Inet4Address
                ? InternetProtocolFamily.IPv4 : InternetProtocolFamily.IPv6;
        ReceiveBufferRing buffers = new ReceiveBufferRing(config.maxDatagramBytes() + 1, DATAGRAMS_PER_READ);
        Bootstrap b = new Bootstrap()
                .group(group)
                .channelFactory(() -> new NioDatagramChannel(family))
                .option(ChannelOption.SO_RCVBUF, config.receiveBufferBytes())
                .option(ChannelOption.SO_SNDBUF, config.sendBufferBytes())
                .option(ChannelOption.RCVBUF_ALLOCATOR, buffers)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(config.sendQueueBytes() / 2, config.sendQueueBytes()))
                .handler(new Receiver(buffers));
        ChannelFuture f = b.bind(bindTo).awaitUninterruptibly();
        if (!f.isSuccess()) {
            throw new IOException("cannot bind udp://" + hostPort(config.host(), config.port()) + ": " + f.cause(), f.cause());
        }
        Channel ch = f.channel();
        local = InetAddresses.toSubstrate(SubstrateAddress.Scheme.UDP, (InetSocketAddress) ch.localAddress());
        channel = ch;
        DatagramChannelConfig c = (DatagramChannelConfig) ch.config();
        LOG.debug("{} bound; SO_RCVBUF={} SO_SNDBUF={} (asked {} / {})", local, c.getReceiveBufferSize(),
                c.getSendBufferSize(), config.receiveBufferBytes(), config.sendBufferBytes());
    }

    /** SO_RCVBUF as granted by the kernel (Linux reports twice the usable size), or -1 before start. */
    public int effectiveReceiveBufferBytes() {
        Channel ch = channel;
        return ch == null ? -1 : ((DatagramChannelConfig) ch.config()).getReceiveBufferSize();
    }

    @Override
    public boolean send(SubstrateAddress to, ByteBuf frame) {
        Channel ch = channel;
        InterfaceMetrics.SendDrop drop = null;
        InetSocketAddress target = null;
        if (closed || ch == null) {
            drop = InterfaceMetrics.SendDrop.CLOSED;
        } else if (to.scheme() != SubstrateAddress.Scheme.UDP) {
            drop = InterfaceMetrics.SendDrop.WRONG_SCHEME;
        } else if (frame.readableBytes() > config.maxDatagramBytes()) {
            drop = InterfaceMetrics.SendDrop.TOO_LARGE;
        } else if ((target = resolver.resolve(to)) == null) {
            drop = InterfaceMetrics.SendDrop.UNRESOLVED;
        } else if (!writable(ch, frame.readableBytes())) {
            drop = InterfaceMetrics.SendDrop.NOT_WRITABLE;
        }
        if (drop != null) {
            metrics.recordDrop(drop);
            frame.release();
            return false;
        }
        int size = frame.readableBytes();
        outboxBytes.addAndGet(size);
        outbox.offer(new DatagramPacket(frame, target));
        metrics.recordSent(size);
        if (!flushScheduled.get() && flushScheduled.compareAndSet(false, true)) {
            scheduleFlush(ch);
        }
        if (closed) {
            discardOutbox(); // raced with close(): nobody else will flush it
        }
        return true;
    }

    /** The event loop of the bound channel (every datagram is read there), or null before {@link #start}. */
    @Override
    public ScheduledExecutorService receiveExecutor() {
        Channel ch = channel;
        return ch == null ? null : ch.eventLoop();
    }

    private boolean writable(Channel ch) {
        return ch.isWritable() && outboxBytes.get() < config.sendQueueBytes();
    }

    /**
     * Control-sized frames may use a reserve of an eighth of the queue beyond the limit, whatever
     * the channel's writability: a full queue of data must not cost the node its heartbeats and ACKs.
     */
    private boolean writable(Channel ch, int size) {
        if (size <= FrameCodec.SMALL_FRAME_BYTES) {
            return outboxBytes.get() < config.sendQueueBytes() + config.sendQueueBytes() / 8;
        }
        return writable(ch);
    }

    private void scheduleFlush(Channel ch) {
        try {
            ch.eventLoop().execute(flushTask);
        } catch (RejectedExecutionException e) { // the event loop has shut down (closing)
            flushScheduled.set(false);
            discardOutbox();
        }
    }

    /**
     * Runs on the event loop: writes what the outbox holds and flushes once. Clearing the flag
     * before draining means a datagram queued after the drain started schedules a new task, so
     * none is stranded.
     */
    private void flushOutbox() {
        flushScheduled.set(false);
        Channel ch = channel;
        long bytes = 0;
        int n = 0;
        DatagramPacket p;
        int limit = Math.min(config.bundleBytes(), config.maxDatagramBytes());
        while (n < DATAGRAMS_PER_FLUSH && (p = outbox.poll()) != null) {
            bytes += p.content().readableBytes();
            if (limit > 0) {
                bundles.add(ch, p, limit);
            } else {
                write(ch, p);
            }
            n++;
        }
        bundles.writeAll(ch);
        outboxBytes.addAndGet(-bytes);
        if (n > 0) {
            ch.flush();
        }
        if (n == DATAGRAMS_PER_FLUSH && !outbox.isEmpty() && flushScheduled.compareAndSet(false, true)) {
            scheduleFlush(ch); // let reads and other channels in before the rest
        }
    }

    private void write(Channel ch, DatagramPacket p) {
        ch.write(p, ch.newPromise().addListener(writeListener));
    }

    /**
     * The bundles one flush is filling, at most {@link #OPEN_BUNDLES} destinations at a time; event
     * loop only. A destination's frames leave in the order they were queued: its bundle is written
     * before a frame too large to join it, and a frame alone is written as it was queued.
     */
    private final class Bundles {
        private final InetSocketAddress[] to = new InetSocketAddress[OPEN_BUNDLES];
        /** The first frame's datagram while the bundle holds one frame. */
        private final DatagramPacket[] first = new DatagramPacket[OPEN_BUNDLES];
        /** The bundle once it holds two frames or more. */
        private final ByteBuf[] packed = new ByteBuf[OPEN_BUNDLES];
        private final int[] frames = new int[OPEN_BUNDLES];
        private final int[] size = new int[OPEN_BUNDLES];
        private int open;

        void add(Channel ch, DatagramPacket p, int limit) {
            int len = p.content().readableBytes();
            InetSocketAddress dest = p.recipient();
            int i = indexOf(dest);
            if (UdpBundle.size(2, len + 1) > limit) { // cannot share a datagram with any other frame
                if (i >= 0) {
                    writeAt(ch, i);
                }
                write(ch, p);
                return;
            }
            if (i >= 0 && (frames[i] == UdpBundle.MAX_FRAMES || size[i] + UdpBundle.LENGTH_BYTES + len > limit)) {
                writeAt(ch, i);
                i = -1;
            }
            if (i < 0) {
                if (open == OPEN_BUNDLES) {
                    writeAt(ch, 0);
                }
                i = open++;
                to[i] = dest;
                first[i] = p;
                frames[i] = 1;
                size[i] = UdpBundle.size(1, len);
                return;
            }
            if (packed[i] == null) {
                ByteBuf b = ch.alloc().directBuffer(limit, limit);
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

        void writeAll(Channel ch) {
            while (open > 0) {
                writeAt(ch, 0);
            }
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
        private void writeAt(Channel ch, int i) {
            if (packed[i] != null) {
                write(ch, new DatagramPacket(packed[i], to[i]));
                bundlesSent.increment();
            } else {
                write(ch, first[i]);
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

    /** Releases datagrams that can no longer be written, counting them as failed writes. */
    private void discardOutbox() {
        DatagramPacket p;
        while ((p = outbox.poll()) != null) {
            outboxBytes.addAndGet(-p.content().readableBytes());
            p.release();
            metrics.recordDrop(InterfaceMetrics.SendDrop.WRITE_FAILED);
        }
    }

    @Override
    public boolean isWritable(SubstrateAddress to) {
        Channel ch = channel;
        return ch != null && !closed && writable(ch);
    }

    /** Datagrams sent that carried a bundle of two frames or more ({@link UdpConfig#bundleBytes()}). */
    public long bundlesSent() {
        return bundlesSent.sum();
    }

    /** Well-formed bundles received (their frames count as frames received). */
    public long bundlesReceived() {
        return bundlesReceived.sum();
    }

    @Override
    public InterfaceMetrics metrics() {
        return metrics;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        // A flush task scheduled before this point runs before the channel closes (the event loop
        // runs tasks in order), so what was accepted before close() still leaves.
        NettyLoops.close(channel);
        if (ownsGroup) {
            NettyLoops.shutdown(group);
        }
        discardOutbox();
    }

    @Override
    public String toString() {
        return local.toString();
    }

    /**
     * Hands each datagram to the receiver: control frames at once, bulk frames through the backlog.
     * One instance per channel: its state is confined to the event loop.
     */
    private final class Receiver extends ChannelInboundHandlerAdapter {

        private final Map<InetSocketAddress, SubstrateAddress> senders =
                new LinkedHashMap<>(64, 0.75f, true) {
                    private static final long serialVersionUID = 1L;

                    @Override
                    protected boolean removeEldestEntry(Map.Entry<InetSocketAddress, SubstrateAddress> eldest) {
                        return size() > SENDER_CACHE_SIZE;
                    }
                };
        /** Bulk frames read and not yet delivered, with their senders (same order, same length). */
        private final ArrayDeque<ByteBuf> backlog = new ArrayDeque<>();
        private final ArrayDeque<SubstrateAddress> backlogFrom = new ArrayDeque<>();
        /**
         * Per backlogged frame, whether it is the first of its datagram there: the bound is in
         * datagrams, as the socket buffer the backlog stands in for would hold them. Counting a
         * bundle's frames one by one filled it several times sooner and shed bulk frames a
         * plain datagram each would have kept.
         */
        private final ArrayDeque<Boolean> backlogFirsts = new ArrayDeque<>();
        private int backlogDatagrams;
        private long backlogBytes;
        private boolean drainScheduled;
        private ChannelHandlerContext context;
        private final ReceiveBufferRing buffers;
        private final Runnable drainTask = () -> {
            drainScheduled = false;
            drainBacklog();
        };

        Receiver(ReceiveBufferRing buffers) {
            this.buffers = buffers;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            context = ctx;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof DatagramPacket packet)) {
                io.netty.util.ReferenceCountUtil.release(msg);
                return;
            }
            ByteBuf content = packet.content();
            int size = content.readableBytes();
            FrameReceiver r = receiver;
            if (closed || r == null) {
                metrics.recordDrop(InterfaceMetrics.ReceiveDrop.CLOSED);
                content.release();
                return;
            }
            if (size > config.maxDatagramBytes()) {
                metrics.recordDrop(InterfaceMetrics.ReceiveDrop.TOO_LARGE);
                content.release();
                return;
            }
            SubstrateAddress from = senders.computeIfAbsent(packet.sender(),
                    a -> InetAddresses.toSubstrate(SubstrateAddress.Scheme.UDP, a));
            if (UdpBundle.isBundle(content)) {
                List<ByteBuf> frames = UdpBundle.split(content, ctx.alloc());
                content.release();
                if (frames == null) {
                    metrics.recordDrop(InterfaceMetrics.ReceiveDrop.BAD_BUNDLE);
                    return;
                }
                bundlesReceived.increment();
                boolean queued = false;
                for (int i = 0, n = frames.size(); i < n; i++) {
                    ByteBuf f = frames.get(i);
                    if (closed) {
                        metrics.recordDrop(InterfaceMetrics.ReceiveDrop.CLOSED);
                        f.release();
                    } else {
                        queued |= accept(ctx, r, f, f.readableBytes(), from, queued);
                    }
                }
                return;
            }
            accept(ctx, r, content, size, from, false);
        }

        /**
         * One frame read: delivered now (control), queued behind the backlog (bulk), or shed.
         *
         * @param datagramQueued whether an earlier frame of the same datagram waits in the backlog
         *                       (this one then does not count against its datagram bound)
         * @return whether the frame was queued in the backlog
         */
        private boolean accept(ChannelHandlerContext ctx, FrameReceiver r, ByteBuf content, int size,
                SubstrateAddress from, boolean datagramQueued) {
            boolean bulk;
            try {
                bulk = r.isBulk(content);
            } catch (RuntimeException e) {
                metrics.recordDrop(InterfaceMetrics.ReceiveDrop.RECEIVER_ERROR);
                LOG.warn("frame receiver of {} threw classifying a frame", local, e);
                content.release();
                return false;
            }
            if (bulk && ((!datagramQueued && backlogDatagrams >= BACKLOG_DATAGRAMS)
                    || backlogBytes + size > config.receiveBufferBytes())) {
                metrics.recordDrop(InterfaceMetrics.ReceiveDrop.BACKLOG_FULL);
                content.release();
                return false;
            }
            ByteBuf frame = content;
            if (content.capacity() - size > COMPACT_ABOVE_WASTE_BYTES) {
                frame = ctx.alloc().buffer(size, size);
                frame.writeBytes(content);
                content.release();
            }
            if (bulk) {
                backlog.add(frame);
                backlogFrom.add(from);
                backlogFirsts.add(!datagramQueued);
                if (!datagramQueued) {
                    backlogDatagrams++;
                }
                backlogBytes += size;
                return true;
            }
            deliver(r, frame, from);
            return false;
        }

        /** After each read event: bulk frames get their time slice once the control frames are through. */
        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (!drainScheduled) {
                drainBacklog();
            }
        }

        /**
         * Delivers backlogged bulk frames for at most {@link #BULK_SLICE_NANOS} (at least one). If
         * some remain, the rest waits for a task scheduled with no delay: Netty runs it only after
         * its next look at the socket, so reading, and with it every control frame, keeps pace
         * with the sender while the bulk frames wait or, when the backlog is full, are shed.
         */
        private void drainBacklog() {
            long start = System.nanoTime();
            ByteBuf frame;
            while ((frame = backlog.poll()) != null) {
                SubstrateAddress from = backlogFrom.poll();
                if (backlogFirsts.poll()) {
                    backlogDatagrams--;
                }
                backlogBytes -= frame.readableBytes();
                FrameReceiver r = receiver;
                if (closed || r == null) {
                    metrics.recordDrop(InterfaceMetrics.ReceiveDrop.CLOSED);
                    frame.release();
                    continue;
                }
                deliver(r, frame, from);
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

        private void deliver(FrameReceiver r, ByteBuf frame, SubstrateAddress from) {
            metrics.recordReceived(frame.readableBytes());
            try {
                r.onFrame(frame, from);
            } catch (RuntimeException e) {
                metrics.recordDrop(InterfaceMetrics.ReceiveDrop.RECEIVER_ERROR);
                LOG.warn("frame receiver of {} threw", local, e);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ByteBuf frame;
            while ((frame = backlog.poll()) != null) {
                metrics.recordDrop(InterfaceMetrics.ReceiveDrop.CLOSED);
                frame.release();
            }
            backlogFrom.clear();
            backlogFirsts.clear();
            backlogDatagrams = 0;
            backlogBytes = 0;
            buffers.releaseAll();
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A datagram socket survives errors such as ICMP port-unreachable; keep it open.
            LOG.debug("{}: {}", local, cause.toString());
        }
    }
}
