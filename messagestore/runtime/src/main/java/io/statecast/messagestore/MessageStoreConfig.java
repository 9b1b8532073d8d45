package io.statecast.messagestore;

import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.SendBudget;
import io.statecast.messagestore.spec.SpecLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link MessageStore}. Every field has a default ({@link #defaults()}). In a
 * socket configuration they are the store's part of the {@code messageStore} section, which
 * Jackson maps onto {@code deploy.MessageStoreSettings} (file names and ranges in
 * {@code docs/config.md}).
 *
 * @param shards                  worker shards; an instance lives on the shard its key hashes to.
 *                                Default: the number of available processors
 * @param threading               how shards run ({@link Threading}): on their own threads
 *                                (default; 16 MiB stacks for deep queries, a watchdog guards query
 *                                time), as tasks of the overlay's timer service (deterministic with
 *                                a virtual clock; no watchdog, a query's CPU time is checked when it
 *                                returns), or as tasks of the node's only receive thread. The last
 *                                gave 8 % more messages per second on the single-hop benchmark and
 *                                7 % less CPU per message on the testbed, but its queries run on
 *                                that thread's default stack without a watchdog, so a slow query
 *                                holds up every frame behind it, heartbeats included: for services
 *                                whose queries are short, such as the shipped ones. Where there is
 *                                no single receive thread the store runs as with clock threading
 *                                and logs so ({@code MessageStore.threading()} tells which)
 * @param dataQueueCapacity       data (payload) messages waiting for the shards, per store; one
 *                                more is dropped and counted. Default {@value #DEFAULT_QUEUE_CAPACITY}
 * @param controlQueueCapacity    control messages waiting, per store. Default
 *                                {@value #DEFAULT_QUEUE_CAPACITY}
 * @param instances               bounds on instances (live count, history, timers, primitive rate,
 *                                idle timeout, tombstones)
 * @param unknownServiceMessages  messages of services not loaded held at once. Default
 *                                {@value #DEFAULT_UNKNOWN_SERVICE_MESSAGES}
 * @param unknownServiceHold      how long such a message waits for its spec. Default 5 s
 * @param specLimits              bounds on loaded specs; {@code queries().evaluationTimeout()} is the
 *                                run-time limit of one XPath/XQuery evaluation, in CPU time
 *                                (default 100 ms): a query that keeps running past it is taken off
 *                                its shard thread and its service quarantined (unloaded, instances
 *                                ended, messages refused, the same spec bytes refused if loaded
 *                                again). The first evaluation of each query per shard may take the
 *                                compile limit (5 s): a cold JVM loads classes
 * @param warmStart               run a throw-away instance through every event of a spec when it
 *                                loads (blueprint §5.1.7.2). Default true
 * @param warmStartTimeout        CPU time a warm start may use before the spec is refused (60
 *                                times as long in wall-clock time ends one that never gets the
 *                                CPU). Default 5 s
 * @param timerTick               tick of the timer wheel a dedicated or io shard on the system
 *                                clock keeps its instances' timers on, set, cancelled and fired on
 *                                the shard's own thread: a timer fires up to one tick late, never
 *                                early, and timers due in the same tick fire in the order they were
 *                                set. An idle shard sleeps until its earliest timer is due, or until
 *                                it has looked past a few timers of later wheel revolutions (4,096
 *                                ticks make one); an io shard keeps one wake-up scheduled on its
 *                                event loop for that moment. Timers two revolutions out or more wait
 *                                on a coarser wheel of revolution-long slots until their revolution
 *                                is next, so hundreds of thousands of long linger timers are not
 *                                passed over every revolution. Zero: timers are tasks of the
 *                                overlay's timer service instead, posted back into the shard when
 *                                they expire (always so with clock threading or a virtual clock).
 *                                Default {@link #DEFAULT_TIMER_TICK} (1 ms), at most 1 s
 * @param warmStartRounds         rounds of throw-away instances a warm start runs per spec. The
 *                                first rounds check the spec; the rest only let the JIT compile
 *                                the engine's path before the first real message, and stop early
 *                                once half of {@link #warmStartTimeout} has passed (CPU or wall
 *                                time), so they never make a spec fail. Default
 *                                {@value #DEFAULT_WARM_START_ROUNDS}, within
 *                                1..{@value #MAX_WARM_START_ROUNDS}. The first 3 rounds always run;
 *                                below 3 the spec is checked with fewer messages. With 3 rounds the
 *                                engine's path (instance creation, matching, actions, history)
 *                                still runs interpreted and the first message costs about 5 ms of
 *                                CPU in the store instead of about 60 µs. Why 300: with h2h-ack it
 *                                gets that path compiled at tier 3 (C1) for about 0.1 s of the
 *                                warm-start thread's CPU per spec (plus the JIT's threads); 1,000
 *                                rounds cost 0.15–0.25 s and, in ttcp runs, gave no faster first
 *                                message (a likely reason, not verified: more methods reach C2 with
 *                                a profile of synthetic messages only, and a real message taking
 *                                other branches sends them back to the interpreter). Lower it to
 *                                load many specs quickly
 * @param sendBudget              messages one service may send from this node per second, over all
 *                                its instances ({@link SendBudget}). Default {@link SendBudget#DEFAULTS}
 */
public record MessageStoreConfig(
        int shards,
        Threading threading,
        int dataQueueCapacity,
        int controlQueueCapacity,
        InstanceLimits instances,
        int unknownServiceMessages,
        Duration unknownServiceHold,
        SpecLimits specLimits,
        boolean warmStart,
        Duration warmStartTimeout,
        Duration timerTick,
        int warmStartRounds,
        SendBudget sendBudget) {

    /** Default of the queue capacities. */
    public static final int DEFAULT_QUEUE_CAPACITY = 10_000;
    /** Default of {@link #unknownServiceMessages}. */
    public static final int DEFAULT_UNKNOWN_SERVICE_MESSAGES = 1_000;
    /** Most shards accepted. */
    public static final int MAX_SHARDS = 256;
    /** Default of {@link #timerTick}. */
    public static final Duration DEFAULT_TIMER_TICK = Duration.ofMillis(1);
    /** Longest {@link #timerTick} accepted. */
    public static final Duration MAX_TIMER_TICK = Duration.ofSeconds(1);
    /** Default of {@link #warmStartRounds}. */
    public static final int DEFAULT_WARM_START_ROUNDS = 300;
    /** Most {@link #warmStartRounds} accepted. */
    public static final int MAX_WARM_START_ROUNDS = 1_000_000;

    /** How shards run. */
    public enum Threading {
        /** One thread per shard, each with a large stack (query evaluation recurses). */
        DEDICATED,
        /**
         * Shards run as tasks of the overlay's timer service. With a virtual clock everything is
         * deterministic (tests, simulations); no watchdog can take a stuck shard over.
         */
        CLOCK,
        /**
         * Shards run as tasks of the thread that receives the node's frames (the event loop of
         * its only substrate interface, {@code OverlayContext.receiveExecutor}): no hand-off
         * between threads on the receive path, and sends are written by the thread that owns the
         * socket. Queries then run on that thread too, so it suits services with short queries;
         * no watchdog can take a stuck shard over. Where there is no such single thread (several
         * interfaces, a virtual clock) the store runs as with {@link #CLOCK}.
         */
        IO
    }

    /** Checks ranges; the message names the field and the value. */
    public MessageStoreConfig {
        Objects.requireNonNull(threading, "threading");
        Objects.requireNonNull(instances, "instances");
        Objects.requireNonNull(unknownServiceHold, "unknownServiceHold");
        Objects.requireNonNull(specLimits, "specLimits");
        Objects.requireNonNull(warmStartTimeout, "warmStartTimeout");
        Objects.requireNonNull(timerTick, "timerTick");
        Objects.requireNonNull(sendBudget, "sendBudget");
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new IllegalArgumentException("shards must be 1.." + MAX_SHARDS + ", got " + shards);
        }
        if (dataQueueCapacity < 1 || controlQueueCapacity < 1) {
            throw new IllegalArgumentException("queue capacities must be >= 1, got dataQueueCapacity=" + dataQueueCapacity
                    + ", controlQueueCapacity=" + controlQueueCapacity);
        }
        if (unknownServiceMessages < 0) {
            throw new IllegalArgumentException("unknownServiceMessages must be >= 0, got " + unknownServiceMessages);
        }
        if (unknownServiceHold.isNegative() || unknownServiceHold.isZero()) {
            throw new IllegalArgumentException("unknownServiceHold must be > 0, got " + unknownServiceHold);
        }
        if (warmStartTimeout.isNegative() || warmStartTimeout.isZero()) {
            throw new IllegalArgumentException("warmStartTimeout must be > 0, got " + warmStartTimeout);
        }
        if (timerTick.isNegative() || timerTick.compareTo(MAX_TIMER_TICK) > 0) {
            throw new IllegalArgumentException("timerTick must be within 0.." + MAX_TIMER_TICK + ", got " + timerTick);
        }
        if (warmStartRounds < 1 || warmStartRounds > MAX_WARM_START_ROUNDS) {
            throw new IllegalArgumentException("warmStartRounds must be 1.." + MAX_WARM_START_ROUNDS + ", got "
                    + warmStartRounds);
        }
    }

    /** A configuration with the default {@link SendBudget}. */
    public MessageStoreConfig(int shards, Threading threading, int dataQueueCapacity, int controlQueueCapacity,
            InstanceLimits instances, int unknownServiceMessages, Duration unknownServiceHold, SpecLimits specLimits,
            boolean warmStart, Duration warmStartTimeout, Duration timerTick, int warmStartRounds) {
        this(shards, threading, dataQueueCapacity, controlQueueCapacity, instances, unknownServiceMessages,
                unknownServiceHold, specLimits, warmStart, warmStartTimeout, timerTick, warmStartRounds,
                SendBudget.DEFAULTS);
    }

    /** Settings with the default {@link #warmStartRounds}. */
    public MessageStoreConfig(int shards, Threading threading, int dataQueueCapacity, int controlQueueCapacity,
            InstanceLimits instances, int unknownServiceMessages, Duration unknownServiceHold, SpecLimits specLimits,
            boolean warmStart, Duration warmStartTimeout, Duration timerTick) {
        this(shards, threading, dataQueueCapacity, controlQueueCapacity, instances, unknownServiceMessages,
                unknownServiceHold, specLimits, warmStart, warmStartTimeout, timerTick, DEFAULT_WARM_START_ROUNDS);
    }

    /** Settings with the default {@link #timerTick}. */
    public MessageStoreConfig(int shards, Threading threading, int dataQueueCapacity, int controlQueueCapacity,
            InstanceLimits instances, int unknownServiceMessages, Duration unknownServiceHold, SpecLimits specLimits,
            boolean warmStart, Duration warmStartTimeout) {
        this(shards, threading, dataQueueCapacity, controlQueueCapacity, instances, unknownServiceMessages,
                unknownServiceHold, specLimits, warmStart, warmStartTimeout, DEFAULT_TIMER_TICK);
    }

    /** The defaults described above. */
    public static MessageStoreConfig defaults() {
        return new MessageStoreConfig(Runtime.getRuntime().availableProcessors(), Threading.DEDICATED,
                DEFAULT_QUEUE_CAPACITY, DEFAULT_QUEUE_CAPACITY, InstanceLimits.DEFAULTS,
                DEFAULT_UNKNOWN_SERVICE_MESSAGES, Duration.ofSeconds(5), SpecLimits.DEFAULTS, true, Duration.ofSeconds(5));
    }

    /** This configuration with {@code n} shards. */
    public MessageStoreConfig withShards(int n) {
        return new MessageStoreConfig(n, threading, dataQueueCapacity, controlQueueCapacity, instances,
                unknownServiceMessages, unknownServiceHold, specLimits, warmStart, warmStartTimeout, timerTick, warmStartRounds, sendBudget);
    }

    /** This configuration with another threading. */
    public MessageStoreConfig withThreading(Threading t) {
        return new MessageStoreConfig(shards, t, dataQueueCapacity, controlQueueCapacity, instances,
                unknownServiceMessages, unknownServiceHold, specLimits, warmStart, warmStartTimeout, timerTick, warmStartRounds, sendBudget);
    }

    /** This configuration with other queue capacities. */
    public MessageStoreConfig withQueues(int data, int control) {
        return new MessageStoreConfig(shards, threading, data, control, instances, unknownServiceMessages,
                unknownServiceHold, specLimits, warmStart, warmStartTimeout, timerTick, warmStartRounds, sendBudget);
    }

    /** This configuration with other instance limits. */
    public MessageStoreConfig withInstances(InstanceLimits limits) {
        return new MessageStoreConfig(shards, threading, dataQueueCapacity, controlQueueCapacity, limits,
                unknownServiceMessages, unknownServiceHold, specLimits, warmStart, warmStartTimeout, timerTick, warmStartRounds, sendBudget);
    }

    /** This configuration with another unknown-service hold. */
    public MessageStoreConfig withUnknownServiceHold(int messages, Duration hold) {
        return new MessageStoreConfig(shards, threading, dataQueueCapacity, controlQueueCapacity, instances, messages,
                hold, specLimits, warmStart, warmStartTimeout, timerTick, warmStartRounds, sendBudget);
    }

    /** This configuration with other spec limits. */
    public MessageStoreConfig withSpecLimits(SpecLimits limits) {
        return new MessageStoreConfig(shards, threading, dataQueueCapacity, controlQueueCapacity, instances,
                unknownServiceMessages, unknownServiceHold, limits, warmStart, warmStartTimeout, timerTick, warmStartRounds, sendBudget);
    }

    /** This configuration with warm start on or off. */
    public MessageStoreConfig withWarmStart(boolean on) {
        return new MessageStoreConfig(shards, threading, dataQueueCapacity, controlQueueCapacity, instances,
                unknownServiceMessages, unknownServiceHold, specLimits, on, warmStartTimeout, timerTick, warmStartRounds, sendBudget);
    }

    /** This configuration with another {@link #timerTick} (zero: timers on the overlay's timer service). */
    public MessageStoreConfig withTimerTick(Duration tick) {
        return new MessageStoreConfig(shards, threading, dataQueueCapacity, controlQueueCapacity, instances,
                unknownServiceMessages, unknownServiceHold, specLimits, warmStart, warmStartTimeout, tick, warmStartRounds, sendBudget);
    }

    /** This configuration with another {@link #warmStartRounds}. */
    public MessageStoreConfig withWarmStartRounds(int rounds) {
        return new MessageStoreConfig(shards, threading, dataQueueCapacity, controlQueueCapacity, instances,
                unknownServiceMessages, unknownServiceHold, specLimits, warmStart, warmStartTimeout, timerTick, rounds, sendBudget);
    }

    /** This configuration with another send budget per service. */
    public MessageStoreConfig withSendBudget(SendBudget budget) {
        return new MessageStoreConfig(shards, threading, dataQueueCapacity, controlQueueCapacity, instances,
                unknownServiceMessages, unknownServiceHold, specLimits, warmStart, warmStartTimeout, timerTick,
                warmStartRounds, budget);
    }

    /** The run-time limit of one query evaluation. */
    public Duration evaluationLimit() {
        return specLimits.queries().evaluationTimeout();
    }
}
