package io.statecast.specserver;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.timeout.WriteTimeoutException;
import io.statecast.messagestore.deploy.SpecSignatures;
import io.statecast.messagestore.spec.SpecLimits;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one complete request at a time. Cheap answers (lists, health, 304, errors) are written
 * from the event loop; validation and disk work run on the bounded worker pool, whose result is
 * written back from the event loop. While a request is processed the connection reads nothing
 * (auto-read off), so a client cannot queue work.
 */
final class SpecRequestHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger LOG = LoggerFactory.getLogger(SpecRequestHandler.class);

    private final ServerContext context;
    private final Responses responses;
    private Exchange current;

    SpecRequestHandler(ServerContext context) {
        super(FullHttpRequest.class, true);
        this.context = context;
        this.responses = context.responses();
    }

    /**
     * One request being answered: sends exactly one response, whatever finishes first.
     *
     * <p>A write races the processing deadline through {@link #settle()}: either the deadline
     * settles first and the client gets 503 while nothing is written, or the worker settles first
     * and the client gets the write's real outcome, however long the disk takes. A 503 therefore
     * never hides a stored change.
     */
    private final class Exchange {
        private final ChannelHandlerContext ctx;
        private final AtomicBoolean settled = new AtomicBoolean();
        private boolean keepAlive;
        private boolean responded;
        private final ScheduledFuture<?> deadline;

        Exchange(ChannelHandlerContext ctx, boolean keepAlive) {
            this.ctx = ctx;
            this.keepAlive = keepAlive;
            long nanos = context.limits().processingTimeout().toNanos();
            this.deadline = ctx.executor().schedule(this::expire, nanos, TimeUnit.NANOSECONDS);
        }

        /** @return true for the one caller that decides the outcome: the deadline or a mutation */
        boolean settle() {
            return settled.compareAndSet(false, true);
        }

        private void expire() {
            if (!responded && settle()) {
                context.metrics().timeouts.increment();
                keepAlive = false;
                respond(responses.error(HttpResponseStatus.SERVICE_UNAVAILABLE, "request not processed within "
                        + context.limits().processingTimeout().toMillis() + " ms"));
            }
        }

        /** Writes the response; must run on the event loop. A second response, or null, is dropped. */
        void respond(FullHttpResponse response) {
            if (response == null) {
                return;
            }
            if (responded || !ctx.channel().isActive()) {
                response.release();
                return;
            }
            responded = true;
            deadline.cancel(false);
            if (current == this) {
                current = null;
            }
            response.headers().set(HttpHeaderNames.CONNECTION, keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(f -> {
                if (!f.isSuccess()) {
                    ctx.close();
                    return;
                }
                ctx.pipeline().fireUserEventTriggered(ResponseSent.INSTANCE);
                if (keepAlive) {
                    ctx.channel().config().setAutoRead(true);
                } else {
                    ctx.close();
                }
            });
        }

        /** Runs {@code task} on a worker and responds with its result from the event loop. */
        void respondFromWorker(Callable<FullHttpResponse> task) {
            try {
                context.workers().execute(() -> {
                    FullHttpResponse r = runTask(task);
                    try {
                        ctx.executor().execute(() -> respond(r));
                    } catch (RejectedExecutionException e) {
                        if (r != null) {
                            r.release(); // the server is shutting down
                        }
                    }
                });
            } catch (RejectedExecutionException e) {
                context.metrics().overloaded.increment();
                FullHttpResponse r = responses.error(HttpResponseStatus.SERVICE_UNAVAILABLE,
                        "too many requests in progress; retry later");
                r.headers().set(HttpHeaderNames.RETRY_AFTER, "1");
                respond(r);
            }
        }

        void abandon() {
            responded = true;
            deadline.cancel(false);
        }
    }

    private FullHttpResponse runTask(Callable<FullHttpResponse> task) {
        try {
            return task.call();
        } catch (Exception | LinkageError | AssertionError | StackOverflowError e) {
            context.metrics().internalErrors.increment();
            context.problemLog().warn(0, "request failed", e);
            // The cause stays in the log: it can name server paths the client has no business seeing.
            return responses.error(HttpResponseStatus.INTERNAL_SERVER_ERROR,
                    e instanceof IOException ? "storage error; see the server log" : "internal error; see the server log");
        }
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        context.metrics().requests.increment();
        ctx.channel().config().setAutoRead(false);
        Exchange exchange = new Exchange(ctx, HttpUtil.isKeepAlive(request));
        current = exchange;
        HttpMethod method = request.method();
        Route route = Route.of(request.uri());
        if (route instanceof Route.Unknown) {
            exchange.respond(responses.error(HttpResponseStatus.NOT_FOUND, "no such resource: " + pathOf(request.uri())));
            return;
        }
        if (route instanceof Route.BadServiceId bad) {
            exchange.respond(responses.error(HttpResponseStatus.BAD_REQUEST,
                    "'" + bad.segment() + "' is not a ServiceID: expected a decimal integer in [0, 2147483647] without sign or leading zeros"));
            return;
        }
        if (HttpMethod.OPTIONS.equals(method)) {
            FullHttpResponse r = responses.empty(HttpResponseStatus.NO_CONTENT);
            r.headers().set(HttpHeaderNames.ALLOW, route.allowHeader());
            exchange.respond(r);
            return;
        }
        if (!route.allowed().contains(method)) {
            FullHttpResponse r = responses.error(HttpResponseStatus.METHOD_NOT_ALLOWED, method + " is not supported here");
            r.headers().set(HttpHeaderNames.ALLOW, route.allowHeader());
            exchange.respond(r);
            return;
        }
        if (route instanceof Route.Index) {
            index(exchange, request.uri());
        } else if (route instanceof Route.CataloguePage page) {
            cataloguePage(exchange, page.serviceId());
        } else if (route instanceof Route.Health) {
            ObjectNode body = responses.json().createObjectNode();
            body.put("status", "ok");
            body.put("services", context.store().size());
            exchange.respond(responses.json(HttpResponseStatus.OK, body));
        } else if (route instanceof Route.ServiceList) {
            ArrayNode list = responses.json().createArrayNode();
            for (StoredSpec s : context.store().list()) {
                list.add(serviceJson(s));
            }
            exchange.respond(responses.json(HttpResponseStatus.OK, list));
        } else if (route instanceof Route.History h) {
            history(exchange, h.serviceId());
        } else if (route instanceof Route.Version v) {
            if (HttpMethod.POST.equals(method)) {
                SpecStore.Preconditions pre = new SpecStore.Preconditions(
                        EntityTags.parse(request.headers().get(HttpHeaderNames.IF_MATCH)),
                        EntityTags.parse(request.headers().get(HttpHeaderNames.IF_NONE_MATCH)));
                restore(exchange, v.serviceId(), v.sha256(), pre, actor(ctx, Optional.empty()));
            } else {
                version(exchange, v.serviceId(), v.sha256());
            }
        } else if (route instanceof Route.Service service) {
            int id = service.serviceId();
            SpecStore.Preconditions pre = new SpecStore.Preconditions(
                    EntityTags.parse(request.headers().get(HttpHeaderNames.IF_MATCH)),
                    EntityTags.parse(request.headers().get(HttpHeaderNames.IF_NONE_MATCH)));
            if (HttpMethod.PUT.equals(method)) {
                put(exchange, id, ByteBufUtil.getBytes(request.content()), pre, actor(ctx, Optional.empty()));
            } else if (HttpMethod.DELETE.equals(method)) {
                delete(exchange, id, pre, actor(ctx, Optional.empty()));
            } else {
                get(exchange, id, pre);
            }
        }
    }

    /** One page of the catalogue's list: reads at most servicesPerPage small files, draws nothing. */
    private void index(Exchange exchange, String uri) {
        List<StoredSpec> all = context.store().list();
        int perPage = context.limits().servicesPerPage();
        int pages = Math.max(1, (all.size() + perPage - 1) / perPage);
        Optional<Integer> page = pageNumber(uri, pages);
        if (page.isEmpty()) {
            exchange.respond(responses.error(HttpResponseStatus.NOT_FOUND,
                    "no such page: the catalogue has pages 1 to " + pages));
            return;
        }
        int from = (page.get() - 1) * perPage;
        List<StoredSpec> shown = all.subList(from, Math.min(all.size(), from + perPage));
        exchange.respondFromWorker(() -> responses.html(CataloguePages.list(shown, page.get(), pages, all.size(),
                context.catalogue()::summary)));
    }

    /** The {@code page} query parameter: absent is 1; anything but a number in [1, pages] is empty. */
    static Optional<Integer> pageNumber(String uri, int pages) {
        List<String> values;
        try {
            values = new QueryStringDecoder(uri).parameters().get("page");
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // bad percent-encoding
        }
        if (values == null || values.isEmpty()) {
            return Optional.of(1);
        }
        String v = values.get(0);
        if (v.isEmpty() || v.length() > 9 || !v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        int n = Integer.parseInt(v);
        return n >= 1 && n <= pages ? Optional.of(n) : Optional.empty();
    }

    /** One service's page: its description and diagram are read from the catalogue's files, never drawn here. */
    private void cataloguePage(Exchange exchange, int id) {
        Optional<StoredSpec> stored = context.store().find(id);
        if (stored.isEmpty()) {
            exchange.respond(notFound(id));
            return;
        }
        exchange.respondFromWorker(() -> responses.html(CataloguePages.service(stored.get(),
                context.catalogue().described(stored.get()))));
    }

    private void get(Exchange exchange, int id, SpecStore.Preconditions pre) {
        Optional<StoredSpec> stored = context.store().find(id);
        if (stored.isEmpty()) {
            exchange.respond(notFound(id));
            return;
        }
        if (pre.ifNoneMatch().isPresent() && pre.ifNoneMatch().get().matchesWeak(Optional.of(stored.get().etag()))) {
            exchange.respond(notModified(stored.get().etag()));
            return;
        }
        exchange.respondFromWorker(() -> {
            Optional<SpecStore.Document> doc = context.store().read(id);
            if (doc.isEmpty()) {
                return notFound(id);
            }
            String etag = EntityTags.of(doc.get().sha256());
            if (pre.ifNoneMatch().isPresent() && pre.ifNoneMatch().get().matchesWeak(Optional.of(etag))) {
                return notModified(etag);
            }
            FullHttpResponse r = responses.bytes(HttpResponseStatus.OK, Responses.SCXML_TYPE, doc.get().bytes());
            r.headers().set(HttpHeaderNames.ETAG, etag);
            return r;
        });
    }

    /** Who is writing: the token's identity and the client's address; the signer once known. */
    private SpecHistory.Actor actor(ChannelHandlerContext ctx, Optional<String> signedBy) {
        String from = ctx.channel().remoteAddress() instanceof java.net.InetSocketAddress a
                ? a.getAddress().getHostAddress() : String.valueOf(ctx.channel().remoteAddress());
        return new SpecHistory.Actor(context.auth().identity(), from, signedBy);
    }

    /**
     * With trusted keys: the refusal of a document not signed by one of them (403), or the
     * actor with the signer; without: the actor as it is.
     */
    private Object trust(byte[] document, int id, SpecHistory.Actor actor) {
        if (context.trustedKeys().isEmpty()) {
            return actor;
        }
        SpecSignatures.Verdict v = SpecSignatures.verify("service " + id, document, context.trustedKeys().get(),
                SpecLimits.DEFAULTS.withMaxBytes(context.limits().maxSpecBytes()));
        if (!v.valid()) {
            context.metrics().untrustedSpecs.increment();
            context.problemLog().warn(0, "refused a spec from {} ({}): {}", actor.from(), actor.who(), v.message());
            return responses.error(HttpResponseStatus.FORBIDDEN, "refused: " + v.message());
        }
        return new SpecHistory.Actor(actor.who(), actor.from(), v.keyId());
    }

    private void put(Exchange exchange, int id, byte[] body, SpecStore.Preconditions pre, SpecHistory.Actor who) {
        Optional<SpecStore.Outcome.PreconditionFailed> early = context.store().precheckPut(id, pre);
        if (early.isPresent()) {
            context.metrics().preconditionFailed.increment();
            exchange.respond(responses.error(HttpResponseStatus.PRECONDITION_FAILED, early.get().reason()));
            return;
        }
        exchange.respondFromWorker(() -> {
            Object trusted = trust(body, id, who);
            if (trusted instanceof FullHttpResponse refusal) {
                return refusal;
            }
            SpecHistory.Actor actor = (SpecHistory.Actor) trusted;
            SpecCheck.Validated validated = context.check().check(body);
            if (validated instanceof SpecCheck.Validated.Invalid invalid) {
                context.metrics().invalidSpecs.increment();
                return responses.problems(HttpResponseStatus.BAD_REQUEST, "the document is not a valid spec", invalid.problems());
            }
            SpecMetadata metadata = ((SpecCheck.Validated.Valid) validated).metadata();
            if (metadata.serviceId() != id) {
                context.metrics().invalidSpecs.increment();
                return responses.error(HttpResponseStatus.CONFLICT,
                        "the document declares ServiceID " + metadata.serviceId() + " but was sent to /services/" + id);
            }
            if (!exchange.settle()) {
                return null; // the client has been told 503; nothing may change behind that answer
            }
            SpecStore.Outcome outcome = context.store().put(metadata, body, pre, actor);
            if (outcome instanceof SpecStore.Outcome.Created created) {
                context.metrics().specsWritten.increment();
                context.catalogue().request(created.spec());
                LOG.info("created service {} ({}), {} bytes, {}", id, metadata.name(), body.length, created.spec().etag());
                FullHttpResponse r = responses.json(HttpResponseStatus.CREATED, serviceJson(created.spec()));
                r.headers().set(HttpHeaderNames.ETAG, created.spec().etag());
                r.headers().set(HttpHeaderNames.LOCATION, "/services/" + id);
                return r;
            }
            if (outcome instanceof SpecStore.Outcome.Replaced replaced) {
                context.metrics().specsWritten.increment();
                context.catalogue().request(replaced.spec());
                LOG.info("replaced service {} ({}), {} bytes, {}", id, metadata.name(), body.length, replaced.spec().etag());
                FullHttpResponse r = responses.json(HttpResponseStatus.OK, serviceJson(replaced.spec()));
                r.headers().set(HttpHeaderNames.ETAG, replaced.spec().etag());
                return r;
            }
            return writeRefusal(outcome);
        });
    }

    private void delete(Exchange exchange, int id, SpecStore.Preconditions pre, SpecHistory.Actor actor) {
        exchange.respondFromWorker(() -> {
            if (!exchange.settle()) {
                return null;
            }
            SpecStore.Outcome outcome = context.store().delete(id, pre, actor);
            if (outcome instanceof SpecStore.Outcome.Deleted deleted) {
                context.metrics().specsDeleted.increment();
                LOG.info("deleted service {} ({})", id, deleted.spec().metadata().name());
                return responses.empty(HttpResponseStatus.NO_CONTENT);
            }
            if (outcome instanceof SpecStore.Outcome.NotFound) {
                return notFound(id);
            }
            return writeRefusal(outcome);
        });
    }

    private void history(Exchange exchange, int id) {
        exchange.respondFromWorker(() -> {
            ObjectNode body = responses.json().createObjectNode();
            body.put("serviceId", id);
            Optional<StoredSpec> current = context.store().find(id);
            if (current.isPresent()) {
                body.put("current", current.get().sha256());
            } else {
                body.putNull("current");
            }
            ArrayNode versions = body.putArray("versions");
            for (SpecHistory.Version v : context.store().versions(id)) {
                ObjectNode o = versions.addObject();
                o.put("sha256", v.sha256());
                o.put("size", v.size());
                o.put("storedAt", v.storedAt().toString());
                o.put("current", current.isPresent() && current.get().sha256().equals(v.sha256()));
            }
            ArrayNode log = body.putArray("log");
            for (SpecHistory.Entry e : context.store().auditEntries(id)) {
                ObjectNode o = log.addObject();
                o.put("time", e.time().toString());
                o.put("action", e.action());
                o.put("sha256", e.sha256());
                o.put("size", e.size());
                o.put("who", e.actor().who());
                o.put("from", e.actor().from());
                if (e.actor().signedBy().isPresent()) {
                    o.put("signedBy", e.actor().signedBy().get());
                } else {
                    o.putNull("signedBy");
                }
            }
            if (current.isEmpty() && versions.isEmpty() && log.isEmpty()) {
                return notFound(id);
            }
            return responses.json(HttpResponseStatus.OK, body);
        });
    }

    private void version(Exchange exchange, int id, String sha256) {
        exchange.respondFromWorker(() -> {
            Optional<byte[]> doc = context.store().version(id, sha256);
            if (doc.isEmpty() || !SpecStore.sha256(doc.get()).equals(sha256)) {
                return responses.error(HttpResponseStatus.NOT_FOUND, "no version " + sha256 + " of service " + id);
            }
            FullHttpResponse r = responses.bytes(HttpResponseStatus.OK, Responses.SCXML_TYPE, doc.get());
            r.headers().set(HttpHeaderNames.ETAG, EntityTags.of(sha256));
            return r;
        });
    }

    private void restore(Exchange exchange, int id, String sha256, SpecStore.Preconditions pre, SpecHistory.Actor who) {
        exchange.respondFromWorker(() -> {
            Optional<byte[]> doc = context.store().version(id, sha256);
            if (doc.isEmpty() || !SpecStore.sha256(doc.get()).equals(sha256)) {
                return responses.error(HttpResponseStatus.NOT_FOUND, "no version " + sha256 + " of service " + id);
            }
            byte[] body = doc.get();
            Object trusted = trust(body, id, who);
            if (trusted instanceof FullHttpResponse refusal) {
                return refusal;
            }
            SpecHistory.Actor actor = (SpecHistory.Actor) trusted;
            SpecCheck.Validated validated = context.check().check(body);
            if (validated instanceof SpecCheck.Validated.Invalid invalid) {
                context.metrics().invalidSpecs.increment();
                return responses.problems(HttpResponseStatus.BAD_REQUEST, "the kept version is not a valid spec now",
                        invalid.problems());
            }
            SpecMetadata metadata = ((SpecCheck.Validated.Valid) validated).metadata();
            if (metadata.serviceId() != id) {
                context.metrics().invalidSpecs.increment();
                return responses.error(HttpResponseStatus.CONFLICT, "the kept version declares ServiceID "
                        + metadata.serviceId());
            }
            if (!exchange.settle()) {
                return null;
            }
            SpecStore.Outcome outcome = context.store().restore(metadata, body, pre, actor);
            StoredSpec stored;
            if (outcome instanceof SpecStore.Outcome.Created c) {
                stored = c.spec();
            } else if (outcome instanceof SpecStore.Outcome.Replaced r) {
                stored = r.spec();
            } else {
                return writeRefusal(outcome);
            }
            context.metrics().restores.increment();
            context.metrics().specsWritten.increment();
            context.catalogue().request(stored); // the restored version is described like an upload
            LOG.info("restored service {} ({}) to version {}", id, metadata.name(), sha256);
            FullHttpResponse r = responses.json(HttpResponseStatus.OK, serviceJson(stored));
            r.headers().set(HttpHeaderNames.ETAG, stored.etag());
            return r;
        });
    }

    private FullHttpResponse writeRefusal(SpecStore.Outcome outcome) {
        if (outcome instanceof SpecStore.Outcome.PreconditionFailed failed) {
            context.metrics().preconditionFailed.increment();
            return responses.error(HttpResponseStatus.PRECONDITION_FAILED, failed.reason());
        }
        if (outcome instanceof SpecStore.Outcome.Full full) {
            return responses.error(HttpResponseStatus.INSUFFICIENT_STORAGE,
                    "the server holds maxServices=" + full.maxServices() + " services; delete one first");
        }
        throw new IllegalStateException("unexpected outcome " + outcome);
    }

    private FullHttpResponse notFound(int id) {
        return responses.error(HttpResponseStatus.NOT_FOUND, "no service " + id);
    }

    private FullHttpResponse notModified(String etag) {
        FullHttpResponse r = responses.empty(HttpResponseStatus.NOT_MODIFIED);
        r.headers().remove(HttpHeaderNames.CONTENT_LENGTH);
        r.headers().set(HttpHeaderNames.ETAG, etag);
        return r;
    }

    private ObjectNode serviceJson(StoredSpec s) {
        ObjectNode o = responses.json().createObjectNode();
        o.put("serviceId", s.serviceId());
        o.put("name", s.metadata().name());
        o.put("scope", s.metadata().scope());
        o.put("sha256", s.sha256());
        o.put("size", s.size());
        o.put("storedAt", s.storedAt().toString());
        return o;
    }

    private static String pathOf(String uri) {
        int q = uri.indexOf('?');
        String path = q < 0 ? uri : uri.substring(0, q);
        return path.length() > 200 ? path.substring(0, 200) + "..." : path;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == ResponseSent.INSTANCE) {
            return; // ours; it has done its work upstream
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (current != null) {
            current.abandon();
            current = null;
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof WriteTimeoutException) {
            context.metrics().timeouts.increment();
            LOG.debug("connection {} did not take its response in time", ctx.channel().remoteAddress());
        } else if (cause instanceof IOException || cause instanceof PrematureChannelClosureException
                || cause instanceof io.netty.handler.ssl.NotSslRecordException
                || cause.getCause() instanceof javax.net.ssl.SSLException) {
            LOG.debug("connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
        } else if (cause instanceof DecoderException) {
            // The client's bytes, not the server: e.g. more than the codec's 128 requests pipelined in one read.
            context.metrics().malformedRequests.increment();
            context.problemLog().warn(0, "malformed HTTP from {}: {}", ctx.channel().remoteAddress(),
                    RequestGate.printable(String.valueOf(cause.getCause() != null ? cause.getCause() : cause)));
        } else {
            context.metrics().internalErrors.increment();
            context.problemLog().warn(0, "closing connection {} after an error", ctx.channel().remoteAddress(), cause);
        }
        ctx.close();
    }
}
