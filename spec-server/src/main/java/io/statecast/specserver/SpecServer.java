package io.statecast.specserver;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.timeout.WriteTimeoutHandler;
import javax.net.ssl.SSLException;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.statecast.overlay.logging.RateLimitedLog;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The <em>Services Server</em> of the blueprint (§5.2.1): an HTTP/1.1 server that stores executable
 * specs by ServiceID, validates every upload, and serves them to overlay nodes that meet an
 * unknown ServiceID.
 *
 * <pre>{@code
 * try (SpecServer server = SpecServer.start(SpecServerConfig.secured(dir, token), new MessageStoreSpecCheck(1 << 20))) {
 *     URI base = server.baseUri();   // http://127.0.0.1:<port>/
 *     ...
 * }
 * }</pre>
 *
 * <p>API (see {@code docs/spec-server.md}): {@code GET /} and {@code GET /catalogue/{id}} (the HTML
 * catalogue), {@code GET /health},
 * {@code GET /services}, {@code GET|PUT|DELETE /services/{id}}. Storage is described by the
 * package-private {@code SpecStore}: one file per service, written atomically, re-validated at
 * start. Request pipeline, from the socket inwards:
 *
 * <pre>
 *   connection limits (503 and close when over maxConnections or maxConnectionsPerAddress; with TLS: close)
 *   SslHandler                     with TLS only; handshake within requestTimeout
 *   WriteTimeoutHandler            a response must drain within requestTimeout
 *   HttpServerCodec                bounded request line and headers
 *   RequestTimeoutHandler          a head within headerTimeout (close), a whole request within requestTimeout (408 / close)
 *   RequestGate                    400/414/431/401/413 from the head, one request at a time
 *   SpecAggregator                 body bounded by maxSpecBytes (413 for chunked)
 *   SpecRequestHandler             routing; validation and disk on the worker pool
 * </pre>
 */
public final class SpecServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SpecServer.class);

    private static final String REFUSED_BODY = "{\"status\":503,\"error\":\"too many connections; retry later\"}";
    private static final byte[] REFUSED = ("HTTP/1.1 503 Service Unavailable\r\n"
            + "Content-Type: application/json; charset=utf-8\r\nRetry-After: 1\r\nConnection: close\r\n"
            + "Content-Length: " + REFUSED_BODY.length() + "\r\n\r\n" + REFUSED_BODY).getBytes(StandardCharsets.US_ASCII);

    private final SpecServerConfig config;
    private final SpecStore store;
    private final SpecServerMetrics metrics;
    private final ThreadPoolExecutor workers;
    private final EventLoopGroup bossGroup;
    private final EventLoopGroup ioGroup;
    private final Channel serverChannel;
    private final InetSocketAddress address;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Catalogue catalogue;
    private final ConnectionLimiter connections;

    private SpecServer(SpecServerConfig config, SpecStore store, SpecServerMetrics metrics, ThreadPoolExecutor workers,
                       EventLoopGroup bossGroup, EventLoopGroup ioGroup, ServerBootstrap bootstrap, Catalogue catalogue,
                       ConnectionLimiter connections) throws InterruptedException {
        this.connections = connections;
        this.catalogue = catalogue;
        this.config = config;
        this.store = store;
        this.metrics = metrics;
        this.workers = workers;
        this.bossGroup = bossGroup;
        this.ioGroup = ioGroup;
        this.serverChannel = bootstrap.bind(config.bindAddress(), config.port()).sync().channel();
        this.address = (InetSocketAddress) serverChannel.localAddress();
    }

    /**
     * Opens the store (cleaning, re-validating and quarantining as described in
     * {@code docs/spec-server.md}) and starts listening.
     *
     * @param config where and how to run
     * @param check the validation applied to every upload and every stored document
     * @return the running server
     * @throws SpecServerException when the directory cannot be used or the address cannot be bound
     */
    public static SpecServer start(SpecServerConfig config, SpecCheck check) throws SpecServerException {
        SpecServerLimits limits = config.limits();
        SpecStore store;
        try {
            store = SpecStore.open(config.directory(), check, limits.maxSpecBytes(), limits.maxServices(), Clock.systemUTC());
        } catch (IOException e) {
            throw new SpecServerException("cannot use spec directory " + config.directory() + ": " + e.getMessage(), e);
        }
        SpecServerMetrics metrics = new SpecServerMetrics();
        ThreadPoolExecutor workers = new ThreadPoolExecutor(limits.workerThreads(), limits.workerThreads(),
                60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(limits.workerQueue()),
                new DefaultThreadFactory("spec-server-worker", true), new ThreadPoolExecutor.AbortPolicy());
        RateLimitedLog problemLog = new RateLimitedLog(LOG, System::nanoTime, Duration.ofSeconds(10), 10, 1);
        ObjectMapper json = new ObjectMapper();
        Catalogue catalogue;
        try {
            catalogue = Catalogue.open(store, json, problemLog, limits.maxSpecBytes(), limits.maxServices());
        } catch (IOException e) {
            workers.shutdownNow();
            try {
                store.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new SpecServerException("cannot use the catalogue directory in " + config.directory() + ": " + e.getMessage(), e);
        }
        ServerContext context = new ServerContext(store, check, limits, new BearerAuth(config.token()),
                new Responses(json), metrics, workers, problemLog, catalogue, config.trustedKeys());
        EventLoopGroup boss = new NioEventLoopGroup(1, new DefaultThreadFactory("spec-server-accept", true));
        EventLoopGroup io = new NioEventLoopGroup(2, new DefaultThreadFactory("spec-server-io", true));
        ConnectionLimiter open = new ConnectionLimiter(limits.maxConnections(), limits.maxConnectionsPerAddress());
        SslContext tls = null;
        if (config.tls().isPresent()) {
            SpecServerConfig.Tls t = config.tls().get();
            try {
                tls = SslContextBuilder.forServer(t.certificateChain().toFile(), t.privateKey().toFile())
                        .sslProvider(SslProvider.JDK).build();
            } catch (SSLException | IllegalArgumentException e) {
                shutdown(boss, io, workers);
                catalogue.close();
                try {
                    store.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw new SpecServerException("cannot use TLS certificate " + t.certificateChain() + " and key "
                        + t.privateKey() + ": " + rootMessage(e), e);
            }
        }
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(boss, io)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 128)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new Initializer(context, open, tls));
        try {
            SpecServer server = new SpecServer(config, store, metrics, workers, boss, io, bootstrap, catalogue, open);
            if (config.token().isPresent() && config.tls().isEmpty()
                    && !server.address.getAddress().isLoopbackAddress()) {
                LOG.warn("spec server on {} takes its token over plain HTTP: anyone on the path can read it; "
                        + "give --tls-cert and --tls-key (docs/security.md)", server.address);
            }
            if (config.insecure()) {
                LOG.warn("spec server on {} is INSECURE: anyone who can reach it can replace or delete specs", server.address);
            }
            LOG.info("spec server listening on {} with {} services from {}", server.address, store.size(), store.directory());
            return server;
        } catch (Exception e) {
            shutdown(boss, io, workers);
            catalogue.close();
            try {
                store.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new SpecServerException("cannot listen on " + config.bindAddress() + ":" + config.port() + ": " + e.getMessage(), e);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t.getMessage() + ")";
    }

    /** Builds each connection's pipeline, or refuses the connection when too many are open. */
    private static final class Initializer extends ChannelInitializer<SocketChannel> {
        private final ServerContext context;
        private final ConnectionLimiter open;
        private final SslContext tls;

        Initializer(ServerContext context, ConnectionLimiter open, SslContext tls) {
            this.context = context;
            this.open = open;
            this.tls = tls;
        }

        @Override
        protected void initChannel(SocketChannel ch) {
            SpecServerLimits limits = context.limits();
            SocketAddress remote = ch.remoteAddress();
            ConnectionLimiter.Admission admission = open.acquire(remote);
            if (admission != ConnectionLimiter.Admission.ADMITTED) {
                context.metrics().connectionsRefused.increment();
                if (admission == ConnectionLimiter.Admission.ADDRESS_FULL) {
                    context.metrics().connectionsRefusedPerAddress.increment();
                    context.problemLog().warn(0, "refused connection from {}: maxConnectionsPerAddress={} reached",
                            remote, limits.maxConnectionsPerAddress());
                } else {
                    context.problemLog().warn(0, "refused connection from {}: maxConnections={} reached", remote, limits.maxConnections());
                }
                if (tls != null) {
                    ch.close(); // a plain-text 503 means nothing to a TLS client, and a handshake costs what the limit saves
                } else {
                    ch.pipeline().addLast(new Refuse());
                }
                return;
            }
            ch.closeFuture().addListener(f -> open.release(remote));
            long timeoutMs = limits.requestTimeout().toMillis();
            HttpDecoderConfig decoder = new HttpDecoderConfig()
                    // method and version need at most ~20 bytes; the target is checked exactly by the gate
                    .setMaxInitialLineLength(limits.maxUriBytes() + 32)
                    .setMaxHeaderSize(limits.maxHeaderBytes())
                    .setMaxChunkSize(8192);
            ChannelPipeline p = ch.pipeline();
            if (tls != null) {
                SslHandler ssl = tls.newHandler(ch.alloc());
                ssl.setHandshakeTimeoutMillis(timeoutMs);
                p.addLast("tls", ssl);
            }
            p.addLast("write-timeout", new WriteTimeoutHandler(timeoutMs, TimeUnit.MILLISECONDS));
            p.addLast("http", new HttpServerCodec(decoder));
            p.addLast("request-timeout", new RequestTimeoutHandler(context));
            p.addLast("gate", new RequestGate(context));
            p.addLast("aggregate", new SpecAggregator(context));
            p.addLast("handler", new SpecRequestHandler(context));
        }
    }

    /** Answers a connection over the limit with a fixed 503 and closes it, reading nothing. */
    private static final class Refuse extends ChannelInboundHandlerAdapter {
        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            ctx.channel().config().setAutoRead(false);
            ctx.writeAndFlush(Unpooled.wrappedBuffer(REFUSED)).addListener(ChannelFutureListener.CLOSE);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** @return the address the server listens on (with the real port when 0 was configured) */
    public InetSocketAddress address() {
        return address;
    }

    /** @return {@code http://host:port/}, or {@code https://host:port/} with TLS */
    public URI baseUri() {
        String host = address.getAddress().getHostAddress();
        if (host.indexOf(':') >= 0) {
            host = "[" + host + "]";
        }
        return URI.create((config.tls().isPresent() ? "https" : "http") + "://" + host + ":" + address.getPort() + "/");
    }

    /** @return the configuration the server runs with */
    public SpecServerConfig config() {
        return config;
    }

    /** @return the stored services, by ascending ServiceID */
    public List<StoredSpec> services() {
        return store.list();
    }

    /** @return files moved to quarantine when the server started */
    public List<Path> quarantined() {
        return store.quarantined();
    }

    /** @return the descriptions and diagrams of the HTML catalogue (for tests of its cost) */
    Catalogue catalogue() {
        return catalogue;
    }

    /** @return connections open now (admitted, not yet closed) */
    int openConnections() {
        return connections.open();
    }

    /** @return the server's counters */
    public SpecServerMetrics metrics() {
        return metrics;
    }

    /**
     * Blocks until {@link #close()} has completed.
     *
     * @throws InterruptedException when interrupted while waiting
     */
    public void awaitClose() throws InterruptedException {
        closed.await();
    }

    /** Stops accepting, closes connections, waits briefly for workers and releases the directory. Idempotent. */
    @Override
    public void close() {
        if (closed.getCount() == 0) {
            return;
        }
        synchronized (this) {
            if (closed.getCount() == 0) {
                return;
            }
            try {
                serverChannel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
                shutdown(bossGroup, ioGroup, workers);
                catalogue.close();
                try {
                    store.close();
                } catch (IOException e) {
                    LOG.warn("cannot release the lock on {}: {}", store.directory(), e.toString());
                }
                LOG.info("spec server on {} stopped", address);
            } finally {
                closed.countDown();
            }
        }
    }

    private static void shutdown(EventLoopGroup boss, EventLoopGroup io, ThreadPoolExecutor workers) {
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        io.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        workers.shutdown();
        try {
            // Let a write that is already renaming finish, so the store is closed after it.
            if (!workers.awaitTermination(5, TimeUnit.SECONDS)) {
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
