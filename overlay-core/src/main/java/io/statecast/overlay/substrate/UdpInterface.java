package io.statecast.overlay.substrate;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
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
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The UDP interface: one datagram per frame, or several small frames for one destination in one
 * datagram ({@link UdpBundle}), on a Netty NIO datagram channel whose pipeline is
 *
 * <pre>
 *   socket ── codec (UdpBundleCodec) ── outbox (UdpOutbox) ── classifier (UdpClassifier) ── delivery (UdpDelivery)
 *   inbound:  datagram → frames ────────────────────────────→ control now, bulk via backlog → FrameReceiver
 *   outbound: frames packed per destination ←── queue from any thread, one flush per batch
 * </pre>
 *
 * <p><b>Threading.</b> Received frames are delivered on the channel's event-loop thread, one at a
 * time. {@link #send} may be called from any thread; it never blocks: when more than
 * {@link UdpConfig#sendQueueBytes()} wait for the socket it drops the frame and counts
 * {@link InterfaceMetrics.SendDrop#NOT_WRITABLE}. The event-loop group is either given (shared,
 * e.g. with the adapter's TCP interface, and not shut down by this interface) or created with one
 * thread and shut down on {@link #close()}.
 *
 * <p><b>Send batching.</b> {@link #send} only appends the datagram to the {@link UdpOutbox}'s
 * lock-free queue; one task on the event loop writes everything queued by then and flushes once,
 * so a burst costs the loop one task and at most one wake-up. Datagrams leave in the order
 * {@link #send} accepted them (per destination and overall). Bytes in that queue are bounded by
 * {@link UdpConfig#sendQueueBytes()} like those in the channel's own buffer. Small frames that
 * wait together for one destination leave in one datagram of at most
 * {@link UdpConfig#bundleBytes()} ({@link UdpBundleCodec}).
 *
 * <p><b>Reading.</b> On a busy socket each read event takes up to {@value #DATAGRAMS_PER_READ}
 * datagrams before the event loop polls again, so it costs one selector call per batch rather
 * than one per datagram; a quiet one is read a datagram per event, without the extra read that
 * would find it empty ({@link ReceiveBufferRing}).
 *
 * <p><b>Control before bulk.</b> Frames the receiver calls bulk ({@link FrameReceiver#isBulk}) wait
 * in a bounded backlog ({@value #BACKLOG_DATAGRAMS} datagrams, no more bytes than
 * {@link UdpConfig#receiveBufferBytes()}) and are delivered in slices of event-loop time between
 * reads, while control frames are delivered as soon as they are read; under overload bulk frames
 * are shed ({@link InterfaceMetrics.ReceiveDrop#BACKLOG_FULL}) and control frames still get
 * through ({@link UdpClassifier}).
 *
 * <p><b>Bounds.</b> The receive buffer of each read is {@link UdpConfig#maxDatagramBytes()} + 1,
 * so a larger datagram is recognised (the kernel truncates it to that size) and dropped as
 * {@link InterfaceMetrics.ReceiveDrop#TOO_LARGE}. A small datagram is copied into a right-sized
 * buffer before it is handed on, so frames held by upper layers do not pin 64 KiB each, and the
 * receive buffers themselves are reused ({@link ReceiveBufferRing}).
 */
public final class UdpInterface implements SubstrateInterface {

    static final Logger LOG = LoggerFactory.getLogger(UdpInterface.class);
    /** Datagrams read per read event (the socket is read until empty or this many). */
    static final int DATAGRAMS_PER_READ = 32;
    /** Bulk datagrams the receive backlog holds at most (its bytes are bounded by SO_RCVBUF's size). */
    static final int BACKLOG_DATAGRAMS = UdpClassifier.BACKLOG_DATAGRAMS;

    private final UdpConfig config;
    private final EventLoopGroup group;
    private final boolean ownsGroup;
    private final InterfaceMetrics metrics = new InterfaceMetrics();
    private final InetAddresses resolver = new InetAddresses();
    private final LongAdder bundlesSent = new LongAdder();
    private final LongAdder bundlesReceived = new LongAdder();
    private final BooleanSupplier isClosed = () -> this.closed;
    private volatile Channel channel;
    private volatile UdpOutbox outbox;
    private volatile SubstrateAddress local;
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
        InternetProtocolFamily family = bindTo.getAddress() instanceof Inet4Address
                ? InternetProtocolFamily.IPv4 : InternetProtocolFamily.IPv6;
        ReceiveBufferRing buffers = new ReceiveBufferRing(config.maxDatagramBytes() + 1, DATAGRAMS_PER_READ);
        UdpOutbox out = new UdpOutbox(metrics);
        Bootstrap b = new Bootstrap()
                .group(group)
                .channelFactory(() -> new NioDatagramChannel(family))
                .option(ChannelOption.SO_RCVBUF, config.receiveBufferBytes())
                .option(ChannelOption.SO_SNDBUF, config.sendBufferBytes())
                .option(ChannelOption.RCVBUF_ALLOCATOR, buffers)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(config.sendQueueBytes() / 2, config.sendQueueBytes()))
                .handler(new ChannelInitializer<NioDatagramChannel>() {
                    @Override
                    protected void initChannel(NioDatagramChannel ch) {
                        initPipeline(ch.pipeline(), receiver, buffers, out);
                    }
                });
        ChannelFuture f = b.bind(bindTo).awaitUninterruptibly();
        if (!f.isSuccess()) {
            throw new IOException("cannot bind udp://" + hostPort(config.host(), config.port()) + ": " + f.cause(), f.cause());
        }
        Channel ch = f.channel();
        local = InetAddresses.toSubstrate(SubstrateAddress.Scheme.UDP, (InetSocketAddress) ch.localAddress());
        outbox = out;
        channel = ch;
        DatagramChannelConfig c = (DatagramChannelConfig) ch.config();
        LOG.debug("{} bound; SO_RCVBUF={} SO_SNDBUF={} (asked {} / {})", local, c.getReceiveBufferSize(),
                c.getSendBufferSize(), config.receiveBufferBytes(), config.sendBufferBytes());
    }

    private void initPipeline(ChannelPipeline p, FrameReceiver receiver, ReceiveBufferRing buffers, UdpOutbox out) {
        int bundleLimit = Math.min(config.bundleBytes(), config.maxDatagramBytes());
        // Outbound the outbox writes down through the codec; inbound frames pass the codec, the
        // classifier, then the delivery to the receiver.
        p.addLast("codec", new UdpBundleCodec(config.maxDatagramBytes(), bundleLimit, metrics, bundlesSent,
                bundlesReceived, isClosed));
        p.addLast("outbox", out);
        p.addLast("classifier", new UdpClassifier(receiver, config.receiveBufferBytes(), buffers, metrics,
                isClosed, this));
        p.addLast("delivery", new UdpDelivery(receiver, metrics, this));
    }

    /** SO_RCVBUF as granted by the kernel (Linux reports twice the usable size), or -1 before start. */
    public int effectiveReceiveBufferBytes() {
        Channel ch = channel;
        return ch == null ? -1 : ((DatagramChannelConfig) ch.config()).getReceiveBufferSize();
    }

    @Override
    public boolean send(SubstrateAddress to, ByteBuf frame) {
        Channel ch = channel;
        UdpOutbox out = outbox;
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
        } else if (!writable(ch, out, frame.readableBytes())) {
            drop = InterfaceMetrics.SendDrop.NOT_WRITABLE;
        }
        if (drop != null) {
            metrics.recordDrop(drop);
            frame.release();
            return false;
        }
        int size = frame.readableBytes();
        metrics.recordSent(size);
        out.offer(new DatagramPacket(frame, target));
        if (closed) {
            out.discard(); // raced with close(): nobody else will flush it
        }
        return true;
    }

    /** The event loop of the bound channel (every datagram is read there), or null before {@link #start}. */
    @Override
    public ScheduledExecutorService receiveExecutor() {
        Channel ch = channel;
        return ch == null ? null : ch.eventLoop();
    }

    private boolean writable(Channel ch, UdpOutbox out) {
        return ch.isWritable() && out.queuedBytes() < config.sendQueueBytes();
    }

    /**
     * Control-sized frames may use a reserve of an eighth of the queue beyond the limit, whatever
     * the channel's writability: a full queue of data must not cost the node its heartbeats and ACKs.
     */
    private boolean writable(Channel ch, UdpOutbox out, int size) {
        if (size <= FrameCodec.SMALL_FRAME_BYTES) {
            return out.queuedBytes() < config.sendQueueBytes() + config.sendQueueBytes() / 8;
        }
        return writable(ch, out);
    }

    @Override
    public boolean isWritable(SubstrateAddress to) {
        Channel ch = channel;
        return ch != null && !closed && writable(ch, outbox);
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
        UdpOutbox out = outbox;
        if (out != null) {
            out.discard();
        }
    }

    @Override
    public String toString() {
        return local.toString();
    }
}
