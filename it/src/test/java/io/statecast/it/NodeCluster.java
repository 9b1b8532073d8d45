package io.statecast.it;

import io.statecast.overlay.testkit.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Starts {@code statecast node} processes as separate JVMs and owns them: {@link #close} ends
 * every one (SIGTERM, then SIGKILL after a grace period), so a test that closes its cluster in
 * {@code @AfterEach} leaves no JVM behind even when it fails.
 *
 * <p>Children run the launcher's main class on this JVM's class path: the {@code it} module
 * depends on {@code examples}, so its test class path holds exactly what {@code bin/statecast}
 * puts on its own, and nothing needs to be packaged first. Each child gets a small heap, the
 * serial collector and the C1 compiler only, so eight of them start quickly on two cores.
 */
final class NodeCluster implements AutoCloseable {

    /** Options of every child JVM. */
    static final List<String> CHILD_JVM_OPTIONS = List.of(
            "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=info");
    /** The launcher's main class. */
    static final String MAIN_CLASS = "io.statecast.examples.cli.StatecastCommand";

    private final Path dir;
    /** Put before each child's command, e.g. {@code ip netns exec NS}; empty for none. */
    private final List<String> launchPrefix;
    private final List<NodeProcess> processes = new ArrayList<>();

    /** @param dir where configurations and standard-error logs are written */
    NodeCluster(Path dir) {
        this(dir, List.of());
    }

    /**
     * A cluster whose children run under {@code launchPrefix}, a command that then executes
     * (replacing itself with) the child, such as {@code ip netns exec NS}: a child's pid stays
     * the node's own, so {@link NodeProcess#kill()} kills the node.
     */
    NodeCluster(Path dir, List<String> launchPrefix) {
        this.dir = dir;
        this.launchPrefix = List.copyOf(launchPrefix);
    }

    /** {@code java <options> -cp <this class path> StatecastCommand <args>}. */
    static List<String> command(List<String> args) {
        List<String> c = new ArrayList<>();
        c.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        c.addAll(CHILD_JVM_OPTIONS);
        c.add("-cp");
        c.add(System.getProperty("java.class.path"));
        c.add(MAIN_CLASS);
        c.addAll(args);
        return c;
    }

    /** Writes {@code text} to {@code name} in the cluster's directory. */
    Path write(String name, String text) {
        Path p = dir.resolve(name);
        try {
            Files.writeString(p, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    /** Starts {@code statecast node --config <name>.yaml --control stdin} (returns before it is READY). */
    NodeProcess start(String name, NodeConfig config) {
        Path file = write(name + ".yaml", config.yaml());
        return startRaw(name, List.of("node", "--config", file.toString(), "--control", "stdin"));
    }

    /**
     * Starts a node with {@code messageStoreYaml} as its {@code messageStore} section, dropping
     * {@code inputLoss} of the frames it receives ({@code node --input-loss}, seeded with
     * {@code lossSeed}) when above 0.
     */
    NodeProcess startWithStore(String name, NodeConfig config, String messageStoreYaml, double inputLoss, long lossSeed) {
        Path file = write(name + ".yaml", config.yaml() + "  messageStore:\n" + messageStoreYaml.indent(4));
        List<String> args = new java.util.ArrayList<>(List.of("node", "--config", file.toString(), "--control", "stdin"));
        if (inputLoss > 0) {
            args.addAll(List.of("--input-loss", String.valueOf(inputLoss), "--loss-seed", String.valueOf(lossSeed)));
        }
        return startRaw(name, args);
    }

    /** Starts the launcher with any arguments. */
    NodeProcess startRaw(String name, List<String> args) {
        return startRaw(name, args, false);
    }

    /** Starts the launcher with any arguments; with {@code unread}, see {@link NodeProcess#start(String, List, Path, boolean)}. */
    NodeProcess startRaw(String name, List<String> args, boolean unread) {
        List<String> cmd = new ArrayList<>(launchPrefix);
        cmd.addAll(command(args));
        NodeProcess p = NodeProcess.start(name, cmd, dir.resolve(name + ".stderr"), unread);
        synchronized (processes) {
            processes.add(p);
        }
        return p;
    }

    /** Every process started, in order. */
    List<NodeProcess> processes() {
        synchronized (processes) {
            return List.copyOf(processes);
        }
    }

    /** A description of every process (stdout and stderr tails), for assertion messages. */
    String describe() {
        StringBuilder b = new StringBuilder();
        processes().forEach(p -> b.append(p.describe()));
        return b.toString();
    }

    /**
     * Waits until every process in {@code nodes} is STABLE and their announced neighbour relation
     * is symmetric and connects them all: one overlay over exactly these nodes.
     */
    void awaitOverlay(List<NodeProcess> nodes, Duration timeout, Supplier<String> context) {
        Await.until(() -> isOverlay(nodes), timeout, () -> context.get() + ": no overlay of " + nodes.size() + " nodes within "
                + timeout + "\n" + describe());
    }

    static boolean isOverlay(List<NodeProcess> nodes) {
        Map<String, Set<String>> graph = new HashMap<>();
        for (NodeProcess p : nodes) {
            if (!"STABLE".equals(p.state())) {
                return false;
            }
            graph.put(p.address(), p.neighbours());
        }
        for (Map.Entry<String, Set<String>> e : graph.entrySet()) {
            for (String n : e.getValue()) {
                Set<String> back = graph.get(n);
                if (back == null || !back.contains(e.getKey())) {
                    return false;
                }
            }
        }
        Set<String> seen = new HashSet<>();
        Deque<String> todo = new ArrayDeque<>(List.of(nodes.get(0).address()));
        while (!todo.isEmpty()) {
            String a = todo.pop();
            if (seen.add(a)) {
                todo.addAll(graph.get(a));
            }
        }
        return seen.size() == nodes.size();
    }

    /**
     * Ends every process: closes their control input and sends SIGTERM to all at once, waits for
     * them together, then kills what is left.
     */
    @Override
    public void close() {
        List<NodeProcess> all = processes();
        all.forEach(p -> {
            p.closeInput();
            p.terminate();
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (NodeProcess p : all) {
            while (p.isAlive() && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
        }
        all.forEach(NodeProcess::close);
    }
}
