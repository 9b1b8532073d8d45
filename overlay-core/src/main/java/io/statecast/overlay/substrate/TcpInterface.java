package io.statecast.overlay.substrate;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.concurrent.ScheduledFuture;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.logging.RateLimitedLog;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TCP interface: length-prefixed frames over one reused connection per peer, on Netty NIO.
 *
 * <pre>
 * every frame on a connection:   +--------------------------+-----------------------+
 *                                | length n, u32, big end   | n bytes: one frame    |
 *                                +--------------------------+-----------------------+
 * first frame of a connection, from the side that opened it: a hello (see TcpHello) carrying
 * the opener's listening address tcp://host:port.
 * </pre>
 *
 * <p><b>Connections.</b> A send to a peer without a connection queues the frame and connects;
 * queued frames go out, in order, once the connection is up. An accepted connection is identified
 * by its hello, after which this side also sends to that peer over it. If both sides connect at
 * once, each keeps sending on the first connection it had; both connections deliver. A lost
 * connection is re-established on the next send, or at once if frames are queued; failed attempts
 * are retried after a backoff that doubles from {@link TcpConfig#reconnectBackoffMin()} to
 * {@link TcpConfig#reconnectBackoffMax()}; after {@link TcpConfig#maxConnectAttempts()} failures in
 * a row the queued frames are dropped (counted) and the next send starts over.
 *
 * <p><b>Bounds.</b> Per peer, at most {@link TcpConfig#maxQueuedFrames()} frames and
 * {@link TcpConfig#maxQueuedBytes()} bytes wait (while connecting, or while the connection's
 * outbound buffer is above {@link TcpConfig#writeBufferBytes()}); beyond that {@link #send} drops
 * and counts {@link InterfaceMetrics.SendDrop#QUEUE_FULL}. A peer whose length prefix exceeds
 * {@link TcpConfig#maxFrameBytes()}, whose first frame is not a valid hello, or who sends no
 * hello within {@link TcpConfig#helloTimeout()} is disconnected and counted; other peers are not
 * affected. At most {@link TcpConfig#maxPeers()} peers and {@link TcpConfig#maxInboundConnections()}
 * inbound connections are held.
 *
 * <p><b>Threading.</b> Received frames are delivered on the connection's event-loop thread.
 * {@link #send} may be called from any thread and never blocks; frames from one thread to one peer
 * leave in the order sent. The event-loop group is given (shared, not shut down here) or created
 * with one thread and shut down on {@link #close()}.
 */
public final class TcpInterface implements SubstrateInterface {

    private static final Logger LOG = LoggerFactory.getLogger(TcpInterface.class);
    private static final int LENGTH_BYTES = 4;
    private static final Duration VIOLATION_LOG_INTERVAL = Duration.ofSeconds(10);

    private static final int ACCEPTED = 0;
    private static final int DROPPED = 1;
    private static final int RETRY = 2;

    private final TcpConfig config;
    private final EventLoopGroup group;
    private final boolean ownsGroup;
    private final InterfaceMetrics metrics = new InterfaceMetrics();
    private final InetAddresses resolver = new InetAddresses();
    private final ConcurrentHashMap<SubstrateAddress, Peer> peers = new ConcurrentHashMap<>();
    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
    private final AtomicInteger inboundConnections = new AtomicInteger();
    private final LengthFieldPrepender prepender = new LengthFieldPrepender(LENGTH_BYTES);
    private final WriteBufferWaterMark waterMark;
    private final RateLimitedLog violationLog;
    private final ChannelFutureListener writeListener;
    private volatile Channel server;
    private volatile SubstrateAddress local;
    private volatile FrameReceiver receiver;
    private volatile boolean closed;

    /** An interface with its own one-thread event loop. */
    public TcpInterface(TcpConfig config) {
        this(config, null);
    }

    /**
     * @param config settings
     * @param group  event loops to run on (shared, not shut down by this interface), or
     *               {@code null} to create a one-thread group owned by this interface
     */
    public TcpInterface(TcpConfig config, EventLoopGroup group) {
        this.config = Objects.requireNonNull(config, "config");
        this.ownsGroup = group == null;
        this.group = group != null ? group : NettyLoops.newGroup("statecast-tcp");
        this.local = new SubstrateAddress(SubstrateAddress.Scheme.TCP, hostPort(config.host(), config.port()));
        this.waterMark = new WriteBufferWaterMark(config.writeBufferBytes() / 2, config.writeBufferBytes());
        this.violationLog = new RateLimitedLog(LOG, System::nanoTime, VIOLATION_LOG_INTERVAL, 1,
                InterfaceMetrics.ReceiveDrop.values().length);
        this.writeListener = f -> {
            if (!f.isSuccess()) {
                metrics.recordDrop(InterfaceMetrics.SendDrop.WRITE_FAILED);
            }
        };
    }

    private static String hostPort(String host, int port) {
        return (host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
    }

    /** The listening address once started (the configured one before). */
    @Override
    public SubstrateAddress localAddress() {
        return local;
    }

    @Override
    public SubstrateAddress.Scheme scheme() {
        return SubstrateAddress.Scheme.TCP;
    }

    /** The settings. */
    public TcpConfig config() {
        return config;
    }

    /**
     * Listens and starts accepting connections.
     *
     * @throws IOException           if the port cannot be bound
     * @throws IllegalStateException if already started or closed
     */
    @Override
    public synchronized void start(FrameReceiver receiver) throws IOException {
        Objects.requireNonNull(receiver, "receiver");
        if (closed || server != null) {
            throw new IllegalStateException("tcp interface " + local + " is " + (closed ? "closed" : "already started"));
        }
        this.receiver = receiver;
        InetSocketAddress bindTo = InetAddresses.resolveUncached(config.host(), config.port());
        ServerBootstrap b = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 256)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        acceptInbound(ch);
                    }
                });
        ChannelFuture f = b.bind(bindTo).awaitUninterruptibly();
        if (!f.isSuccess()) {
            throw new IOException("cannot listen on tcp://" + hostPort(config.host(), config.port()) + ": " + f.cause(), f.cause());
        }
        InetSocketAddress bound = (InetSocketAddress) f.channel().localAddress();
        local = new SubstrateAddress(SubstrateAddress.Scheme.TCP, hostPort(config.host(), bound.getPort()));
        server = f.channel();
    }

    private void acceptInbound(SocketChannel ch) {
        int n = inboundConnections.incrementAndGet();
        ch.closeFuture().addListener(f -> inboundConnections.decrementAndGet());
        if (closed || n > config.maxInboundConnections()) {
            metrics.record(InterfaceMetrics.ConnectionEvent.REFUSED_LIMIT);
            ch.close();
            return;
        }
        metrics.record(InterfaceMetrics.ConnectionEvent.ACCEPTED);
        track(ch);
        initPipeline(ch.pipeline(), new Connection(null));
    }

    private void track(Channel ch) {
        channels.add(ch);
        ch.closeFuture().addListener(f -> channels.remove(ch));
        if (closed) {
            ch.close(); // raced with close(): it may have missed this channel
        }
    }

    private void initPipeline(ChannelPipeline p, Connection connection) {
        // Senders on other threads flush every frame; coalesce those into one syscall per event-loop turn.
        p.addLast("flushConsolidation", new FlushConsolidationHandler(
                FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
        p.addLast("frameDecoder", new LengthFieldBasedFrameDecoder(
                config.maxFrameBytes() + LENGTH_BYTES, 0, LENGTH_BYTES, 0, LENGTH_BYTES, true));
        p.addLast("framePrepender", prepender);
        p.addLast("connection", connection);
    }

    @Override
    public boolean send(SubstrateAddress to, ByteBuf frame) {
        InterfaceMetrics.SendDrop drop = null;
        if (closed || server == null) {
            drop = InterfaceMetrics.SendDrop.CLOSED;
        } else if (to.scheme() != SubstrateAddress.Scheme.TCP) {
            drop = InterfaceMetrics.SendDrop.WRONG_SCHEME;
        } else if (frame.readableBytes() > config.maxFrameBytes()) {
            drop = InterfaceMetrics.SendDrop.TOO_LARGE;
        }
        while (drop == null) {
            Peer p = peers.get(to);
            if (p == null) {
                if (peers.size() >= config.maxPeers()) {
                    drop = InterfaceMetrics.SendDrop.PEER_LIMIT;
                    break;
                }
                InetSocketAddress inet = resolver.resolve(to);
                if (inet == null) {
                    drop = InterfaceMetrics.SendDrop.UNRESOLVED;
                    break;
                }
                p = peers.computeIfAbsent(to, a -> new Peer(a, inet));
            }
            int r = p.offer(frame);
            if (r != RETRY) {
                return r == ACCEPTED;
            }
        }
        metrics.recordDrop(drop);
        frame.release();
        return false;
    }

    /** True if a frame to {@code to} would now be written or queued rather than dropped for lack of room. */
    @Override
    public boolean isWritable(SubstrateAddress to) {
        if (closed || server == null) {
            return false;
        }
        Peer p = peers.get(to);
        return p == null ? peers.size() < config.maxPeers() : p.hasRoom();
    }

    /** Frames waiting in {@code peer}'s queue (0 if it has none). */
    public int queuedFrames(SubstrateAddress peer) {
        Peer p = peers.get(peer);
        return p == null ? 0 : p.queued();
    }

    /** Whether a connection to {@code peer} is up and used for sending. */
    public boolean isConnected(SubstrateAddress peer) {
        Peer p = peers.get(peer);
        return p != null && p.isConnected();
    }

    /** Peers currently tracked. */
    public int peerCount() {
        return peers.size();
    }

    /** Connections open (both directions). */
    public int connectionCount() {
        return channels.size();
    }

    @Override
    public InterfaceMetrics metrics() {
        return metrics;
    }

    /** Closes the listener and every connection, dropping queued frames (counted as closed). Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        NettyLoops.close(server);
        for (Peer p : new ArrayList<>(peers.values())) {
            p.shutdown();
        }
        peers.clear();
        List<ChannelFuture> closing = new ArrayList<>();
        for (Channel c : channels) {
            closing.add(c.close());
        }
        for (ChannelFuture f : closing) {
            if (!f.channel().eventLoop().inEventLoop()) {
                f.awaitUninterruptibly(5_000);
            }
        }
        if (ownsGroup) {
            NettyLoops.shutdown(group);
        }
    }

    @Override
    public String toString() {
        return local.toString();
    }

    private void violation(InterfaceMetrics.ReceiveDrop cause, Channel ch, String detail) {
        metrics.recordDrop(cause);
        metrics.record(InterfaceMetrics.ConnectionEvent.DISCONNECTED_PEER);
        violationLog.warn(cause.ordinal(), "disconnecting {}: {}", ch.remoteAddress(), detail);
        ch.close();
    }

    /** An inbound connection has identified itself as {@code address}. */
    private void onHello(Channel ch, Connection connection, SubstrateAddress address) {
        for (;;) {
            Peer p = peers.get(address);
            if (p == null) {
                if (closed || peers.size() >= config.maxPeers()) {
                    return; // the connection still delivers; this side just does not send on it
                }
                InetSocketAddress inet = InetAddresses.resolveUncached(address.host(), address.port());
                p = peers.computeIfAbsent(address, a -> new Peer(a, inet));
            }
            if (p.adoptInbound(ch, connection)) {
                return;
            }
        }
    }

    /**
     * One peer: its sending connection, its queue and its reconnection state, all guarded by the
     * peer's monitor. Writes from the queue happen in order; a direct write is only allowed while
     * the queue is empty, so frames never overtake queued ones.
     */
    private final class Peer {
        final SubstrateAddress address;
        final InetSocketAddress inet;
        private final ArrayDeque<ByteBuf> queue = new ArrayDeque<>();
        private long queuedBytes;
        private Channel active;
        private boolean connecting;
        private ScheduledFuture<?> retry;
        private int failures;
        private boolean drainScheduled;
        private boolean removed;

        Peer(SubstrateAddress address, InetSocketAddress inet) {
            this.address = address;
            this.inet = inet;
        }

        synchronized int offer(ByteBuf frame) {
            if (removed) {
                return RETRY;
            }
            if (closed) {
                metrics.recordDrop(InterfaceMetrics.SendDrop.CLOSED);
                frame.release();
                return DROPPED;
            }
            Channel ch = active;
            if (ch != null && !ch.isActive()) {
                active = null; // its close event may still be on the way
                ch = null;
            }
            int size = frame.readableBytes();
            if (ch != null && queue.isEmpty() && ch.isWritable()) {
                ch.writeAndFlush(frame).addListener(writeListener);
                metrics.recordSent(size);
                return ACCEPTED;
            }
            if (queue.size() >= config.maxQueuedFrames() || queuedBytes + size > config.maxQueuedBytes()) {
                metrics.recordDrop(InterfaceMetrics.SendDrop.QUEUE_FULL);
                frame.release();
                return DROPPED;
            }
            queue.add(frame);
            queuedBytes += size;
            if (ch == null) {
                if (!connecting && retry == null) {
                    connect();
                }
            } else if (ch.isWritable()) {
                scheduleDrain();
            }
            return ACCEPTED;
        }

        synchronized boolean hasRoom() {
            return queue.size() < config.maxQueuedFrames() && queuedBytes < config.maxQueuedBytes();
        }

        synchronized int queued() {
            return queue.size();
        }

        synchronized boolean isConnected() {
            return active != null && active.isActive();
        }

        /** Starts a connection attempt; caller holds the monitor. */
        private void connect() {
            connecting = true;
            Bootstrap b = new Bootstrap()
                    .group(group)
                    .channel(NioSocketChannel.class)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) config.connectTimeout().toMillis())
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.SO_KEEPALIVE, true)
                    .option(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            track(ch);
                            initPipeline(ch.pipeline(), new Connection(Peer.this));
                        }
                    });
            b.connect(inet).addListener((ChannelFutureListener) this::onConnect);
        }

        private synchronized void onConnect(ChannelFuture f) {
            connecting = false;
            if (!f.isSuccess()) {
                metrics.record(InterfaceMetrics.ConnectionEvent.CONNECT_FAILED);
                failures++;
                LOG.debug("connect to {} failed ({} in a row): {}", address, failures, f.cause().toString());
                if (closed || removed) {
                    return;
                }
                if (failures >= config.maxConnectAttempts()) {
                    discardQueue(InterfaceMetrics.SendDrop.CONNECT_FAILED);
                    failures = 0;
                    maybeRemove();
                } else if (queue.isEmpty()) {
                    maybeRemove();
                } else {
                    retry = group.next().schedule(this::retryConnect, backoffNanos(), TimeUnit.NANOSECONDS);
                }
                return;
            }
            Channel ch = f.channel();
            if (closed || removed) {
                ch.close();
                return;
            }
            metrics.record(InterfaceMetrics.ConnectionEvent.CONNECTED);
            failures = 0;
            if (!ch.isActive()) {
                // closed before this listener ran: its close event has already passed this peer by
                if (!queue.isEmpty()) {
                    connect();
                } else {
                    maybeRemove();
                }
                return;
            }
            ch.write(TcpHello.encode(ch.alloc(), local)); // a failure closes the connection
            if (active == null || !active.isActive()) {
                active = ch;
                drainLocked();
            } else {
                ch.flush(); // the peer connected to us meanwhile; keep that one for sending
            }
        }

        private long backoffNanos() {
            long min = config.reconnectBackoffMin().toNanos();
            long max = config.reconnectBackoffMax().toNanos();
            int shift = Math.min(failures - 1, 30);
            long d = min << shift;
            return d <= 0 || d > max ? max : d;
        }

        private synchronized void retryConnect() {
            retry = null;
            if (closed || removed) {
                return;
            }
            if (active != null && active.isActive()) {
                drainLocked();
            } else if (queue.isEmpty()) {
                maybeRemove();
            } else if (!connecting) {
                connect();
            }
        }

        /** An identified inbound connection; false if this peer was removed (look it up again). */
        synchronized boolean adoptInbound(Channel ch, Connection connection) {
            if (removed) {
                return false;
            }
            connection.peer = this;
            if (active == null || !active.isActive()) {
                active = ch;
                failures = 0;
                if (retry != null) {
                    retry.cancel(false);
                    retry = null;
                }
                drainLocked();
            }
            return true;
        }

        synchronized void channelClosed(Channel ch) {
            if (active != ch) {
                return;
            }
            active = null;
            if (closed || removed) {
                return;
            }
            if (!queue.isEmpty() && !connecting && retry == null) {
                connect();
            } else {
                maybeRemove();
            }
        }

        void scheduleDrain() {
            synchronized (this) {
                if (drainScheduled || active == null) {
                    return;
                }
                drainScheduled = true;
                try {
                    active.eventLoop().execute(this::drain);
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    drainScheduled = false; // the event loop is shutting down with the interface
                }
            }
        }

        private synchronized void drain() {
            drainScheduled = false;
            drainLocked();
        }

        /** Writes queued frames while the connection takes them; caller holds the monitor. */
        private void drainLocked() {
            Channel ch = active;
            if (ch == null) {
                return;
            }
            while (!queue.isEmpty() && ch.isWritable()) {
                ByteBuf f = queue.poll();
                int size = f.readableBytes();
                queuedBytes -= size;
                ch.write(f).addListener(writeListener);
                metrics.recordSent(size);
            }
            ch.flush();
        }

        private void maybeRemove() {
            if (active == null && !connecting && retry == null && queue.isEmpty()) {
                removed = true;
                peers.remove(address, this);
            }
        }

        private void discardQueue(InterfaceMetrics.SendDrop cause) {
            ByteBuf f;
            while ((f = queue.poll()) != null) {
                metrics.recordDrop(cause);
                f.release();
            }
            queuedBytes = 0;
        }

        synchronized void shutdown() {
            removed = true;
            if (retry != null) {
                retry.cancel(false);
                retry = null;
            }
            discardQueue(InterfaceMetrics.SendDrop.CLOSED);
            if (active != null) {
                active.close();
                active = null;
            }
        }
    }

    /** Handler at the end of every connection's pipeline. */
    private final class Connection extends ChannelInboundHandlerAdapter {
        /** The peer this connection belongs to; set at once for outbound, on hello for inbound. */
        volatile Peer peer;
        /** The peer's listening address; null on an inbound connection until its hello. */
        private SubstrateAddress remote;
        private ScheduledFuture<?> helloTimer;

        Connection(Peer peer) {
            this.peer = peer;
            this.remote = peer == null ? null : peer.address;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            if (remote == null) {
                helloTimer = ctx.executor().schedule(() -> {
                    if (remote == null && ctx.channel().isActive()) {
                        violation(InterfaceMetrics.ReceiveDrop.HELLO_TIMEOUT, ctx.channel(),
                                "no hello within " + config.helloTimeout().toMillis() + " ms");
                    }
                }, config.helloTimeout().toNanos(), TimeUnit.NANOSECONDS);
            }
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            if (remote == null) {
                SubstrateAddress hello;
                try {
                    hello = TcpHello.decode(frame);
                } catch (TcpHello.InvalidHello e) {
                    violation(InterfaceMetrics.ReceiveDrop.BAD_HELLO, ctx.channel(), e.getMessage());
                    return;
                } finally {
                    frame.release();
                }
                remote = hello;
                if (helloTimer != null) {
                    helloTimer.cancel(false);
                }
                onHello(ctx.channel(), this, hello);
                return;
            }
            FrameReceiver r = receiver;
            if (closed || r == null) {
                metrics.recordDrop(InterfaceMetrics.ReceiveDrop.CLOSED);
                frame.release();
                return;
            }
            metrics.recordReceived(frame.readableBytes());
            try {
                if (!r.onFrameChecked(frame, remote)) {
                    violation(InterfaceMetrics.ReceiveDrop.UNDECODABLE, ctx.channel(), "sent a frame that does not decode");
                }
            } catch (RuntimeException e) {
                metrics.recordDrop(InterfaceMetrics.ReceiveDrop.RECEIVER_ERROR);
                LOG.warn("frame receiver of {} threw", local, e);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof TooLongFrameException) {
                violation(InterfaceMetrics.ReceiveDrop.TOO_LARGE, ctx.channel(), cause.getMessage());
            } else if (cause instanceof DecoderException) {
                violation(InterfaceMetrics.ReceiveDrop.BAD_FRAMING, ctx.channel(), cause.toString());
            } else {
                LOG.debug("connection {} failed: {}", ctx.channel(), cause.toString());
                ctx.close();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            metrics.record(InterfaceMetrics.ConnectionEvent.CLOSED);
            if (helloTimer != null) {
                helloTimer.cancel(false);
            }
            Peer p = peer;
            if (p != null) {
                p.channelClosed(ctx.channel());
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            Peer p = peer;
            if (p != null && ctx.channel().isWritable()) {
                p.scheduleDrain();
            }
            ctx.fireChannelWritabilityChanged();
        }
    }
}
