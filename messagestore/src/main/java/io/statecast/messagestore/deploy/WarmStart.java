package io.statecast.messagestore.deploy;

import io.statecast.messagestore.MessageStoreConfig;
import io.statecast.messagestore.event.AttributeTest;
import io.statecast.messagestore.event.BoundedWorker;
import io.statecast.messagestore.event.FilterPins;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.event.QueryTimeoutException;
import io.statecast.messagestore.instance.EndCause;
import io.statecast.messagestore.instance.InstanceKey;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.ServiceInstance;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.instance.StandaloneEnvironment;
import io.statecast.messagestore.spec.Scope;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.forward.Route;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.Topology;
import io.statecast.overlay.substrate.TimerService;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blueprint's warm start (§5.1.7.2), per spec: before a spec serves real messages, a few
 * throw-away instances run on a private virtual clock through a message matching each of its
 * message filters and the timers those set (at most {@value #MAX_TIMER_TASKS} expiries each), so
 * the engine, the custom actions, the XPath and XQuery evaluators and the history classes are
 * loaded and compiled by the JIT before the first real message pays for it.
 *
 * <p>The instances act on a discarding overlay and count into throw-away counters. The run has a
 * deadline ({@link MessageStoreConfig#warmStartTimeout()}) on a worker thread: a spec whose
 * warm start does not finish, or that overflows the stack, is refused.
 */
public final class WarmStart implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WarmStart.class);
    private static final int INSTANCES = 3;
    private static final int MAX_TIMER_TASKS = 32;

    private final MessageStoreConfig config;
    private final BoundedWorker worker;

    /** A warm start with the store's limits. */
    public WarmStart(MessageStoreConfig config) {
        this.config = config;
        this.worker = new BoundedWorker("statecast-ms-warmstart", config.specLimits().queries().workerStackBytes());
    }

    /**
     * Warms {@code service}'s spec.
     *
     * @throws ServiceLoadException when the run overran its deadline or a query failed fatally
     */
    public void run(ServiceRuntime service) throws ServiceLoadException {
        ServiceSpec spec = service.spec();
        long t0 = System.nanoTime();
        String failure;
        try {
            failure = worker.call(() -> exercise(spec), config.warmStartTimeout(), "the warm start of " + spec.source());
        } catch (QueryTimeoutException e) {
            throw new ServiceLoadException(spec.source() + ": " + e.getMessage()
                    + " (a query or the state machine does not finish)", e);
        } catch (ExecutionException e) {
            throw new ServiceLoadException(spec.source() + ": the warm start failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceLoadException(spec.source() + ": interrupted during the warm start", e);
        }
        if (failure != null) {
            throw new ServiceLoadException(spec.source() + ": the warm start quarantined the spec: " + failure);
        }
        LOG.debug("warm start of {} took {} ms", spec.source(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    /** Runs the throw-away instances; returns why the spec must be refused, or null. */
    private String exercise(ServiceSpec spec) {
        ServiceRuntime scratch = new ServiceRuntime(spec);
        LogicalAddress.Family family = family(spec);
        LogicalAddress self = family == LogicalAddress.Family.DT ? new DtAddress(1, 1) : new TreeAddress(1_000_001);
        LogicalAddress other = family == LogicalAddress.Family.DT ? new DtAddress(2, 2) : new TreeAddress(1_000_002);
        VirtualTimerService clock = new VirtualTimerService();
        Env env = new Env(new DiscardingOverlay(self, clock), config.instances());
        for (int round = 0; round < INSTANCES && env.quarantined == null; round++) {
            List<OverlayMessage> inputs = new ArrayList<>();
            for (MessageEventDefinition d : spec.messageEvents()) {
                inputs.add(synthesize(spec, d, self, other, round));
            }
            InstanceKey key = spec.service().scope() == Scope.FLOW ? InstanceKey.ofFlow(spec.service().serviceId(), other)
                    : InstanceKey.ofMessage(spec.service().serviceId(), round);
            ServiceInstance instance = new ServiceInstance(key, scratch, env);
            instance.start();
            for (OverlayMessage m : inputs) {
                List<MessageEventDefinition> matched = spec.matchMessage(m, self);
                if (!matched.isEmpty()) {
                    instance.onMessage(m, matched);
                }
            }
            clock.runUntilIdle(MAX_TIMER_TASKS);
            instance.dispose(EndCause.CLOSED);
            clock.runUntilIdle(MAX_TIMER_TASKS);
        }
        return env.quarantined;
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
                FilterPins.ofFamily(family, pins.root()), pins.extensions(spec.service().serviceId(), id, new byte[256]));
    }

    @Override
    public void close() {
        worker.close();
    }

    /** The environment of the throw-away instances: remembers why the service was quarantined. */
    private static final class Env extends StandaloneEnvironment {
        private String quarantined;

        Env(OverlayContext overlay, InstanceLimits limits) {
            super(overlay, limits);
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
            LogicalAddress self = localAddress;
            return new Topology() {
                @Override
                public LogicalAddress self() {
                    return self;
                }

                @Override
                public NodeState state() {
                    return NodeState.STABLE;
                }

                @Override
                public boolean leader() {
                    return true;
                }

                @Override
                public Set<LogicalAddress> neighbours() {
                    return Set.of();
                }

                @Override
                public SubstrateAddress substrateAddress(LogicalAddress neighbour) {
                    return null;
                }

                @Override
                public LogicalAddress parent(LogicalAddress root) {
                    return null;
                }

                @Override
                public List<LogicalAddress> children(LogicalAddress root) {
                    return List.of();
                }

                @Override
                public long version() {
                    return 0;
                }
            };
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
        public int forwardMessage(OverlayMessage message) {
            return 0;
        }

        @Override
        public boolean toApplication(OverlayMessage message) {
            return true;
        }
    }
}
