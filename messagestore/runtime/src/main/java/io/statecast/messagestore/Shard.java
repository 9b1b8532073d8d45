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
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.instance.Tombstones;
import io.statecast.messagestore.metrics.Counters;
import io.statecast.messagestore.metrics.DropReason;
import io.statecast.messagestore.spec.Scope;
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
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One single-threaded worker of a {@link MessageStore}: it owns the instances whose keys hash to
 * it, their tombstones and its query evaluators, and nothing else touches them — no locks.
 *
 * <p>Work arrives in three lock-free queues: internal tasks (sweeps, removals, timer expiries
 * with clock threading; never dropped, bounded by instances × timers), control messages and data
 * messages (bounded per store by the store's counters). A drain runs while work is waiting: all
 * internal tasks first, then due timers, then control before data, in batches. With clock
 * threading the drain is a task of the timer service that re-posts itself, so that other shards
 * sharing that thread get their turn; with dedicated threading the shard's own thread loops over
 * drains and parks when idle.
 *
 * <p>Timers of instances: a dedicated shard on the system clock ({@link RealTimerService}) keeps
 * them on its own {@link TimerWheel}, advanced by its thread after every message and on waking,
 * its idle park timed to the next occupied tick — no timer thread, no hand-off, no wake-up of
 * another thread. Otherwise (clock threading, a virtual clock, {@code timerTick} zero) they are
 * tasks of the overlay's timer service that post the expiry into the shard, which keeps virtual
 * time deterministic.
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

    private final MessageStore store;
    private final int index;
    private final ConcurrentLinkedQueue<Runnable> internal = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Inbound> control = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Inbound> data = new ConcurrentLinkedQueue<>();
    /**
     * Whether data messages are held back because the application's receive queue is full (since
     * {@link #dataHeldSince}, real time); shard thread only.
     */
    private boolean dataHeld;
    private long dataHeldSince;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final AtomicReference<Ticket> evaluating = new AtomicReference<>();
    private final RateLimitedLog errorLog = RateLimitedLog.onePer(LOG, Duration.ofSeconds(10));
    private final Runnable drainTask = this::drainTask;
    /** Clock or io threading: what the drain task runs on; null with dedicated threading. */
    private final Executor executor;
    /** Io threading: the receive thread the drains run on, also waking the shard for its wheel's timers; else null. */
    private final ScheduledExecutorService loop;
    /** Io threading: the wake-up armed on {@link #loop} for the wheel's next timer, and when it is due (loop only). */
    private ScheduledFuture<?> wake;
    private long wakeAt = Long.MAX_VALUE;
    private final Runnable wakeTask = this::onWake;
    /** Dedicated threading: the shard's current thread (a new one after the watchdog took over). */
    private volatile Thread thread;
    private volatile boolean stopping;
    private volatile Thread owner;
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

    Shard(MessageStore store, int index, int tombstoneCapacity) {
        this.store = store;
        this.index = index;
        InstanceLimits limits = store.config().instances();
        this.tombstones = new Tombstones(tombstoneCapacity, TimeUnit.MILLISECONDS.toNanos(limits.tombstoneTtlMs()));
        this.evaluationLimitNanos = store.config().evaluationLimit().toNanos();
        this.firstUseLimitNanos = Math.max(evaluationLimitNanos,
                store.config().specLimits().queries().compileTimeout().toNanos());
        boolean dedicated = store.threading() == MessageStoreConfig.Threading.DEDICATED;
        this.clock = store.context().timers();
        this.loop = store.threading() == MessageStoreConfig.Threading.IO ? store.context().receiveExecutor() : null;
        long tick = store.config().timerTick().toNanos();
        this.wheel = (dedicated || loop != null) && tick > 0 && clock instanceof RealTimerService
                ? new TimerWheel(tick, clock.nanoTime()) : null;
        this.executor = dedicated ? null : loop != null ? loop : clock;
        this.measureCpu = !dedicated && THREADS.isCurrentThreadCpuTimeSupported();
        if (dedicated) {
            startThread();
        }
    }

    private void startThread() {
        long stack = store.config().specLimits().queries().workerStackBytes();
        Thread t = new Thread(null, this::runThread, store.threadNamePrefix() + "shard-" + index, stack);
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    int index() {
        return index;
    }

    // ------------------------------------------------------------------ producers (any thread)

    void offer(Inbound in) {
        (in.data() ? data : control).add(in);
        signal();
    }

    void post(Runnable task) {
        internal.add(task);
        signal();
    }

    private void signal() {
        if (scheduled.compareAndSet(false, true)) {
            if (executor == null) {
                LockSupport.unpark(thread);
                return;
            }
            try {
                executor.execute(drainTask);
            } catch (RuntimeException e) {
                // executor shut down (store closing): nothing will run any more
                scheduled.set(false);
            }
        }
    }

    // ------------------------------------------------------------------ the shard's thread

    /** Clock or io threading: one drain as a task of the executor, re-posted while work waits. */
    private void drainTask() {
        Thread me = Thread.currentThread();
        owner = me;
        try {
            drain();
        } finally {
            if (owner == me) {
                scheduled.set(false);
                if (hasWork()) {
                    signal();
                } else if (loop != null && wheel != null) {
                    armWake();
                }
            }
        }
    }

    /**
     * Io threading: makes sure a wake-up is armed on the loop for the wheel's next deadline, so
     * an idle shard fires its timers on time. One wake-up at a time; a new one only when the
     * wheel's next deadline is earlier than the armed one's. Loop thread only.
     */
    private void armWake() {
        long next = wheel.nextDeadlineNanos();
        if (next == Long.MAX_VALUE || next >= wakeAt) {
            return;
        }
        long now = clock.nanoTime();
        if (wake != null) {
            wake.cancel(false);
        }
        wakeAt = next;
        try {
            // next is Long.MIN_VALUE while due timers wait (an expiry threw): at once, not after an overflow
            wake = loop.schedule(wakeTask, next <= now ? 0 : next - now, TimeUnit.NANOSECONDS);
        } catch (RuntimeException e) {
            // the loop has shut down (the socket is closing): nothing runs here any more
            wake = null;
            wakeAt = Long.MAX_VALUE;
        }
    }

    /** Io threading: the armed wake-up is due; the drain it starts advances the wheel. */
    private void onWake() {
        wake = null;
        wakeAt = Long.MAX_VALUE;
        signal();
    }

    /**
     * Dedicated threading: the shard's thread. {@link #scheduled} is true while it is awake; a
     * producer that finds it false sets it and unparks the thread, which re-checks the queues
     * after clearing it, so no wake-up is lost. Idle, it parks until the next timer's tick.
     */
    private void runThread() {
        Thread me = Thread.currentThread();
        owner = me;
        scheduled.set(true);
        try {
            while (owner == me) {
                drain();
                if (stopping) {
                    return;
                }
                if (hasWork()) {
                    continue;
                }
                scheduled.set(false);
                if (hasWork()) {
                    scheduled.set(true);
                    continue;
                }
                long next = wheel == null ? Long.MAX_VALUE : wheel.nextDeadlineNanos();
                long park = Long.MAX_VALUE; // until unparked
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
                if (park == Long.MAX_VALUE) {
                    LockSupport.park(this);
                } else if (park > 0) {
                    LockSupport.parkNanos(this, park);
                }
                scheduled.set(true);
            }
        } catch (ShardAbandoned e) {
            // the watchdog gave this thread up (and logged it); the shard goes on on another one
        }
    }

    private boolean hasWork() {
        return !internal.isEmpty() || !control.isEmpty() || (!data.isEmpty() && !holdData());
    }

    /**
     * Whether data messages wait now: the application's receive queue is full, and has been for
     * less than its delivery wait ({@code overlay.buffers.deliveryWaitMs}). A data message is what
     * brings a delivery, and a delivery that waited for room on this thread held up every control
     * message and timer of the shard; held back in its queue instead, it waits while those go on
     * (acknowledgements complete other instances, retransmissions and give-ups run on time), and
     * the queue refuses new data messages before any instance acknowledges them. Once the wait is
     * over and the queue still full, data flows again and each delivery waits for room itself, as
     * the sink allows. Not with clock threading (nothing would come back to look again).
     */
    private boolean holdData() {
        if (executor != null) {
            return false;
        }
        OverlayContext overlay = store.context();
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
     * Internal tasks, due timers, then up to {@link #BATCH} messages (control first); the
     * application is woken for what they delivered every {@link #FLUSH_EVERY} messages and at the
     * end.
     */
    private void drain() {
        try {
            int done = 0;
            runInternal();
            advanceTimers();
            while (done < BATCH) {
                Inbound in = control.poll();
                if (in == null && !data.isEmpty() && !holdData()) {
                    in = data.poll();
                }
                if (in == null) {
                    break;
                }
                store.taken(in);
                process(in);
                done++;
                runInternal();
                advanceTimers();
                if (done % FLUSH_EVERY == 0) {
                    flushDeliveries();
                }
            }
        } finally {
            flushDeliveries();
        }
    }

    private void flushDeliveries() {
        OverlayContext overlay = store.context();
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

    private void advanceTimers() {
        if (wheel != null) {
            wheel.advance(clock.nanoTime());
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
        InFlightCounter count = store.sendWindow().counter(in.service().serviceId());
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
        if (store.isClosed()) {
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
                InstanceKey key = service.keyOf(m, store.context().localAddress(), evaluator);
                if (key == null) {
                    store.drop(DropReason.NO_INSTANCE_KEY, service);
                    return outcome;
                }
                in = in.withKey(key);
                if (!store.isShardOf(key, this)) {
                    store.dispatch(in);
                    return Outcome.KEPT;
                }
            }
            int slot = instances.find(in.key());
            ServiceInstance instance = slot < 0 ? null : instances.at(slot);
            if (instance == null) {
                ServiceRuntime current = store.registry().get(service.serviceId());
                if (current == null) {
                    store.drop(DropReason.SERVICE_UNLOADED, service);
                    return outcome;
                }
                if (current.keysDifferently(service)) {
                    store.redispatch(current, in); // reloaded with another scope: the key changed
                    return Outcome.KEPT;
                }
                service = current;
            } else {
                service = instance.service();
            }
            List<MessageEventDefinition> matched = service.spec().matchMessage(m, store.context().localAddress());
            if (matched.isEmpty()) {
                store.drop(DropReason.NOT_AN_INPUT, service);
                return outcome;
            }
            if (instance == null) {
                if (!service.spec().createsInstance(m, matched)) {
                    // a late reply to an ended instance is expected; one about a message never seen is not
                    boolean ended = service.scope().perMessage()
                            && tombstones.contains(in.key(), store.context().timers().nanoTime());
                    store.drop(ended ? DropReason.TERMINATED_INSTANCE : DropReason.NO_INSTANCE, service);
                    return outcome;
                }
                instance = create(in.key(), service);
                if (instance == null || instance.ended() != null) {
                    return outcome;
                }
            } else {
                // nothing was added or removed since find: the slot still holds it
                instances.touch(slot, store.context().timers().nanoTime());
            }
            if (in.own() && instance.adoptOwnMessage(store.sendWindow().counter(service.serviceId()))) {
                outcome = Outcome.KEPT;
            }
            instance.onMessage(m, matched);
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
        long now = store.context().timers().nanoTime();
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
        if (store.isClosed() || service.quarantined() || store.registry().get(service.serviceId()) != service) {
            return; // unloaded, replaced or quarantined since the task was posted
        }
        ServiceInstance old = instances.get(key);
        if (old != null) {
            if (old.service() == service) {
                return;
            }
            instances.remove(old);
            discard(old, EndCause.UNLOADED, store.context().timers().nanoTime());
        }
        ServiceInstance instance = create(key, service);
        if (instance != null && instance.ended() == null) {
            instance.onDeploy();
        }
    }

    /** Removes idle instances and expired tombstones (a periodic internal task). */
    void sweep() {
        long now = store.context().timers().nanoTime();
        long idle = TimeUnit.MILLISECONDS.toNanos(store.config().instances().idleTimeoutMs());
        for (ServiceInstance i : instances.removeIdle(now - idle)) {
            discard(i, EndCause.IDLE, now);
        }
        tombstones.purge(now);
    }

    /** Removes every instance of {@code service} (unloaded or quarantined). */
    void removeService(ServiceRuntime service, EndCause cause) {
        long now = store.context().timers().nanoTime();
        for (ServiceInstance i : instances.removeIf(x -> x.service() == service)) {
            discard(i, cause, now);
        }
        evaluator.forget(service);
    }

    /** Removes every instance (the store closes). */
    void removeAll() {
        long now = store.context().timers().nanoTime();
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
        return store.context();
    }

    @Override
    public QueryEvaluator evaluator() {
        return evaluator;
    }

    @Override
    public InstanceLimits limits() {
        return store.config().instances();
    }

    @Override
    public Counters nodeCounters() {
        return store.nodeCounters();
    }

    @Override
    public SendBudget sendBudget() {
        return store.config().sendBudget();
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
            tombstones.add(instance.key(), store.context().timers().nanoTime());
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
        owner = null; // the stuck thread ends once Saxon returns (ShardAbandoned)
        startThread(); // drains at once: queued work, and due timers the old thread had not fired
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

    /** Stops the shard's own thread after one more drain (dedicated threading). */
    void shutdown() {
        if (executor == null) {
            stopping = true;
            LockSupport.unpark(thread);
        }
    }

    /** Waits for the shard's own thread to end (dedicated threading). */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        if (executor != null) {
            return true;
        }
        Thread t = thread;
        t.join(Math.max(1, unit.toMillis(timeout)));
        return !t.isAlive();
    }
}
