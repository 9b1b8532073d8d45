package io.statecast.messagestore.tools.check;

import java.util.ArrayList;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The explored part of a spec's abstract state space: a breadth-first search from the state
 * after the instance's start, so every node's {@link Node#via} chain is a shortest path to it.
 * Nodes at the depth bound are kept but not expanded; every ended instance is one node.
 */
final class StateSpace {

    /** One abstract state. */
    static final class Node {
        final int id;
        final String key;
        final Snapshot snapshot;
        final int depth;
        /** The edge that first reached it (on a shortest path), {@code null} for the start; set once. */
        Edge via;
        final List<Edge> out = new ArrayList<>();
        boolean expanded;

        Node(int id, String key, Snapshot snapshot, int depth) {
            this.id = id;
            this.key = key;
            this.snapshot = snapshot;
            this.depth = depth;
        }

        boolean ended() {
            return snapshot.ended();
        }

        /** The edges of a shortest path from the start to this node. */
        List<Edge> path() {
            List<Edge> out = new ArrayList<>();
            for (Edge e = via; e != null; e = e.from().via) {
                out.add(e);
            }
            Collections.reverse(out);
            return out;
        }
    }

    /**
     * One explored transition.
     *
     * @param from    where the input arrived
     * @param input   the input
     * @param outcome what it did
     * @param to      where it led
     */
    record Edge(Node from, Input input, Outcome outcome, Node to) {
    }

    /** Why the search stopped before the depth bound. */
    enum Cut {
        /** It did not: every state within the depth bound was expanded. */
        NONE,
        /** {@code maxStates} was reached. */
        STATES,
        /** The time limit was reached. */
        TIME
    }

    private static final long PROGRESS_INTERVAL_NANOS = 1_000_000_000L;

    final Node start;
    final Outcome startOutcome;
    final List<Node> nodes;
    final long transitions;
    final Cut cut;
    final boolean frontier;

    private StateSpace(Node start, Outcome startOutcome, List<Node> nodes, long transitions, Cut cut,
            boolean frontier) {
        this.start = start;
        this.startOutcome = startOutcome;
        this.nodes = nodes;
        this.transitions = transitions;
        this.cut = cut;
        this.frontier = frontier;
    }

    /** Whether every reachable abstract state was expanded (no state left at the depth bound, no cut). */
    boolean complete() {
        return cut == Cut.NONE && !frontier;
    }

    /**
     * Explores from the instance's start.
     *
     * @param alphabet the message inputs
     */
    static StateSpace explore(Simulator sim, StateKey keys, List<Input.Arrival> alphabet, CheckOptions options,
            CheckProgress progress) {
        long started = System.nanoTime();
        long deadline = started + options.timeLimit().toNanos();
        long nextReport = started + PROGRESS_INTERVAL_NANOS;
        Outcome first = sim.start();
        List<Node> nodes = new ArrayList<>();
        Map<String, Node> byKey = new HashMap<>();
        Node start = new Node(0, keys.of(first.after(), true), first.after(), 0);
        nodes.add(start);
        byKey.put(start.key, start);
        ArrayDeque<Node> todo = new ArrayDeque<>();
        if (!start.ended()) {
            todo.add(start);
        }
        long transitions = 0;
        Cut cut = Cut.NONE;
        boolean frontier = false;
        List<Input> inputs = new ArrayList<>();
        while (!todo.isEmpty()) {
            Node n = todo.poll();
            if (n.depth >= options.depth()) {
                frontier = true;
                continue;
            }
            if (nodes.size() >= options.maxStates()) {
                cut = Cut.STATES;
                break;
            }
            long now = System.nanoTime();
            if (now > deadline) {
                cut = Cut.TIME;
                break;
            }
            if (now > nextReport) {
                progress.explored(nodes.size(), transitions, Duration.ofNanos(now - started));
                nextReport = now + PROGRESS_INTERVAL_NANOS;
            }
            n.expanded = true;
            inputs.clear();
            inputs.addAll(alphabet);
            if (n == start && sim.deployInput() != null) {
                inputs.add(sim.deployInput()); // the node's own instance: started, not reached by a message
            }
            if (n != start) {
                for (Integer t : n.snapshot.timers().keySet()) {
                    inputs.add(new Input.Expiry(t));
                }
            }
            for (Input in : inputs) {
                Outcome o = sim.step(n.snapshot, in);
                transitions++;
                String key = keys.of(o.after(), false);
                Node to = byKey.get(key);
                boolean fresh = to == null;
                if (fresh) {
                    to = new Node(nodes.size(), key, o.after(), n.depth + 1);
                    nodes.add(to);
                    byKey.put(key, to);
                    if (!to.ended()) {
                        todo.add(to);
                    }
                }
                Edge e = new Edge(n, in, o, to);
                if (fresh) {
                    to.via = e;
                }
                n.out.add(e);
            }
        }
        return new StateSpace(start, first, List.copyOf(nodes), transitions, cut, frontier || !todo.isEmpty());
    }
}
