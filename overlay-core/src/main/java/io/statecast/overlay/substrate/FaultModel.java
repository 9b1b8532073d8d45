package io.statecast.overlay.substrate;

import io.statecast.overlay.address.SubstrateAddress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Seeded fault injection for frames on directed links {@code from -> to}: loss, duplication,
 * reordering and delay as defined by {@link FaultConfig}, plus blackholes switched on and off by
 * command. One global configuration applies to every link without its own
 * ({@link #configureLink}). Used per link by {@link MemNetwork} and at the input or output of any
 * interface by {@link FaultyInterface}.
 *
 * <p><b>Determinism.</b> All random choices come from one generator seeded at construction, drawn
 * in the order {@link #decide} is called. The same seed, configuration and sequence of calls give
 * the same fates; a simulation on a {@link VirtualTimerService} therefore replays exactly. Over
 * real sockets the arrival order, and so the run, is not reproducible.
 *
 * <p>Thread-safe (decisions are serialised).
 */
public final class FaultModel {

    private final long seed;
    private final SplittableRandom random;
    private FaultConfig global;
    private final Map<Link, FaultConfig> links = new HashMap<>();
    private final Set<SubstrateAddress> blackholedNodes = new HashSet<>();
    private final Set<Link> blackholedLinks = new HashSet<>();
    private long seen;
    private long lost;
    private long blackholed;
    private long duplicated;
    private long reordered;
    private long delivered;

    /** A directed link. */
    private record Link(SubstrateAddress from, SubstrateAddress to) {
    }

    /**
     * What happens to one frame: dropped, or delivered after {@link #delayNanos()}, and possibly
     * a second time after {@link #duplicateDelayNanos()}.
     *
     * @param copies              0 (dropped), 1, or 2 (duplicated)
     * @param delayNanos          delay of the first copy
     * @param duplicateDelayNanos delay of the second copy (meaningful when {@code copies == 2})
     */
    public record Fate(int copies, long delayNanos, long duplicateDelayNanos) {
        /** The fate of a dropped frame. */
        public static final Fate DROPPED = new Fate(0, 0, 0);
        /** The fate of a frame passed on at once. */
        public static final Fate IMMEDIATE = new Fate(1, 0, 0);
    }

    /** A model without faults (configure later), seeded with {@code seed}. */
    public FaultModel(long seed) {
        this(seed, FaultConfig.NONE);
    }

    /**
     * @param seed   seeds every random choice
     * @param global the configuration of links without their own
     */
    public FaultModel(long seed, FaultConfig global) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.global = Objects.requireNonNull(global, "global");
    }

    /** The seed. */
    public long seed() {
        return seed;
    }

    /** Replaces the configuration of links without their own. */
    public synchronized void configure(FaultConfig config) {
        this.global = Objects.requireNonNull(config, "config");
    }

    /** The configuration of links without their own. */
    public synchronized FaultConfig configuration() {
        return global;
    }

    /** Gives the directed link {@code from -> to} its own configuration. */
    public synchronized void configureLink(SubstrateAddress from, SubstrateAddress to, FaultConfig config) {
        links.put(new Link(Objects.requireNonNull(from, "from"), Objects.requireNonNull(to, "to")),
                Objects.requireNonNull(config, "config"));
    }

    /** Returns the directed link {@code from -> to} to the global configuration. */
    public synchronized void clearLink(SubstrateAddress from, SubstrateAddress to) {
        links.remove(new Link(from, to));
    }

    /** Drops every frame from or to {@code node} until {@link #liftNode}. */
    public synchronized void blackholeNode(SubstrateAddress node) {
        blackholedNodes.add(Objects.requireNonNull(node, "node"));
    }

    /** Ends {@link #blackholeNode}. */
    public synchronized void liftNode(SubstrateAddress node) {
        blackholedNodes.remove(node);
    }

    /** Drops every frame on the directed link {@code from -> to} until {@link #liftLink}. */
    public synchronized void blackholeLink(SubstrateAddress from, SubstrateAddress to) {
        blackholedLinks.add(new Link(Objects.requireNonNull(from, "from"), Objects.requireNonNull(to, "to")));
    }

    /** Ends {@link #blackholeLink}. */
    public synchronized void liftLink(SubstrateAddress from, SubstrateAddress to) {
        blackholedLinks.remove(new Link(from, to));
    }

    /** Ends every blackhole. */
    public synchronized void liftAll() {
        blackholedNodes.clear();
        blackholedLinks.clear();
    }

    /**
     * Decides the fate of one frame on {@code from -> to} and counts it. A blackholed frame draws
     * no random numbers.
     */
    public synchronized Fate decide(SubstrateAddress from, SubstrateAddress to) {
        seen++;
        if (!blackholedNodes.isEmpty() && (blackholedNodes.contains(from) || blackholedNodes.contains(to))
                || !blackholedLinks.isEmpty() && blackholedLinks.contains(new Link(from, to))) {
            blackholed++;
            return Fate.DROPPED;
        }
        FaultConfig c = links.isEmpty() ? global : links.getOrDefault(new Link(from, to), global);
        if (c.isNone()) {
            delivered++;
            return Fate.IMMEDIATE;
        }
        if (c.lossProbability() > 0 && random.nextDouble() < c.lossProbability()) {
            lost++;
            return Fate.DROPPED;
        }
        long delay = baseDelay(c);
        if (c.reorderProbability() > 0 && random.nextDouble() < c.reorderProbability()) {
            reordered++;
            delay += 1 + random.nextLong(c.reorderDelay().toNanos());
        }
        if (c.duplicateProbability() > 0 && random.nextDouble() < c.duplicateProbability()) {
            duplicated++;
            delivered += 2;
            return new Fate(2, delay, baseDelay(c));
        }
        delivered++;
        return new Fate(1, delay, 0);
    }

    private long baseDelay(FaultConfig c) {
        long d = c.fixedDelay().toNanos();
        long j = c.jitter().toNanos();
        return j > 0 ? d + random.nextLong(j + 1) : d;
    }

    /** What the model has done so far. */
    public synchronized FaultStats stats() {
        return new FaultStats(seen, lost, blackholed, duplicated, reordered, delivered);
    }
}
