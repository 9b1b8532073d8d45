package io.statecast.messagestore;

import io.statecast.messagestore.event.EvaluationException;
import io.statecast.messagestore.event.EvaluationGuard;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.event.QueryEvaluator;
import io.statecast.messagestore.instance.ActionQueue;
import io.statecast.messagestore.instance.ArmedTimer;
import io.statecast.messagestore.instance.EndCause;
import io.statecast.messagestore.flow.InFlightCounter;
import io.statecast.messagestore.instance.InstanceEnvironment;
import io.statecast.messagestore.instance.InstanceKey;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.InstanceStore;
import io.statecast.messagestore.instance.ServiceInstance;
import io.statecast.messagestore.instance.SendBudget;
import io.statecast.messagestore.instance.StepAdmission;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.instance.Tombstones;
import io.statecast.messagestore.metrics.Counters;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.logging.RateLimitedLog;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.RealTimerService;
import io.statecast.overlay.substrate.TimerService;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One single-threaded agent of a {@link MessageStore}: it owns the instances whose keys hash to
 * it, their tombstones and its query evaluators, and nothing else touches them — no locks. It
 * knows its store only as a {@link ShardContext}.
 *
 * <p>Work arrives in three lock-free queues: internal tasks (sweeps, removals, timer expiries
 * with clock threading; never dropped, bounded by instances × timers), control messages and data
 * messages (bounded per store by the store's counters). One {@link #doWork()} takes all internal
 * tasks first, then due timers, then up to a batch of messages, control before data. A
 * {@link ShardRunner} calls it while work waits: its own thread that parks when idle
 * ({@link ThreadRunner}, dedicated threading), or tasks of an executor that re-post themselves so
 * that other shards sharing that thread get their turn ({@link TaskRunner}: the timer service —
 * the virtual clock in simulations — with clock threading, the receive thread with io threading).
 *
 * <p>Timers of instances: a dedicated or io shard on the system clock ({@link RealTimerService})
 * keeps them on its own {@link TimerWheel}, advanced after every message and on waking, its idle
 * park timed to the next occupied tick — no timer thread, no hand-off, no wake-up of another
 * thread. Otherwise (clock threading, a virtual clock, {@code timerTick} zero) they are tasks of the
 * overlay's timer service that post the expiry into the shard, which keeps virtual time
 * deterministic.
 *
 * <p>It is also the {@link EvaluationGuard} of its evaluations: a ticket in an atomic reference
 * says which thread evaluates for which service since when. The store's watchdog may take a
 * ticket that is too old; the thread that owned it then finds, when Saxon returns, that the shard
 * has moved to a new thread, and unwinds ({@link ShardAbandoned}).
 */
final class Shard implements InstanceEnvironment, EvaluationGuard {

    private static final Logger LOG = LoggerFactory.getLogger(Shard.class);
    private static final int BATCH = 256;
    /**
     * Messages processed between two wake-ups of the application within a batch: one wake-up per
     * delivery cost a futex call each, one per batch would hold the first delivery back for the
     * whole batch (a few milliseconds at saturation).
     */
    private static final int FLUSH_EVERY = 32;
    /** How often a shard holding data back looks at the application's queue again. */
    private static final long HELD_DATA_RECHECK_NANOS = 500_000;

    /**
     * An evaluation in progress.
     *
     * @param cpuStartNanos the thread's CPU time at the start (clock threading), else -1
     */
    record Ticket(ServiceRuntime service, long startNanos, long limitNanos, Thread thread, long cpuStartNanos) {
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final ShardContext store;
    private final MessageStoreConfig config;
    private final int index;
    private final int shardCount;
    private final ConcurrentLinkedQueue<Runnable> internal = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Inbound> control = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Inbound> data = new ConcurrentLinkedQueue<>();
    /**
     * Whether data messages are held back because the application's receive queue is full (since
     * {@link #dataHeldSince}, real time); shard thread only.
     */
    private boolean dataHeld;
    private long dataHeldSince;
    private final AtomicReference<Ticket> evaluating = new AtomicReference<>();
    private final RateLimitedLog errorLog = RateLimitedLog.onePer(LOG, Duration.ofSeconds(10));
    private final ShardRunner runner;
    /** Whether data may be held back while the application's queue is full: only a runner that comes back by itself. */
    private final boolean mayHoldData;
    private final TimerService clock;
    /** The instances' timers, or null: they go through {@link #clock} (see the class comment). */
    private final TimerWheel wheel;
    private final long evaluationLimitNanos;
    private final long firstUseLimitNanos;
    /** Clock threading has no watchdog: CPU time is measured around each evaluation instead. */
    private final boolean measureCpu;
    // the watchdog's notes on an evaluation it saw running past its limit (watchdog thread only)
    private Ticket suspect;
    private long suspectCpuNanos;

    // confined to the shard's thread
    private final InstanceStore instances = new InstanceStore();
    private final ActionQueue actionQueue = new ActionQueue();
    private final Tombstones tombstones;
    private final QueryEvaluator evaluator = new QueryEvaluator(this);

    /**
     * A shard and its runner for {@code threading} (not started: {@link #start()}).
     *
     * @param index      which of the store's {@code shardCount} shards this is
     * @param threadName the name of its thread, with dedicated threading
     */
    Shard(ShardContext store, MessageStoreConfig config, MessageStoreConfig.Threading threading, int index,
            int shardCount, int tombstoneCapacity, String threadName) {
        this.store = store;
        this.config = config;
        this.index = index;
        this.shardCount = shardCount;
        InstanceLimits limits = config.instances();
        this.tombstones = new Tombstones(tombstoneCapacity, TimeUnit.MILLISECONDS.toNanos(limits.tombstoneTtlMs()));
        this.evaluationLimitNanos = config.evaluationLimit().toNanos();
        this.firstUseLimitNanos = Math.max(evaluationLimitNanos,
                config.specLimits().queries().compileTimeout().toNanos());
        boolean dedicated = threading == MessageStoreConfig.Threading.DEDICATED;
        OverlayContext overlay = store.overlay();
        this.clock = overlay.timers();
        ScheduledExecutorService loop = threading == MessageStoreConfig.Threading.IO ? overlay.receiveExecutor() : null;
        long tick = config.timerTick().toNanos();
        this.wheel = (dedicated || loop != null) && tick > 0 && clock instanceof RealTimerService
                ? new TimerWheel(tick, clock.nanoTime()) : null;
        this.runner = dedicated ? new ThreadRunner(this, threadName, config.specLimits().queries().workerStackBytes())
                : new TaskRunner(this, loop != null ? loop : clock, loop);
        this.mayHoldData = dedicated;
        this.measureCpu = !dedicated && THREADS.isCurrentThreadCpuTimeSupported();
    }

    /** Which of {@code shardCount} shards {@code key}'s instance lives on. */
    static int indexOf(InstanceKey key, int shardCount) {
        return Math.floorMod(key.spread(), shardCount);
    }

    /** Starts the runner. */
    void start() {
        runner.start();
    }

    int index() {
        return index;
    }

    // ------------------------------------------------------------------ producers (any thread)

    void offer(Inbound in) {
        (in.data() ? data : control).add(in);
        runner.wake();
    }

    void post(Runnable task) {
        internal.add(task);
        runner.wake();
    }

    // ------------------------------------------------------------------ the agent (its runner's thread)

    /** Whether work waits: an internal task, a control message, or a data message not held back. */
    boolean hasWork() {
        return !internal.isEmpty() || !control.isEmpty() || (!data.isEmpty() && !holdData());
    }

    /**
     * How long the runner may idle once {@link #hasWork()} is false: until the wheel's next
     * occupied tick, at most {@link #HELD_DATA_RECHECK_NANOS} while data is held back, else
     * {@link Long#MAX_VALUE} (until woken).
     */
    long idleNanos() {
        long next = nextTimerNanos();
        long park = Long.MAX_VALUE; // until woken
        if (next != Long.MAX_VALUE) {
            long now = clock.nanoTime();
            park = next > now ? next - now : 0;
            if (park < 0) {
                park = Long.MAX_VALUE; // overflowed
            }
        }
        if (dataHeld && !data.isEmpty()) {
            park = Math.min(park, HELD_DATA_RECHECK_NANOS); // the application drains without telling
        }
        return park;
    }

    /** The wheel's next deadline ({@link TimerWheel#nextDeadlineNanos()}); {@link Long#MAX_VALUE} without a wheel. */
    long nextTimerNanos() {
        return wheel == null ? Long.MAX_VALUE : wheel.nextDeadlineNanos();
    }

    /** The clock the shard's timers run on. */
    TimerService clock() {
        return clock;
    }

    /** Whether the runner is idle with nothing queued (tests wait for this between steps). */
    boolean idle() {
        return runner.idle();
    }

    /** Whether anything is queued, held data included; any thread (reads the queues only). */
    boolean queued() {
        return !internal.isEmpty() || !control.isEmpty() || !data.isEmpty();
    }

    /**
     * Whether data messages wait now: the application's receive queue is full, and has been for
     * less than its delivery wait ({@code overlay.buffers.deliveryWaitMs}). A data message is what
     * brings a delivery, and a delivery that waited for room on this thread held up every control
     * message and timer of the shard; held back in its queue instead, it waits while those go on
     * (acknowledgements complete other instances, retransmissions and give-ups run on time), and
     * the queue refuses new data messages before any instance acknowledges them. Once the wait is
     * over and the queue still full, data flows again and each delivery waits for room itself, as
     * the sink allows. Not as tasks of an executor (nothing would come back to look again).
     */
    private boolean holdData() {
        if (!mayHoldData) {
            return false;
        }
        OverlayContext overlay = store.overlay();
        if (overlay == null || overlay.applicationHasRoom()) {
            dataHeld = false;
            return false;
        }
        long wait = overlay.deliveryWaitNanos();
        if (wait <= 0) {
            return false;
        }
        long now = System.nanoTime(); // the sink's wait is in real time too
        if (!dataHeld) {
            dataHeld = true;
            dataHeldSince = now;
            store.nodeCounters().dataHeld();
        }
        return now - dataHeldSince < wait;
    }

    /**
     * One round of work: internal tasks, then up to {@link #BATCH} messages (control first), each
     * after the timers that fell due before it was queued, then the timers due by now; the
     * application is woken for what they delivered every {@link #FLUSH_EVERY} messages and at the
     * end.
     *
     * <p>Why timers wait for messages queued before them: a shard that did not get the CPU for a
     * while (a loaded machine, a pause) wakes up with both overdue timers and queued messages.
     * Firing every overdue timer first let a give-up or retransmission timer act as if the
     * acknowledgement queued before its deadline had never come. With the shard's own wheel an
     * instance sees its events in the order they happened; timers of the overlay's timer service
     * (clock threading, a virtual clock) are posted when due and run first, as before.
     *
     * @return the messages processed
     */
    int doWork() {
        int done = 0;
        try {
            runInternal();
            while (done < BATCH) {
                Inbound in = control.poll();
                if (in == null && !data.isEmpty() && !holdData()) {
                    in = data.poll();
                }
                if (in == null) {
                    break;
                }
                advanceTimers(in.queuedNanos());
                store.taken(in);
                process(in);
                done++;
                runInternal();
                if (done % FLUSH_EVERY == 0) {
                    flushDeliveries();
                }
            }
            advanceTimers(timerHorizon());
        } finally {
            flushDeliveries();
        }
        return done;
    }

    /**
     * The time up to which timers may fire now: the clock, or earlier when a message queued
     * before it still waits (its timers fire when it is taken). Data held for the application
     * does not hold timers back.
     */
    private long timerHorizon() {
        long now = clock.nanoTime();
        Inbound c = control.peek();
        if (c != null && c.queuedNanos() < now) {
            now = c.queuedNanos();
        }
        if (!dataHeld) {
            Inbound d = data.peek();
            if (d != null && d.queuedNanos() < now) {
                now = d.queuedNanos();
            }
        }
        return now;
    }

    private void flushDeliveries() {
        OverlayContext overlay = store.overlay();
        if (overlay != null) {
            overlay.flushDeliveries();
        }
    }

    private void runInternal() {
        Runnable task;
        while ((task = internal.poll()) != null) {
            runSafely(task);
        }
    }

    /** Fires the wheel's timers due by {@code untilNanos} (never going back in time). */
    private void advanceTimers(long untilNanos) {
        if (wheel != null) {
            wheel.advance(untilNanos);
        }
    }

    private void runSafely(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            store.nodeCounters().drop(DropReason.INTERNAL_ERROR);
            if (errorLog.allow()) {
                LOG.warn("shard {}: internal task failed", index, e);
            }
        }
    }

    private void process(Inbound in) {
        if (!in.own()) {
            processMessage(in);
            return;
        }
        // the store counted this message as in flight on arrival: an instance adopts the count,
        // and whatever else happens to the message (dropped, refused, failed) gives it back
        InFlightCounter count = store.inFlightCounter(in.service().serviceId());
        if (processMessage(in) == Outcome.NOT_ADOPTED) {
            count.giveBack();
        }
    }

    /** What became of an own message's in-flight count. */
    private enum Outcome {
        /** An instance adopted it, or the message went to another shard with it. */
        KEPT,
        /** Nobody took it: give it back. */
        NOT_ADOPTED
    }

    private Outcome processMessage(Inbound in) {
        Outcome outcome = Outcome.NOT_ADOPTED;
        OverlayMessage m = in.message();
        ServiceRuntime service = in.service();
        if (store.closed()) {
            store.drop(DropReason.CLOSED, service);
            return outcome;
        }
        long t0 = System.nanoTime();
        try {
            if (service.quarantined()) {
                store.drop(DropReason.QUARANTINED, service);
                return outcome;
            }
            if (in.key() == null) {
                // scope expression: keyed here, off the caller's (I/O) thread
                InstanceKey key = service.keyOf(m, store.overlay().localAddress(), evaluator);
                if (key == null) {
                    store.drop(DropReason.NO_INSTANCE_KEY, service);
                    return outcome;
                }
                in = in.withKey(key);
                if (indexOf(key, shardCount) != index) {
                    store.route(in);
                    return Outcome.KEPT;
                }
            }
            int slot = instances.find(in.key());
            ServiceInstance instance = slot < 0 ? null : instances.at(slot);
            if (instance == null) {
                ServiceRuntime current = store.service(service.serviceId());
                if (current == null) {
                    store.drop(DropReason.SERVICE_UNLOADED, service);
                    return outcome;
                }
                if (current.keysDifferently(service)) {
                    // reloaded with another scope: the key changed
                    store.route(new Inbound(m, in.arrival(), current,
                            Inbound.arrivalKey(current, m, store.overlay().localAddress()), in.data(), in.own(), in.queuedNanos()));
                    return Outcome.KEPT;
                }
                service = current;
            } else {
                service = instance.service();
            }
            List<MessageEventDefinition> matched = service.spec().matchMessage(m, store.overlay().localAddress());
            if (matched.isEmpty()) {
                store.drop(DropReason.NOT_AN_INPUT, service);
                return outcome;
            }
            if (instance == null) {
                if (!service.spec().createsInstance(m, matched)) {
                    // a late reply to an ended instance is expected; one about a message never seen is not
                    boolean ended = service.scope().perMessage()
                            && tombstones.contains(in.key(), clock.nanoTime());
                    store.drop(ended ? DropReason.TERMINATED_INSTANCE : DropReason.NO_INSTANCE, service);
                    return outcome;
                }
                instance = create(in.key(), service);
                if (instance == null || instance.ended() != null) {
                    return outcome;
                }
            } else {
                // nothing was added or removed since find: the slot still holds it
                instances.touch(slot, clock.nanoTime());
            }
            // the primitive budget is checked before the step, never inside it (ServiceInstance);
            // a message it refuses must not adopt the in-flight count
            StepAdmission admission = instance.admission(in.arrival() == Arrival.FROM_APPLICATION);
            if (in.own() && admission != StepAdmission.REFUSE
                    && instance.adoptOwnMessage(store.inFlightCounter(service.serviceId()))) {
                outcome = Outcome.KEPT;
            }
            if (instance.onMessage(m, matched, admission) == StepAdmission.REFUSE) {
                store.drop(DropReason.THROTTLED, service);
                return outcome;
            }
            long t = System.nanoTime() - t0;
            service.counters().messageProcessed(t);
            store.nodeCounters().messageProcessed(t);
        } catch (EvaluationException e) {
            // only a runaway ScopeKey gets here (the instance handles its own expressions' errors)
            store.quarantine(service, "the ScopeKey " + e.getMessage());
            store.drop(DropReason.QUARANTINED, service);
        } catch (RuntimeException e) {
            store.drop(DropReason.INTERNAL_ERROR, service);
            if (errorLog.allow()) {
                LOG.warn("shard {}: processing a message of {} failed ({} more since the last report)", index, service,
                        errorLog.takeSuppressed(), e);
            }
        }
        return outcome;
    }

    private ServiceInstance create(InstanceKey key, ServiceRuntime service) {
        long now = clock.nanoTime();
        if (service.scope().perMessage() && tombstones.contains(key, now)) {
            store.drop(DropReason.TERMINATED_INSTANCE, service);
            return null;
        }
        if (!store.reserveInstance()) {
            store.drop(DropReason.INSTANCE_LIMIT, service);
            return null;
        }
        ServiceInstance instance = new ServiceInstance(key, service, this);
        instances.add(instance, now);
        service.counters().instanceCreated();
        store.nodeCounters().instanceCreated();
        instance.start();
        return instance;
    }

    /**
     * Creates the node's own instance of {@code service} under {@code key} and fires its
     * {@code <Start>} event (an internal task: the service was deployed). An instance of an
     * earlier spec under that key ends first (the replaced spec's loop must not run on beside the
     * new one); one of this very spec is left as it is (started already).
     */
    void startOnDeploy(ServiceRuntime service, InstanceKey key) {
        if (store.closed() || service.quarantined() || store.service(service.serviceId()) != service) {
            return; // unloaded, replaced or quarantined since the task was posted
        }
        ServiceInstance old = instances.get(key);
        if (old != null) {
            if (old.service() == service) {
                return;
            }
            instances.remove(old);
            discard(old, EndCause.UNLOADED, clock.nanoTime());
        }
        ServiceInstance instance = create(key, service);
        if (instance != null && instance.ended() == null) {
            instance.onDeploy();
        }
    }

    /** Removes idle instances and expired tombstones (a periodic internal task). */
    void sweep() {
        long now = clock.nanoTime();
        long idle = TimeUnit.MILLISECONDS.toNanos(config.instances().idleTimeoutMs());
        for (ServiceInstance i : instances.removeIdle(now - idle)) {
            discard(i, EndCause.IDLE, now);
        }
        tombstones.purge(now);
    }

    /** Removes every instance of {@code service} (unloaded or quarantined). */
    void removeService(ServiceRuntime service, EndCause cause) {
        long now = clock.nanoTime();
        for (ServiceInstance i : instances.removeIf(x -> x.service() == service)) {
            discard(i, cause, now);
        }
        evaluator.forget(service);
    }

    /** Removes every instance (the store closes). */
    void removeAll() {
        long now = clock.nanoTime();
        for (ServiceInstance i : instances.removeIf(x -> true)) {
            discard(i, EndCause.CLOSED, now);
        }
    }

    private void discard(ServiceInstance i, EndCause cause, long now) {
        i.dispose(cause);
        if (i.key().scope().perMessage() && cause == EndCause.IDLE) {
            tombstones.add(i.key(), now);
        }
        i.service().counters().instanceExpired();
        store.nodeCounters().instanceExpired();
        store.releaseInstance();
    }

    int liveInstances() {
        return instances.size();
    }

    int tombstones() {
        return tombstones.size();
    }

    long tombstonesEvicted() {
        return tombstones.evicted();
    }

    // ------------------------------------------------------------------ InstanceEnvironment

    @Override
    public OverlayContext overlay() {
        return store.overlay();
    }

    @Override
    public QueryEvaluator evaluator() {
        return evaluator;
    }

    @Override
    public InstanceLimits limits() {
        return config.instances();
    }

    @Override
    public Counters nodeCounters() {
        return store.nodeCounters();
    }

    @Override
    public SendBudget sendBudget() {
        return config.sendBudget();
    }

    @Override
    public ArmedTimer schedule(ServiceInstance instance, int timerId, long generation, long delayMillis) {
        if (wheel == null) {
            return ArmedTimer.of(timerId, generation, clock.schedule(delayMillis, TimeUnit.MILLISECONDS,
                    () -> post(() -> instance.onTimer(timerId, generation))));
        }
        InstanceTimer t = new InstanceTimer(instance, timerId, generation);
        wheel.schedule(t, clock.nanoTime(), TimeUnit.MILLISECONDS.toNanos(delayMillis));
        return t;
    }

    /** A timer of an instance on the shard's wheel: its expiry and its own cancel handle. */
    private final class InstanceTimer extends TimerWheel.Entry implements ArmedTimer {
        private final ServiceInstance instance;
        private final int timerId;
        private final long generation;

        InstanceTimer(ServiceInstance instance, int timerId, long generation) {
            this.instance = instance;
            this.timerId = timerId;
            this.generation = generation;
        }

        @Override
        public int timerId() {
            return timerId;
        }

        @Override
        public long generation() {
            return generation;
        }

        @Override
        protected void expire() {
            try {
                instance.onTimer(timerId, generation);
            } catch (RuntimeException e) {
                store.nodeCounters().drop(DropReason.INTERNAL_ERROR);
                if (errorLog.allow()) {
                    LOG.warn("shard {}: timer {} of {} failed", index, timerId, instance.service(), e);
                }
            }
        }
    }

    /** Timers on the shard's wheel (0 without one); shard thread only. */
    int wheelTimers() {
        return wheel == null ? 0 : wheel.size();
    }

    @Override
    public ActionQueue actionQueue() {
        return actionQueue;
    }

    @Override
    public void ended(ServiceInstance instance, EndCause cause) {
        if (!instances.remove(instance)) {
            return;
        }
        if (instance.key().scope().perMessage()) {
            tombstones.add(instance.key(), clock.nanoTime());
        }
        if (cause == EndCause.FINISHED) {
            instance.service().counters().instanceFinished();
            store.nodeCounters().instanceFinished();
        } else if (cause == EndCause.LIMIT) {
            instance.service().counters().instanceEndedByLimit(instance.stoppedBy());
            store.nodeCounters().instanceEndedByLimit(instance.stoppedBy());
        } else {
            instance.service().counters().instanceTerminated();
            store.nodeCounters().instanceTerminated();
        }
        store.releaseInstance();
    }

    @Override
    public void quarantine(ServiceRuntime service, String reason) {
        store.quarantine(service, reason);
    }

    // ------------------------------------------------------------------ EvaluationGuard

    @Override
    public void begin(Object owner, boolean firstUse) {
        evaluating.set(new Ticket((ServiceRuntime) owner, System.nanoTime(),
                firstUse ? firstUseLimitNanos : evaluationLimitNanos, Thread.currentThread(),
                measureCpu ? THREADS.getCurrentThreadCpuTime() : -1));
    }

    @Override
    public void end() {
        Ticket t = evaluating.get();
        if (t == null || t.thread() != Thread.currentThread() || !evaluating.compareAndSet(t, null)) {
            throw new ShardAbandoned();
        }
        if (t.cpuStartNanos() >= 0 && System.nanoTime() - t.startNanos() > t.limitNanos()) {
            // wall time says maybe; CPU time decides (a starved or paused thread is not a slow query)
            long cpu = THREADS.getCurrentThreadCpuTime() - t.cpuStartNanos();
            if (cpu > t.limitNanos()) {
                store.quarantine(t.service(), "a query used " + TimeUnit.NANOSECONDS.toMillis(cpu)
                        + " ms of CPU, more than the limit of " + TimeUnit.NANOSECONDS.toMillis(t.limitNanos()) + " ms");
            }
        }
    }

    /**
     * Called by the watchdog. An evaluation running longer than the limit (wall time) becomes a
     * suspect; once its thread has used another limit's worth of CPU time since, the watchdog
     * takes its ticket, quarantines its service and moves the shard to a fresh thread. CPU time
     * keeps a starved or paused thread (an overloaded machine, a long GC) from passing for a
     * runaway query; where the JVM cannot measure thread CPU time, twice the limit of wall time
     * decides.
     *
     * @return whether the shard was taken over
     */
    boolean checkOverrun(long nowNanos) {
        Ticket t = evaluating.get();
        if (t == null || nowNanos - t.startNanos() <= t.limitNanos()) {
            suspect = null;
            return false;
        }
        long cpu = THREADS.isThreadCpuTimeSupported() ? THREADS.getThreadCpuTime(t.thread().getId()) : -1;
        if (suspect != t) {
            suspect = t;
            suspectCpuNanos = cpu;
            return false;
        }
        boolean runaway = cpu >= 0 && suspectCpuNanos >= 0 ? cpu - suspectCpuNanos >= t.limitNanos()
                : nowNanos - t.startNanos() >= 2 * t.limitNanos();
        if (!runaway || !evaluating.compareAndSet(t, null)) {
            return false;
        }
        suspect = null;
        store.quarantine(t.service(), "a query ran longer than the limit of "
                + TimeUnit.NANOSECONDS.toMillis(t.limitNanos()) + " ms; its shard thread was abandoned");
        if (runner instanceof ThreadRunner thread) { // only dedicated threading has a watchdog
            thread.replaceThread(); // drains at once: queued work, and due timers the old thread had not fired
        }
        LOG.warn("shard {}: abandoned thread {} stuck in a query of {} for {} ms; the shard continues on a new thread",
                index, t.thread().getName(), t.service(), TimeUnit.NANOSECONDS.toMillis(nowNanos - t.startNanos()));
        return true;
    }

    /** Runs internal tasks left after the shard's thread stopped (close). */
    void runLeftovers() {
        Runnable task;
        while ((task = internal.poll()) != null) {
            runSafely(task);
        }
    }

    /** Stops the shard's runner after one more round of work. */
    void shutdown() {
        runner.stop();
    }

    /** Waits for the shard's own thread to end (dedicated threading); true at once for other runners. */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return runner.awaitTermination(timeout, unit);
    }
}
