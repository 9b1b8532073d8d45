package io.statecast.overlay.sim;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.node.NodeState;
import io.statecast.overlay.node.dt.DtTopology;
import io.statecast.overlay.socket.NodeType;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlayConfigException;
import io.statecast.overlay.socket.OverlaySocket;
import io.statecast.overlay.substrate.FaultModel;
import io.statecast.overlay.substrate.MemNetwork;
import io.statecast.overlay.substrate.MemNetworkConfig;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A DT overlay of whole {@link OverlaySocket}s (codec, adapter, DT node, forwarding engine) on
 * one in-memory substrate ({@link MemNetwork}) driven by a virtual clock
 * ({@link VirtualTimerService}). Everything runs on the calling thread; the same seed gives the
 * same run. Used by {@code statecast sim} and by the DT tests.
 *
 * <p>Nodes are named {@code mem://n0}, {@code mem://n1}, … in the order they are added. Faults
 * (loss, delay, blackholes) are set on {@link #network()}{@code .faults()}.
 */
public final class DtSimulation implements AutoCloseable {

    /** The overlay ID every simulated socket uses. */
    public static final String OVERLAY_ID = "statecast-sim";

    private final long seed;
    private final Random random;
    private final VirtualTimerService clock = new VirtualTimerService();
    private final MemNetwork net;
    private final OverlayConfig template;
    private final List<OverlaySocket> sockets = new ArrayList<>();
    private final Set<OverlaySocket> joined = new HashSet<>();
    private final Set<OverlaySocket> gone = new HashSet<>();
    private long lastNeighbourChangeNanos;
    private long neighbourChanges;

    /** A simulation with the default DT configuration. */
    public DtSimulation(long seed) {
        this(seed, OverlayConfig.defaults(OVERLAY_ID, NodeType.DT));
    }

    /**
     * @param seed     seeds the network's faults, the buddies and each socket's randomness
     * @param template the configuration every socket starts from (its address, interfaces and
     *                 buddies are replaced per node)
     */
    public DtSimulation(long seed, OverlayConfig template) {
        this.seed = seed;
        this.random = new Random(seed);
        this.template = Objects.requireNonNull(template, "template");
        this.net = new MemNetwork(clock, new FaultModel(seed), MemNetworkConfig.defaults());
    }

    /** The seed. */
    public long seed() {
        return seed;
    }

    /** The simulation's own random generator (seeded), for choosing nodes, pairs, roots. */
    public Random random() {
        return random;
    }

    /** The virtual clock. */
    public VirtualTimerService clock() {
        return clock;
    }

    /** The in-memory network (faults on {@code network().faults()}). */
    public MemNetwork network() {
        return net;
    }

    /** The configuration template. */
    public OverlayConfig template() {
        return template;
    }

    /**
     * Adds a socket (not joined yet).
     *
     * @param address {@code x,y} or {@code RANDOM}
     * @param buddies its buddy list
     */
    public OverlaySocket add(String address, List<SubstrateAddress> buddies) {
        String name = "n" + sockets.size();
        OverlayConfig c = template.withAddress(address).withInterfaces(List.of(SubstrateAddress.mem(name))).withBuddies(buddies);
        OverlaySocket s;
        try {
            s = OverlaySocket.builder(c).interfaces(List.of(net.newInterface(name))).timers(clock)
                    .random(new SplittableRandom(random.nextLong())).exportMetrics(false).build();
        } catch (OverlayConfigException e) {
            throw new IllegalArgumentException("simulation configuration: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        s.node().addListener((prev, cur) -> {
            if (!prev.neighbours().equals(cur.neighbours())) {
                lastNeighbourChangeNanos = clock.nanoTime();
                neighbourChanges++;
            }
        });
        sockets.add(s);
        return s;
    }

    /** Adds a socket at {@code point}. */
    public OverlaySocket add(DtAddress point, List<SubstrateAddress> buddies) {
        return add(point.x() + "," + point.y(), buddies);
    }

    /**
     * Adds one socket per point; each gets up to {@code buddiesPerNode} distinct random earlier
     * sockets as buddies (the first none: it founds the overlay).
     */
    public List<OverlaySocket> addAll(Collection<DtAddress> points, int buddiesPerNode) {
        int first = sockets.size();
        List<OverlaySocket> added = new ArrayList<>();
        for (DtAddress p : points) {
            int earlier = sockets.size() - first;
            Set<SubstrateAddress> buddies = new LinkedHashSet<>();
            while (buddies.size() < Math.min(buddiesPerNode, earlier)) {
                buddies.add(sockets.get(first + random.nextInt(earlier)).substrateAddresses().get(0));
            }
            added.add(add(p, List.copyOf(buddies)));
        }
        return added;
    }

    /** Starts every socket that has not joined yet (all at the current virtual time). */
    public void joinAll() {
        for (OverlaySocket s : sockets) {
            if (joined.add(s)) {
                s.joinAsync();
            }
        }
    }

    /** Every socket ever added. */
    public List<OverlaySocket> sockets() {
        return List.copyOf(sockets);
    }

    /** The sockets that have not crashed or left. */
    public List<OverlaySocket> alive() {
        List<OverlaySocket> out = new ArrayList<>(sockets.size());
        for (OverlaySocket s : sockets) {
            if (!gone.contains(s)) {
                out.add(s);
            }
        }
        return out;
    }

    /** Crashes a socket silently: nothing it sends arrives any more, and it says no Goodbye. */
    public void crash(OverlaySocket s) {
        for (SubstrateAddress a : s.substrateAddresses()) {
            net.faults().blackholeNode(a);
        }
        gone.add(s);
        s.close();
    }

    /** Makes a socket leave gracefully (Goodbye to its neighbours when the clock next runs). */
    public void leave(OverlaySocket s) {
        gone.add(s);
        s.leave();
    }

    /** Virtual time of the last change of any node's neighbour set, in nanoseconds. */
    public long lastNeighbourChangeNanos() {
        return lastNeighbourChangeNanos;
    }

    /** Number of neighbour-set changes published by all nodes so far. */
    public long neighbourChanges() {
        return neighbourChanges;
    }

    /** Each alive node's current neighbours (its view), keyed by its current coordinates. */
    public Map<DtAddress, Set<DtAddress>> neighbourGraph() {
        Map<DtAddress, Set<DtAddress>> g = new HashMap<>();
        for (OverlaySocket s : alive()) {
            DtTopology t = (DtTopology) s.topology();
            g.put(t.self(), new HashSet<>(t.neighbourList()));
        }
        return g;
    }

    /** The alive nodes' current coordinates. */
    public List<DtAddress> points() {
        List<DtAddress> out = new ArrayList<>();
        for (OverlaySocket s : alive()) {
            out.add((DtAddress) s.node().localAddress());
        }
        return out;
    }

    /**
     * Whether the alive nodes have settled: every one is {@code STABLE}, every neighbour relation
     * is mutual and known to be so (each neighbour's last Hello was a HelloNeighbor), and no node
     * names a neighbour that is not alive. Says nothing about whether the result is right.
     */
    public boolean quiescent() {
        Map<DtAddress, DtTopology> views = new HashMap<>();
        for (OverlaySocket s : alive()) {
            DtTopology t = (DtTopology) s.topology();
            if (t.state() != NodeState.STABLE) {
                return false;
            }
            views.put(t.self(), t);
        }
        for (DtTopology t : views.values()) {
            for (Map.Entry<DtAddress, DtTopology.Report> e : t.reports().entrySet()) {
                DtTopology other = views.get(e.getKey());
                if (other == null || !e.getValue().considersMe() || !other.reports().containsKey(t.self())) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Advances the clock in steps of {@code step} until {@code condition} holds (checked before
     * the first step and after each) or {@code within} has passed.
     *
     * @return whether the condition holds
     */
    public boolean runUntil(BooleanSupplier condition, Duration within, Duration step) {
        long deadline = clock.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (clock.nanoTime() >= deadline) {
                return false;
            }
            clock.advanceBy(Math.min(step.toNanos(), deadline - clock.nanoTime()), TimeUnit.NANOSECONDS);
        }
        return true;
    }

    /** Advances the clock by {@code d}. */
    public void advance(Duration d) {
        clock.advanceBy(d);
    }

    /** The socket at {@code address} among the alive ones, or {@code null}. */
    public OverlaySocket socketAt(LogicalAddress address) {
        for (OverlaySocket s : alive()) {
            if (s.node().localAddress().equals(address)) {
                return s;
            }
        }
        return null;
    }

    /** One line per alive node, with the seed and time: for failure messages. */
    public String describe() {
        StringBuilder b = new StringBuilder("seed=" + seed + " t=" + TimeUnit.NANOSECONDS.toMillis(clock.nanoTime()) + "ms\n");
        for (OverlaySocket s : alive()) {
            b.append("  ").append(s.topology()).append(' ').append(s.node().counters()).append('\n');
        }
        return b.toString();
    }

    /**
     * Closes every socket, then runs what is left on the clock so that frames still in flight are
     * delivered to closed interfaces and released.
     */
    @Override
    public void close() {
        for (OverlaySocket s : sockets) {
            s.close();
        }
        clock.runUntilIdle(10_000_000);
    }
}
