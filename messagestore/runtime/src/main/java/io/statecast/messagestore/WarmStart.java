package io.statecast.messagestore;

import io.statecast.messagestore.deploy.ServiceLoadException;
import io.statecast.messagestore.event.AttributeTest;
import io.statecast.messagestore.event.BoundedWorker;
import io.statecast.messagestore.event.QueryLimits;
import io.statecast.messagestore.event.EvaluationGuard;
import io.statecast.messagestore.event.FilterPins;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.event.QueryTimeoutException;
import io.statecast.messagestore.metrics.Counters;
import io.statecast.messagestore.instance.EndCause;
import io.statecast.messagestore.instance.InstanceKey;
import io.statecast.messagestore.spec.Scope;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.ServiceInstance;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.instance.StandaloneEnvironment;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.node.Topology;
import io.statecast.overlay.substrate.TimerService;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blueprint's warm start (§5.1.7.2), per spec: before a spec serves real messages,
 * throw-away instances run on a private virtual clock through a message matching each of its
 * message filters and the timers those set (at most {@value #MAX_TIMER_TASKS} expiries each), so
 * the engine, the custom actions, the XPath and XQuery evaluators and the history classes are
 * loaded and compiled by the JIT before the first real message pays for it.
 *
 * <p>The first {@value #CHECK_ROUNDS} rounds check the spec and always run. Loading classes is
 * not enough for the first message to be fast: code the JIT has not compiled runs interpreted,
 * tens of times slower, so further rounds, up to {@link MessageStoreConfig#warmStartRounds()},
 * give the JIT's counters the invocations it compiles at. They repeat the checking rounds'
 * messages (a spec may treat other message identifiers differently) and stop early once half of the
 * deadline has passed in the worker thread's CPU time or in wall time, so they never make a
 * spec's warm start fail.
 *
 * <p>The instances act on a discarding overlay and count into throw-away counters. The run has a
 * deadline ({@link MessageStoreConfig#warmStartTimeout()}) on a worker thread: a spec whose
 * warm start does not finish, or that overflows the stack, is refused.
 */
public final class WarmStart implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WarmStart.class);
    /** Rounds that check the spec: they run whatever the budget. */
    static final int CHECK_ROUNDS = 3;
    private static final int MAX_TIMER_TASKS = 32;

    private final MessageStoreConfig config;
    private final BoundedWorker worker;
    private final LongSupplier cpuNanos;
    private final Counters counters;

    /** A warm start with the store's limits, counting overruns in counters of its own. */
    public WarmStart(MessageStoreConfig config) {
        this(config, new Counters());
    }

    /** A warm start with the store's limits, counting overruns in {@code counters} (the store's node counters). */
    public WarmStart(MessageStoreConfig config, Counters counters) {
        this(config, WarmStart::threadCpuNanos, counters);
    }

    /** A warm start reading the worker thread's CPU time from {@code cpuNanos} (tests). */
    WarmStart(MessageStoreConfig config, LongSupplier cpuNanos) {
        this(config, cpuNanos, new Counters());
    }

    private WarmStart(MessageStoreConfig config, LongSupplier cpuNanos, Counters counters) {
        this.config = config;
        this.worker = new BoundedWorker("statecast-ms-warmstart", config.specLimits().queries().workerStackBytes());
        this.cpuNanos = cpuNanos;
        this.counters = counters;
    }

    /** Specs refused because their warm start overran (the warm start was stopped). */
    public long overruns() {
        return counters.warmStartOverruns();
    }

    /** The calling thread's CPU time; its wall time where the JVM cannot measure CPU time. */
    private static long threadCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : System.nanoTime();
    }

    /**
     * Warms {@code service}'s spec.
     *
     * @return the rounds run: {@link MessageStoreConfig#warmStartRounds()}, or fewer when the
     *         budget ran out
     * @throws ServiceLoadException when the run overran its deadline or a query failed fatally
     */
    public int run(ServiceRuntime service) throws ServiceLoadException {
        ServiceSpec spec = service.spec();
        long t0 = System.nanoTime();
        Outcome outcome;
        try {
            // CPU time, not wall-clock time: on a starved machine the checking rounds alone waited
            // longer than the timeout for the CPU, and a good spec was refused
            outcome = worker.callCpuBounded(() -> exercise(spec), config.warmStartTimeout(),
                    config.warmStartTimeout().multipliedBy(QueryLimits.WALL_BACKSTOP_FACTOR), "the warm start of " + spec.source());
        } catch (QueryTimeoutException e) {
            // the worker thread was interrupted: it stops at its next round, input or evaluation
            counters.warmStartOverrun();
            LOG.warn("{}: refused: {} (a query or the state machine does not finish); the warm start was stopped",
                    spec.source(), e.getMessage());
            throw new ServiceLoadException(spec.source() + ": " + e.getMessage()
                    + " (a query or the state machine does not finish)", e);
        } catch (ExecutionException e) {
            throw new ServiceLoadException(spec.source() + ": the warm start failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceLoadException(spec.source() + ": interrupted during the warm start", e);
        }
        if (outcome.quarantined() != null) {
            throw new ServiceLoadException(spec.source() + ": the warm start quarantined the spec: "
                    + outcome.quarantined());
        }
        LOG.debug("warm start of {}: {} rounds, {} ms CPU, {} ms", spec.source(), outcome.rounds(),
                TimeUnit.NANOSECONDS.toMillis(outcome.cpuNanos()), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        return outcome.rounds();
    }

    /** What the throw-away instances did: rounds run, CPU spent, why the spec must be refused (or null). */
    private record Outcome(int rounds, long cpuNanos, String quarantined) {
    }

    /** Runs the throw-away instances. */
    private Outcome exercise(ServiceSpec spec) {
        long cpu0 = cpuNanos.getAsLong();
        long wall0 = System.nanoTime();
        long budget = config.warmStartTimeout().toNanos() / 2;
        ServiceRuntime scratch = new ServiceRuntime(spec);
        LogicalAddress.Family family = family(spec);
        LogicalAddress self = family == LogicalAddress.Family.DT ? new DtAddress(1, 1) : new TreeAddress(1_000_001);
        LogicalAddress other = family == LogicalAddress.Family.DT ? new DtAddress(2, 2) : new TreeAddress(1_000_002);
        VirtualTimerService clock = new VirtualTimerService();
        Env env = new Env(new DiscardingOverlay(self, clock), config.instances());
        int round = 0;
        for (; round < config.warmStartRounds() && env.quarantined == null; round++) {
            if (Thread.currentThread().isInterrupted()) {
                throw new WarmStartStopped(); // the caller gave up on this run (deadline): nothing more to do
            }
            if (round >= CHECK_ROUNDS && (cpuNanos.getAsLong() - cpu0 >= budget || System.nanoTime() - wall0 >= budget)) {
                break;
            }
            // the JIT's rounds repeat the checking rounds' inputs: only what was checked runs again
            long messageId = round % CHECK_ROUNDS;
            List<OverlayMessage> inputs = new ArrayList<>();
            for (MessageEventDefinition d : spec.messageEvents()) {
                inputs.add(synthesize(spec, d, self, other, messageId));
            }
            // the key of the first input, as the store would make it (an expression's value is
            // any string to the instance)
            InstanceKey key = spec.service().scope() == Scope.EXPRESSION
                    ? InstanceKey.ofExpression(spec.service().serviceId(), "warm-start")
                    : inputs.isEmpty()
                    ? (spec.service().scope().perMessage() ? InstanceKey.ofMessage(spec.service().serviceId(), other, messageId)
                            : InstanceKey.ofFlow(spec.service().serviceId(), other))
                    : InstanceKey.of(spec.service().scope(), inputs.get(0), self);
            ServiceInstance instance = new ServiceInstance(key, scratch, env);
            instance.start();
            for (OverlayMessage m : inputs) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new WarmStartStopped();
                }
                List<MessageEventDefinition> matched = spec.matchMessage(m, self);
                if (!matched.isEmpty()) {
                    instance.onMessage(m, matched);
                }
            }
            clock.runUntilIdle(MAX_TIMER_TASKS);
            instance.dispose(EndCause.CLOSED);
            clock.runUntilIdle(MAX_TIMER_TASKS);
        }
        return new Outcome(round, cpuNanos.getAsLong() - cpu0, env.quarantined);
    }

    private static LogicalAddress.Family family(ServiceSpec spec) {
        for (MessageEventDefinition d : spec.messageEvents()) {
            for (AttributeTest t : d.filter().tests()) {
                if (t instanceof AttributeTest.AddressIs a && a.address() != null) {
                    return a.address().family();
                }
            }
        }
        return LogicalAddress.Family.TREE;
    }

    /** A message that satisfies {@code d}'s filter where it can (conflicting tests simply do not match). */
    static OverlayMessage synthesize(ServiceSpec spec, MessageEventDefinition d, LogicalAddress self,
            LogicalAddress other, long messageId) {
        return synthesize(spec, d, self, other, messageId, 256);
    }

    /**
     * A message that satisfies {@code d}'s filter where it can (conflicting tests simply do not
     * match), as it would arrive at {@code self} from {@code other}: the filter's pins decide
     * mode, addresses and MessageID; what they leave open is a multicast from {@code other} with
     * MessageID {@code messageId}.
     *
     * @param payloadBytes size of the payload, if the filter leaves room for one
     */
    public static OverlayMessage synthesize(ServiceSpec spec, MessageEventDefinition d, LogicalAddress self,
            LogicalAddress other, long messageId, int payloadBytes) {
        FilterPins pins = FilterPins.of(d.filter(), self);
        LogicalAddress.Family family = self.family();
        DeliveryMode mode = pins.mode() != null ? pins.mode() : DeliveryMode.MULTICAST;
        LogicalAddress source = FilterPins.ofFamily(family, pins.source());
        LogicalAddress previous = FilterPins.ofFamily(family, pins.previousHop());
        LogicalAddress destination = FilterPins.ofFamily(family, pins.destination());
        if (mode != DeliveryMode.UNICAST) {
            destination = null;
        } else if (destination == null) {
            destination = self;
        }
        long id = pins.messageId() != null ? pins.messageId() : messageId;
        return new OverlayMessage(mode, pins.hopLimit() != null ? pins.hopLimit() : 8,
                source != null ? source : other, destination, previous != null ? previous : other,
                FilterPins.ofFamily(family, pins.root()), pins.extensions(spec.service().serviceId(), id, new byte[payloadBytes]));
    }

    @Override
    public void close() {
        worker.close();
    }

    /**
     * Unwinds a warm start its caller gave up on. An {@link Error}, so that no handler of the
     * instance's (which records a failed action or evaluation and goes on) swallows it.
     */
    private static final class WarmStartStopped extends Error {
        private static final long serialVersionUID = 1L;

        WarmStartStopped() {
            super("the warm start was stopped: it overran its deadline", null, false, false);
        }
    }

    /**
     * Brackets the warm start's evaluations: one that would begin, or that returns, on an
     * interrupted thread (the caller's deadline passed) stops the warm start. Saxon itself ignores
     * interrupts, so an evaluation already running finishes first; each is bounded by the static
     * rules (no recursion, bounded ranges) and the history size.
     */
    private static final EvaluationGuard STOP_WHEN_INTERRUPTED = new EvaluationGuard() {
        @Override
        public void begin(Object owner, boolean firstUse) {
            if (Thread.currentThread().isInterrupted()) {
                throw new WarmStartStopped();
            }
        }

        @Override
        public void end() {
            if (Thread.currentThread().isInterrupted()) {
                throw new WarmStartStopped();
            }
        }
    };

    /** The environment of the throw-away instances: remembers why the service was quarantined. */
    private static final class Env extends StandaloneEnvironment {
        private String quarantined;

        Env(OverlayContext overlay, InstanceLimits limits) {
            super(overlay, limits, STOP_WHEN_INTERRUPTED);
        }

        @Override
        public void quarantine(ServiceRuntime service, String reason) {
            quarantined = reason;
            super.quarantine(service, reason);
        }
    }

    /** An overlay that sends nothing, with no neighbours. */
    private record DiscardingOverlay(LogicalAddress localAddress, VirtualTimerService clock) implements OverlayContext {

        @Override
        public Topology topology() {
            return new FixedTopology(localAddress).leader(true).version(0);
        }

        @Override
        public TimerService timers() {
            return clock;
        }

        @Override
        public long newMessageId() {
            return 1;
        }

        @Override
        public int sendDataMessage(int serviceId, long messageId, byte[] payload, Route route) {
            return 0;
        }

        @Override
        public int sendControlMessage(int serviceId, byte messageType, long messageId, byte[] body, Route route) {
            return 0;
        }

        @Override
        public int sendDataMessage(int serviceId, long messageId, MessageFields fields, byte[] payload, Route route) {
            return 0;
        }

        @Override
        public int sendControlMessage(int serviceId, byte messageType, long messageId, MessageFields fields,
                byte[] body, Route route) {
            return 0;
        }

        @Override
        public int sendDataMessage(int serviceId, long messageId, LogicalAddress origin, MessageFields fields,
                byte[] payload, Route route) {
            return 0;
        }

        @Override
        public int sendControlMessage(int serviceId, byte messageType, long messageId, LogicalAddress origin,
                MessageFields fields, byte[] body, Route route) {
            return 0;
        }

        @Override
        public int forwardMessage(OverlayMessage message) {
            return 0;
        }

        @Override
        public boolean toApplication(OverlayMessage message) {
            return true;
        }
    }
}
