package io.statecast.overlay.substrate;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.statecast.overlay.address.AddressRepository;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.logging.RateLimitedLog;
import io.statecast.overlay.message.DecodeException;
import io.statecast.overlay.message.MessageCodec;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.ProtocolMessage;
import io.statecast.overlay.message.WireMessage;
import io.statecast.overlay.security.FrameAuthenticator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blueprint's <em>adapter</em>: the overlay socket's one door to its substrate networks. It
 * owns the substrate interfaces (at most one per scheme), the codec, the <em>address
 * repository</em> and the <em>timer thread</em> ({@link TimerService}) every layer of the node
 * uses.
 *
 * <p><b>Receiving.</b> Every frame an interface delivers is bound-checked (empty or larger than the
 * codec's maximum: dropped without decoding), decoded, released, and handed to the
 * {@link AdapterListener}: protocol messages to {@link AdapterListener#onProtocolMessage}, application
 * messages to {@link AdapterListener#onApplicationMessage} (the blueprint's two buffers become two
 * calls; the layers above queue as they need). A frame that is neither a protocol frame by its
 * header nor small ({@value FrameCodec#SMALL_FRAME_BYTES} bytes or less: services' ACKs, NACKs and requests)
 * counts as bulk ({@link FrameReceiver#isBulk}): an interface may let the others overtake it and
 * shed it first under overload. Malformed frames are dropped, counted by
 * {@link DecodeException.Reason} in {@link #metrics()}, and logged at most once per cause per
 * {@link AdapterConfig#dropLogInterval()}. With a {@link FrameAuthenticator}, every frame is
 * verified (MAC, key id, replay window) before it is decoded and sealed after it is encoded; a
 * frame that fails is dropped and counted by cause ({@code auth_*} in {@link AdapterMetrics.ReceiveDrop}).
 * An exception thrown by the listener is counted and
 * logged the same way and never reaches the interface's I/O thread.
 *
 * <p><b>Threading.</b> The listener is called on the interface's I/O thread (a Netty event loop)
 * or, for the in-memory substrate, the simulation's timer thread: it must not block. {@link #send}
 * may be called from any thread and never blocks.
 *
 * <p><b>Buffers.</b> Outgoing frames are encoded into buffers of the pooled allocator; the
 * interface releases them. Received frames are released by the adapter once decoded.
 */
public final class Adapter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Adapter.class);

    private static final int NOT_STARTED = 0;
    private static final int STARTED = 1;
    private static final int CLOSED = 2;

    /** Rate-limited log keys: decode reasons first, then the adapter's own. */
    private static final int LOG_CODEC_FAILURE = DecodeException.Reason.values().length;
    private static final int LOG_LISTENER = LOG_CODEC_FAILURE + 1;
    private static final int LOG_ENCODE = LOG_LISTENER + 1;
    /** One key per {@link FrameAuthenticator.Verdict}, OK's unused. */
    private static final int LOG_AUTH = LOG_ENCODE + 1;
    private static final int LOG_KEYS = LOG_AUTH + FrameAuthenticator.Verdict.values().length;

    private final FrameCodec codec;
    /** Seals and verifies frames, or null for an overlay without frame authentication. */
    private final FrameAuthenticator auth;
    /** Bytes the authenticator adds to each frame (0 without one). */
    private final int trailerBytes;
    private final TimerService timers;
    private final List<SubstrateInterface> interfaces;
    private final Map<SubstrateAddress.Scheme, SubstrateInterface> byScheme;
    private final AddressRepository addressRepository;
    private final AdapterMetrics metrics = new AdapterMetrics();
    private final RateLimitedLog dropLog;
    private final ByteBufAllocator allocator = PooledByteBufAllocator.DEFAULT;
    private final AtomicInteger state = new AtomicInteger(NOT_STARTED);
    private volatile AdapterListener listener;

    /**
     * An adapter with a new {@link AddressRepository} and {@link AdapterConfig#defaults()}.
     *
     * @param codec      encodes outgoing and decodes incoming frames
     * @param timers     the timer service every layer of this node uses (not closed by the adapter)
     * @param interfaces the substrate interfaces, at least one, at most one per scheme; the
     *                   adapter starts and closes them
     */
    public Adapter(MessageCodec codec, TimerService timers, List<SubstrateInterface> interfaces) {
        this(codec, timers, interfaces, new AddressRepository(), AdapterConfig.defaults());
    }

    /**
     * @param codec             encodes outgoing and decodes incoming frames
     * @param timers            the timer service every layer of this node uses; whoever created it
     *                          closes it (nodes of a simulation share one)
     * @param interfaces        the substrate interfaces, at least one, at most one per scheme
     * @param addressRepository the address bindings this node's layers share
     * @param config            settings
     */
    public Adapter(MessageCodec codec, TimerService timers, List<SubstrateInterface> interfaces,
            AddressRepository addressRepository, AdapterConfig config) {
        this(FrameCodec.of(Objects.requireNonNull(codec, "codec")), timers, interfaces, addressRepository, config, null);
    }

    /**
     * An adapter that authenticates every frame: each frame sent is sealed by {@code auth}, each
     * frame received is verified before it is decoded; frames that fail are dropped and counted
     * ({@link AdapterMetrics.ReceiveDrop}). A frame is then at most the codec's maximum plus
     * {@link FrameAuthenticator#TRAILER_BYTES}.
     *
     * @param codec             encodes outgoing and decodes incoming frames
     * @param timers            the timer service every layer of this node uses
     * @param interfaces        the substrate interfaces, at least one, at most one per scheme
     * @param addressRepository the address bindings this node's layers share
     * @param config            settings
     * @param auth              seals and verifies frames; {@code null} for none
     */
    public Adapter(MessageCodec codec, TimerService timers, List<SubstrateInterface> interfaces,
            AddressRepository addressRepository, AdapterConfig config, FrameAuthenticator auth) {
        this(FrameCodec.of(Objects.requireNonNull(codec, "codec")), timers, interfaces, addressRepository, config, auth);
    }

    Adapter(FrameCodec codec, TimerService timers, List<SubstrateInterface> interfaces,
            AddressRepository addressRepository, AdapterConfig config) {
        this(codec, timers, interfaces, addressRepository, config, null);
    }

    Adapter(FrameCodec codec, TimerService timers, List<SubstrateInterface> interfaces,
            AddressRepository addressRepository, AdapterConfig config, FrameAuthenticator auth) {
        this.codec = Objects.requireNonNull(codec, "codec");
        this.auth = auth;
        this.trailerBytes = auth == null ? 0 : FrameAuthenticator.TRAILER_BYTES;
        this.timers = Objects.requireNonNull(timers, "timers");
        this.addressRepository = Objects.requireNonNull(addressRepository, "addressRepository");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(interfaces, "interfaces");
        if (interfaces.isEmpty()) {
            throw new IllegalArgumentException("an adapter needs at least one substrate interface");
        }
        this.interfaces = List.copyOf(interfaces);
        this.byScheme = new EnumMap<>(SubstrateAddress.Scheme.class);
        for (SubstrateInterface i : this.interfaces) {
            SubstrateInterface previous = byScheme.put(i.scheme(), i);
            if (previous != null) {
                throw new IllegalArgumentException("two interfaces of scheme " + i.scheme().uriScheme()
                        + " (" + previous + ", " + i + "); an adapter has at most one per scheme");
            }
        }
        this.dropLog = new RateLimitedLog(LOG, timers::nanoTime, config.dropLogInterval(), 1, LOG_KEYS);
    }

    /**
     * Starts every interface; decoded messages go to {@code listener} from then on. If an
     * interface fails to start, the ones already started are closed and the adapter is closed.
     *
     * @throws IOException           if an interface cannot bind
     * @throws IllegalStateException if already started or closed
     */
    public void start(AdapterListener listener) throws IOException {
        Objects.requireNonNull(listener, "listener");
        if (!state.compareAndSet(NOT_STARTED, STARTED)) {
            throw new IllegalStateException("adapter already " + (state.get() == STARTED ? "started" : "closed"));
        }
        this.listener = listener; // before any interface starts, so no frame can miss it
        try {
            for (SubstrateInterface i : interfaces) {
                i.start(new FrameReceiver() {
                    @Override
                    public void onFrame(ByteBuf frame, SubstrateAddress from) {
                        receive(frame, from);
                    }

                    @Override
                    public boolean onFrameChecked(ByteBuf frame, SubstrateAddress from) {
                        return receive(frame, from);
                    }

                    @Override
                    public boolean isBulk(ByteBuf frame) {
                        return Adapter.isBulk(codec, frame, trailerBytes);
                    }
                });
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The local substrate addresses, one per interface in construction order (ports resolved once started). */
    public List<SubstrateAddress> localAddresses() {
        List<SubstrateAddress> out = new ArrayList<>(interfaces.size());
        for (SubstrateInterface i : interfaces) {
            out.add(i.localAddress());
        }
        return List.copyOf(out);
    }

    /** The local substrate address of scheme {@code scheme}, or {@code null} if there is no such interface. */
    public SubstrateAddress localAddress(SubstrateAddress.Scheme scheme) {
        SubstrateInterface i = byScheme.get(scheme);
        return i == null ? null : i.localAddress();
    }

    /**
     * The one thread every received frame arrives on: the receive executor of the only
     * interface, or {@code null} with several interfaces (each reads on its own thread) or one
     * without (see {@link SubstrateInterface#receiveExecutor}).
     */
    public ScheduledExecutorService receiveExecutor() {
        return interfaces.size() == 1 ? interfaces.get(0).receiveExecutor() : null;
    }

    /** The interfaces, in construction order. */
    public List<SubstrateInterface> interfaces() {
        return interfaces;
    }

    /**
     * Encodes {@code message} into a pooled buffer and hands it to the interface of {@code to}'s
     * scheme. Never blocks.
     *
     * @return false if the message was dropped (counted in {@link #metrics()} by cause)
     */
    public boolean send(SubstrateAddress to, WireMessage message) {
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(message, "message");
        if (state.get() != STARTED) {
            metrics.recordDrop(AdapterMetrics.SendDrop.CLOSED);
            return false;
        }
        SubstrateInterface iface = byScheme.get(to.scheme());
        if (iface == null) {
            metrics.recordDrop(AdapterMetrics.SendDrop.NO_INTERFACE);
            return false;
        }
        ByteBuf frame;
        try {
            int size = codec.encodedSize(message);
            if (size > codec.maxFrameBytes()) {
                metrics.recordDrop(AdapterMetrics.SendDrop.TOO_LARGE);
                return false;
            }
            frame = allocator.ioBuffer(size + trailerBytes, size + trailerBytes);
            try {
                codec.encode(message, frame);
                if (auth != null) {
                    auth.seal(frame, isBulk(codec, frame, 0));
                }
            } catch (RuntimeException e) {
                frame.release();
                throw e;
            }
        } catch (RuntimeException e) {
            metrics.recordDrop(AdapterMetrics.SendDrop.ENCODE_FAILED);
            dropLog.warn(LOG_ENCODE, "codec refused to encode {}: {}", message, e.toString());
            LOG.debug("encode failure", e);
            return false;
        }
        if (!iface.send(to, frame)) {
            metrics.recordDrop(AdapterMetrics.SendDrop.INTERFACE_REFUSED);
            return false;
        }
        metrics.recordSent();
        return true;
    }

    /** Whether the interface for {@code to} would now accept a frame (see {@link SubstrateInterface#isWritable}). */
    public boolean isWritable(SubstrateAddress to) {
        SubstrateInterface iface = byScheme.get(to.scheme());
        return iface != null && state.get() == STARTED && iface.isWritable(to);
    }

    /** The timer service. */
    public TimerService timers() {
        return timers;
    }

    /** The address bindings of this node. */
    public AddressRepository addressRepository() {
        return addressRepository;
    }

    /** The adapter's counters. */
    public AdapterMetrics metrics() {
        return metrics;
    }

    /** Whether {@link #start} succeeded and {@link #close} has not been called. */
    public boolean isRunning() {
        return state.get() == STARTED;
    }

    /** Closes every interface (not the timer service). Idempotent. */
    @Override
    public void close() {
        if (state.getAndSet(CLOSED) == CLOSED) {
            return;
        }
        for (SubstrateInterface i : interfaces) {
            try {
                i.close();
            } catch (RuntimeException e) {
                LOG.warn("closing interface {} failed", i, e);
            }
        }
    }

    /**
     * Whether an interface may let other frames overtake {@code frame} and shed it first.
     *
     * @param trailerBytes bytes of authentication trailer at the frame's end (not counted in its size)
     */
    static boolean isBulk(FrameCodec codec, ByteBuf frame, int trailerBytes) {
        return frame.readableBytes() - trailerBytes > FrameCodec.SMALL_FRAME_BYTES && !codec.isControlFrame(frame);
    }

    /** As {@link #isBulk(FrameCodec, ByteBuf, int)} for a frame without a trailer. */
    static boolean isBulk(FrameCodec codec, ByteBuf frame) {
        return isBulk(codec, frame, 0);
    }

    /**
     * Receives one frame from any interface. Never throws; releases {@code frame}.
     *
     * @return false if the frame failed verification or did not decode (a stream interface then
     *         drops the connection)
     */
    private boolean receive(ByteBuf frame, SubstrateAddress from) {
        WireMessage message;
        try {
            int size = frame.readableBytes();
            if (size == 0) {
                drop(new DecodeException(DecodeException.Reason.TRUNCATED, 0, "empty frame"), from);
                return false;
            }
            if (size > codec.maxFrameBytes() + trailerBytes) {
                drop(new DecodeException(DecodeException.Reason.TOO_LARGE, 0,
                        "frame of " + size + " bytes exceeds the maximum of " + (codec.maxFrameBytes() + trailerBytes)), from);
                return false;
            }
            if (auth != null) {
                FrameAuthenticator.Verdict verdict = auth.verify(frame);
                if (verdict != FrameAuthenticator.Verdict.OK) {
                    refuse(verdict, from);
                    return false;
                }
            }
            message = codec.decode(frame);
        } catch (DecodeException e) {
            drop(e, from);
            return false;
        } catch (RuntimeException e) {
            metrics.recordDrop(AdapterMetrics.ReceiveDrop.CODEC_FAILURE);
            dropLog.warn(LOG_CODEC_FAILURE, "codec failed on a frame from {}: {}", from, e.toString());
            return false;
        } finally {
            frame.release();
        }
        AdapterListener l = listener;
        if (state.get() != STARTED || l == null) {
            return true; // closing: the message is not wanted any more
        }
        try {
            if (message instanceof ProtocolMessage p) {
                metrics.recordProtocolReceived();
                l.onProtocolMessage(p, from);
            } else if (message instanceof OverlayMessage m) {
                metrics.recordApplicationReceived();
                l.onApplicationMessage(m, from);
            }
        } catch (RuntimeException | LinkageError | AssertionError e) {
            metrics.recordListenerFailure();
            dropLog.warn(LOG_LISTENER, "listener failed on a message from {}: {}", from, e.toString());
            LOG.debug("listener failure", e);
        }
        return true;
    }

    private void refuse(FrameAuthenticator.Verdict verdict, SubstrateAddress from) {
        AdapterMetrics.ReceiveDrop cause = switch (verdict) {
            case TRUNCATED -> AdapterMetrics.ReceiveDrop.AUTH_TRUNCATED;
            case UNKNOWN_KEY -> AdapterMetrics.ReceiveDrop.AUTH_UNKNOWN_KEY;
            case BAD_MAC -> AdapterMetrics.ReceiveDrop.AUTH_BAD_MAC;
            case REPLAY -> AdapterMetrics.ReceiveDrop.AUTH_REPLAY;
            case OK -> throw new IllegalArgumentException("not a refusal");
        };
        metrics.recordDrop(cause);
        dropLog.warn(LOG_AUTH + verdict.ordinal(), "dropped an unauthenticated frame from {}: {}", from,
                cause.name().toLowerCase(java.util.Locale.ROOT));
    }

    /** The authenticator sealing and verifying this adapter's frames, or {@code null} if there is none. */
    public FrameAuthenticator authenticator() {
        return auth;
    }

    private void drop(DecodeException e, SubstrateAddress from) {
        metrics.recordDrop(e.reason());
        dropLog.warn(e.reason().ordinal(), "dropped a malformed frame from {}: {}", from, e.getMessage());
    }

    @Override
    public String toString() {
        return "Adapter" + localAddresses();
    }
}
