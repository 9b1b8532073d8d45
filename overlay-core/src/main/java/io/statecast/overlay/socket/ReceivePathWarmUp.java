package io.statecast.overlay.socket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.forward.ForwardingEngine;
import io.statecast.overlay.forward.MessageIds;
import io.statecast.overlay.forward.MessageStorePort;
import io.statecast.overlay.forward.ScratchStore;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.MessageCodec;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.message.ProtocolMessage;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.node.Topology;
import io.statecast.overlay.substrate.Adapter;
import io.statecast.overlay.substrate.AdapterListener;
import io.statecast.overlay.substrate.FrameReceiver;
import io.statecast.overlay.substrate.InterfaceMetrics;
import io.statecast.overlay.substrate.RealTimerService;
import io.statecast.overlay.substrate.SubstrateInterface;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warms the overlay receive path before a node joins ({@code overlay.join.warmUpMs},
 * {@code overlay.join.warmUpRounds}). The MessageStore's warm start compiles the state machine
 * engine, but the rest of what the first message after join crosses — frame decode, the
 * forwarding engine, the hand-over to the store's shards, instance creation there, the encode of
 * the acknowledgement and of the copies forwarded on — would otherwise run as cold code:
 * classes loaded, call sites linked and methods interpreted on the first real messages, tens of
 * milliseconds on a busy machine.
 *
 * <p>The warm-up builds a scratch copy of that path and drives it with frames encoded by the
 * socket's codec: an {@link Adapter} over an interface that discards what it is given, a
 * {@link ForwardingEngine} over a fixed topology (a parent the frames come from, and in every
 * other round a child it forwards to; in the others it is a leaf), and the store's
 * {@link ScratchStore} twin when the store has one, fed with samples of every loaded service's
 * messages (payloads and control messages) and the local application's own messages. Nothing of it touches the socket's state: no datagram leaves the
 * node, nothing reaches the application, the real engine's, adapter's and store's counters do not
 * move, no real instance is created. It uses no randomness of the socket's (a simulation stays
 * deterministic).
 *
 * <p>Bounded: it stops after the configured rounds or once the time is up, checked between
 * rounds (a round takes microseconds once warm, a few milliseconds cold). It never fails the
 * join: a failure is logged and the join goes on.
 *
 * <p>It runs on the thread that joins, not on the I/O and shard threads that will run the
 * real messages: what it is for — loaded classes, linked call sites, compiled methods — is shared
 * by all threads.
 */
public final class ReceivePathWarmUp {

    private static final Logger LOG = LoggerFactory.getLogger(ReceivePathWarmUp.class);
    /** Payload size of the sample messages: a typical data message, larger than a control frame. */
    static final int PAYLOAD_BYTES = 1024;
    /** MessageIDs of the samples start here (a new one per round: each round starts new instances). */
    private static final long FIRST_MESSAGE_ID = 1L << 40;
    /**
     * The application's own messages of a round get MessageIDs this far from the received ones:
     * an instance that began as the source's would take the received payloads of the same
     * MessageID for duplicates, and the receiving branch of the services would never run.
     */
    private static final long OWN_MESSAGE_ID_OFFSET = 1L << 32;
    private static final long BACKLOG_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

    /**
     * What a warm-up did.
     *
     * @param rounds        rounds run
     * @param elapsedNanos  wall time, including building and closing the scratch path
     * @param frames        frames decoded by the scratch adapter
     * @param transmissions frames the scratch path encoded and discarded
     * @param deliveries    messages for the application it discarded
     * @param storeTwin     whether a scratch twin of the MessageStore took part
     */
    public record Result(int rounds, long elapsedNanos, long frames, long transmissions, long deliveries, boolean storeTwin) {
    }

    private ReceivePathWarmUp() {
    }

    /**
     * Runs the warm-up.
     *
     * @param codec      the socket's codec (frames in the overlay's format and size bound)
     * @param scheme     the scheme of the socket's first interface
     * @param family     the address family of the socket's node
     * @param store      the socket's MessageStore, or {@code null}
     * @param forwarding the socket's forwarding settings
     * @param rounds     most rounds
     * @param maxNanos   most time
     */
    public static Result run(MessageCodec codec, SubstrateAddress.Scheme scheme, LogicalAddress.Family family,
            MessageStorePort store, OverlayConfig.Forwarding forwarding, int rounds, long maxNanos) {
        return run(codec, discardAddress(scheme), family, store, forwarding, rounds, maxNanos, System::nanoTime);
    }

    /**
     * Runs the warm-up with the scratch topology's neighbours at {@code neighbours} (nothing is
     * sent there; tests listen) and time read from {@code clock}.
     *
     * @throws IllegalArgumentException if {@code rounds} or {@code maxNanos} is negative
     */
    static Result run(MessageCodec codec, SubstrateAddress neighbours, LogicalAddress.Family family,
            MessageStorePort store, OverlayConfig.Forwarding forwarding, int rounds, long maxNanos, LongSupplier clock) {
        if (rounds < 0 || maxNanos < 0) {
            throw new IllegalArgumentException("rounds and maxNanos must be >= 0, got " + rounds + ", " + maxNanos);
        }
        long t0 = clock.getAsLong();
        long deadline = t0 + maxNanos;
        Line relay = Line.of(family, neighbours, false);
        Line leaf = Line.of(family, neighbours, true);
        AtomicReference<Topology> topology = new AtomicReference<>(relay.topology());
        DiscardingInterface iface = new DiscardingInterface(relay.substrate());
        LongAdder deliveries = new LongAdder();
        ScratchStore twin = null;
        int done = 0;
        try (RealTimerService timers = new RealTimerService("statecast-warmup-timer")) {
            Adapter adapter = new Adapter(codec, timers, List.of(iface));
            try {
                ForwardingEngine engine = new ForwardingEngine(relay.self(), topology::get, adapter::send, m -> {
                    deliveries.increment();
                    return true;
                }, timers, new MessageIds(new SplittableRandom(FIRST_MESSAGE_ID)), new ForwardingEngine.Settings(forwarding.hopLimit(),
                        forwarding.floodCacheEntries()));
                adapter.start(new ToEngine(engine));
                twin = store == null ? null : store.scratch();
                if (twin != null) {
                    engine.installStore(twin);
                }
                FrameReceiver receiver = iface.receiver();
                for (; done < rounds && clock.getAsLong() - deadline < 0; done++) {
                    // rounds alternate: the node forwards to a child, or it is a leaf (the usual receiver)
                    Line line = done % 2 == 0 ? relay : leaf;
                    topology.set(line.topology());
                    List<OverlayMessage> round = samples(line, twin, FIRST_MESSAGE_ID + done);
                    // payloads first, as on the wire: a shard takes control messages before data,
                    // and an ACK Request or Reset would otherwise reach the instance before its payload
                    for (boolean payloads : new boolean[] {true, false}) {
                        for (OverlayMessage m : round) {
                            if (isPayload(m) == payloads) {
                                feed(m, line, engine, receiver, codec);
                            }
                        }
                        awaitTaken(twin, deadline, clock);
                    }
                }
            } finally {
                if (twin != null) {
                    twin.close();
                }
                adapter.close();
            }
        } catch (Exception e) {
            LOG.warn("the receive-path warm-up failed after {} rounds; joining without it: {}", done, e.toString());
            LOG.debug("warm-up failure", e);
        }
        Result r = new Result(done, clock.getAsLong() - t0, iface.framesIn(), iface.sent(), deliveries.sum(), twin != null);
        LOG.debug("receive path warmed: {}", r);
        return r;
    }

    /**
     * The round's messages: a plain multicast and unicast from the parent, the store's samples as
     * received from the parent, and its samples of the application's own messages (other
     * MessageIDs).
     */
    private static List<OverlayMessage> samples(Line line, ScratchStore twin, long messageId) {
        List<OverlayMessage> out = new ArrayList<>();
        List<Extension> payload = List.of(new PayloadExtension(new byte[PAYLOAD_BYTES]));
        out.add(new OverlayMessage(DeliveryMode.MULTICAST, 8, line.parent(), null, line.parent(), null, payload));
        out.add(new OverlayMessage(DeliveryMode.UNICAST, 8, line.parent(), line.self(), line.parent(), null, payload));
        if (twin != null) {
            for (OverlayMessage m : twin.samples(line.self(), line.parent(), messageId, PAYLOAD_BYTES)) {
                if (!m.previousHop().equals(line.self())) {
                    out.add(m);
                }
            }
            for (OverlayMessage m : twin.samples(line.self(), line.parent(), messageId + OWN_MESSAGE_ID_OFFSET,
                    PAYLOAD_BYTES)) {
                if (m.previousHop().equals(line.self())) {
                    // the application's own message: it is the source too
                    out.add(new OverlayMessage(m.mode(), m.hopLimit(), line.self(), m.destination(), line.self(), m.root(),
                            m.extensions()));
                }
            }
        }
        return out;
    }

    private static boolean isPayload(OverlayMessage m) {
        FsmExtension fsm = m.fsm();
        return fsm == null || fsm.messageType() == FsmExtension.PAYLOAD_TYPE;
    }

    /** One sample into the scratch path: the application's send, or a frame as the interface hands it over. */
    private static void feed(OverlayMessage m, Line line, ForwardingEngine engine, FrameReceiver receiver,
            MessageCodec codec) {
        if (m.previousHop().equals(line.self())) {
            engine.send(m);
        } else {
            receiver.onFrame(encode(codec, m), line.substrate());
        }
    }

    private static ByteBuf encode(MessageCodec codec, OverlayMessage m) {
        int size = codec.encodedSize(m);
        ByteBuf frame = PooledByteBufAllocator.DEFAULT.ioBuffer(size, size);
        try {
            codec.encode(m, frame);
        } catch (RuntimeException e) {
            frame.release();
            throw e;
        }
        return frame;
    }

    /** Lets the twin's shards take the round before the next one (its queues are bounded). */
    private static void awaitTaken(ScratchStore twin, long deadline, LongSupplier clock) {
        while (twin != null && twin.backlog() > 0 && clock.getAsLong() - deadline < 0) {
            LockSupport.parkNanos(BACKLOG_PARK_NANOS);
        }
    }

    /** A substrate address on {@code scheme} the scratch topology names; nothing is ever sent to it. */
    private static SubstrateAddress discardAddress(SubstrateAddress.Scheme scheme) {
        return switch (scheme) {
            case UDP -> SubstrateAddress.udp("127.0.0.1", 9);
            case TCP -> SubstrateAddress.tcp("127.0.0.1", 9);
            case MEM -> SubstrateAddress.mem("statecast-warm-up");
        };
    }

    /**
     * The scratch node's topology: a line parent — self — child, or, for a leaf, parent — self
     * (then {@code child} is no neighbour). Trees rooted at the parent or beyond come down through
     * self to the child; the one rooted at the child goes up.
     */
    private record Line(LogicalAddress self, LogicalAddress parent, SubstrateAddress substrate, Topology topology) {

        static Line of(LogicalAddress.Family family, SubstrateAddress substrate, boolean leaf) {
            return family == LogicalAddress.Family.DT
                    ? of(new DtAddress(1, 1), new DtAddress(2, 2), new DtAddress(3, 3), leaf, substrate)
                    : of(new TreeAddress(1_000_001), new TreeAddress(1_000_002), new TreeAddress(1_000_003), leaf,
                            substrate);
        }

        private static Line of(LogicalAddress self, LogicalAddress parent, LogicalAddress child, boolean leaf,
                SubstrateAddress substrate) {
            FixedTopology t = new FixedTopology(self).neighbour(parent, substrate);
            t = leaf
                    ? t.tree(self, null, parent).otherTrees(parent)
                    : t.neighbour(child, substrate).tree(self, null, parent, child).tree(child, child, parent)
                            .otherTrees(parent, child);
            return new Line(self, parent, substrate, t);
        }
    }

    /** Decoded messages of the scratch adapter go to the scratch engine; protocol frames are not fed. */
    private record ToEngine(ForwardingEngine engine) implements AdapterListener {
        @Override
        public void onProtocolMessage(ProtocolMessage message, SubstrateAddress from) {
        }

        @Override
        public void onApplicationMessage(OverlayMessage message, SubstrateAddress from) {
            engine.onReceive(message, from);
        }
    }

    /** An interface that hands the warm-up its frame receiver and discards every frame sent. */
    private static final class DiscardingInterface implements SubstrateInterface {
        private final SubstrateAddress local;
        private final InterfaceMetrics metrics = new InterfaceMetrics();
        private final LongAdder sent = new LongAdder();
        private final LongAdder framesIn = new LongAdder();
        private volatile FrameReceiver receiver;

        DiscardingInterface(SubstrateAddress local) {
            this.local = local;
        }

        @Override
        public SubstrateAddress localAddress() {
            return local;
        }

        @Override
        public void start(FrameReceiver r) {
            FrameReceiver target = Objects.requireNonNull(r, "receiver");
            this.receiver = new FrameReceiver() {
                @Override
                public void onFrame(ByteBuf frame, SubstrateAddress from) {
                    framesIn.increment();
                    target.onFrame(frame, from);
                }
            };
        }

        FrameReceiver receiver() {
            return receiver;
        }

        @Override
        public boolean send(SubstrateAddress to, ByteBuf frame) {
            frame.release();
            sent.increment();
            return true;
        }

        @Override
        public InterfaceMetrics metrics() {
            return metrics;
        }

        long sent() {
            return sent.sum();
        }

        long framesIn() {
            return framesIn.sum();
        }

        @Override
        public void close() {
        }
    }
}
