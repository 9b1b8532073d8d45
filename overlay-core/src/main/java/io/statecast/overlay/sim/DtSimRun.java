package io.statecast.overlay.sim;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.node.dt.DtTopology;
import io.statecast.overlay.socket.OverlaySocket;
import io.statecast.overlay.substrate.FaultConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One mass-join run of the DT overlay: N sockets at distinct random points of a frame, each with
 * a few random earlier nodes as buddies, all joining at virtual time 0, on the in-memory substrate
 * with the given loss and delay; run until converged or the limit, then judged by
 * {@link DelaunayCheck} and measured ({@link SimReport}).
 */
public final class DtSimRun {

    /**
     * Parameters of a run.
     *
     * @param nodes     nodes, 1..{@value #MAX_NODES}
     * @param seed      seeds points, buddies, faults and every node's randomness
     * @param loss      probability that a frame is lost, 0..1
     * @param buddies   random earlier nodes each node has as buddies (the first has none)
     * @param frame     coordinates are drawn from [0, frame]²
     * @param delay     fixed delay of every frame
     * @param jitter    largest extra uniform delay of every frame
     * @param maxTime   virtual-time limit
     * @param treeRoots random roots whose trees are examined
     */
    public record Options(int nodes, long seed, double loss, int buddies, int frame, Duration delay, Duration jitter,
                          Duration maxTime, int treeRoots) {
        /** Largest number of nodes. */
        public static final int MAX_NODES = 100_000;

        /** Checks ranges. */
        public Options {
            if (nodes < 1 || nodes > MAX_NODES) {
                throw new IllegalArgumentException("nodes=" + nodes + " must be within 1.." + MAX_NODES);
            }
            if (!(loss >= 0 && loss < 1)) {
                throw new IllegalArgumentException("loss=" + loss + " must be within 0..1 (exclusive of 1)");
            }
            if (buddies < 1 || buddies > 64) {
                throw new IllegalArgumentException("buddies=" + buddies + " must be within 1..64");
            }
            if (frame < 1 || (long) (frame + 1) * (frame + 1) < 2L * nodes) {
                throw new IllegalArgumentException("frame=" + frame + " is too small for " + nodes + " distinct points");
            }
            Objects.requireNonNull(delay, "delay");
            Objects.requireNonNull(jitter, "jitter");
            Objects.requireNonNull(maxTime, "maxTime");
            if (treeRoots < 0) {
                throw new IllegalArgumentException("treeRoots=" + treeRoots + " must be >= 0");
            }
        }

        /** Defaults for {@code nodes} and {@code seed}: no loss, 2 buddies, a 10,000 frame, 1 ms + up to 4 ms delay, 10 min, 10 roots. */
        public static Options defaults(int nodes, long seed) {
            return new Options(nodes, seed, 0, 2, 10_000, Duration.ofMillis(1), Duration.ofMillis(4), Duration.ofMinutes(10), 10);
        }
    }

    private DtSimRun() {
    }

    /** Runs one simulation. */
    public static SimReport run(Options o) {
        Random points = new Random(o.seed());
        Set<DtAddress> set = new LinkedHashSet<>();
        while (set.size() < o.nodes()) {
            set.add(new DtAddress(points.nextInt(o.frame() + 1), points.nextInt(o.frame() + 1)));
        }
        try (DtSimulation sim = new DtSimulation(o.seed())) {
            sim.network().faults().configure(FaultConfig.loss(o.loss()).withDelay(o.delay(), o.jitter()));
            sim.addAll(set, o.buddies());
            long fastMs = sim.template().heartbeat().fastMs();
            long wall = System.nanoTime();
            sim.joinAll();
            boolean converged = sim.runUntil(() -> sim.quiescent() && leaders(sim) == 1, o.maxTime(), Duration.ofMillis(fastMs));
            long wallMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - wall);
            long virtualMs = TimeUnit.NANOSECONDS.toMillis(sim.lastNeighbourChangeNanos());
            long detectedMs = TimeUnit.NANOSECONDS.toMillis(sim.clock().nanoTime());

            Map<DtAddress, Set<DtAddress>> graph = sim.neighbourGraph();
            DelaunayCheck.Result check = DelaunayCheck.check(sim.points(), graph);
            int maxDegree = 0;
            long degreeSum = 0;
            for (Set<DtAddress> ns : graph.values()) {
                maxDegree = Math.max(maxDegree, ns.size());
                degreeSum += ns.size();
            }
            Trees trees = trees(sim, Math.min(o.treeRoots(), o.nodes()));
            long messages = 0;
            for (OverlaySocket s : sim.alive()) {
                for (Map.Entry<String, Long> c : s.node().counters().entrySet()) {
                    if (c.getKey().endsWith("Sent") || c.getKey().endsWith("Forwarded")) {
                        messages += c.getValue();
                    }
                }
            }
            return new SimReport(o.nodes(), o.seed(), o.loss(), converged, check.matches(), check.problem(),
                    (virtualMs + fastMs - 1) / fastMs, virtualMs, detectedMs, degreeSum == 0 ? 0 : (int) (degreeSum / 2),
                    check.hullBoundary(), leaders(sim), maxDegree, (double) degreeSum / o.nodes(), trees.roots,
                    trees.consistent, trees.maxDepth, trees.avgDepth, messages, wallMs);
        }
    }

    private static long leaders(DtSimulation sim) {
        long n = 0;
        for (OverlaySocket s : sim.alive()) {
            if (s.topology().leader()) {
                n++;
            }
        }
        return n;
    }

    private record Trees(int roots, boolean consistent, int maxDepth, double avgDepth) {
    }

    /** Depth and consistency of the compass trees rooted at random nodes. */
    private static Trees trees(DtSimulation sim, int roots) {
        Map<DtAddress, DtTopology> views = new HashMap<>();
        for (OverlaySocket s : sim.alive()) {
            DtTopology t = (DtTopology) s.topology();
            views.put(t.self(), t);
        }
        List<DtAddress> nodes = new ArrayList<>(views.keySet());
        nodes.sort(io.statecast.overlay.node.dt.Predicates.LEXICOGRAPHIC);
        Random r = new Random(sim.seed() ^ 0x5EED);
        boolean consistent = true;
        int maxDepth = 0;
        long depthSum = 0;
        long counted = 0;
        Set<DtAddress> chosen = new HashSet<>();
        while (chosen.size() < roots) {
            chosen.add(nodes.get(r.nextInt(nodes.size())));
        }
        for (DtAddress root : chosen) {
            for (DtTopology t : views.values()) {
                Set<LogicalAddress> children = new HashSet<>(t.children(root));
                for (DtAddress n : t.neighbourList()) {
                    DtTopology other = views.get(n);
                    boolean isChild = other != null && t.self().equals(other.parent(root));
                    if (isChild != children.contains(n)) {
                        consistent = false;
                    }
                }
            }
            for (DtAddress k : nodes) {
                DtAddress at = k;
                int depth = 0;
                while (at != null && !at.equals(root) && depth <= nodes.size()) {
                    DtTopology t = views.get(at);
                    at = t == null ? null : t.parent(root);
                    depth++;
                }
                if (at == null || !at.equals(root)) {
                    consistent = false;
                    continue;
                }
                maxDepth = Math.max(maxDepth, depth);
                depthSum += depth;
                counted++;
            }
        }
        return new Trees(roots, consistent, maxDepth, counted == 0 ? 0 : (double) depthSum / counted);
    }
}
