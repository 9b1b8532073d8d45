package io.statecast.it.testbed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The daisy chain of network namespaces, through {@code it/testbed/netns-chain.sh}: node I is
 * namespace {@code sc-TAG-nI} with overlay address {@code 10.201.0.I}. Closing it tears the
 * chain down (idempotent); {@link #up} first removes leftovers of the same tag.
 */
final class Chain implements AutoCloseable {

    private static final long SCRIPT_TIMEOUT_S = 300;

    private final Path script;
    private final String tag;
    private final String linkRate;
    private final Integer linkBurstBytes;
    private final Path log;
    private int nodes;

    /**
     * @param script   {@code netns-chain.sh}
     * @param tag      the run's tag, [a-z0-9]{1,6}
     * @param linkRate tbf rate of every link, e.g. {@code 100mbit}
     * @param log      where the script's output goes (appended)
     */
    Chain(Path script, String tag, String linkRate, Path log) {
        this(script, tag, linkRate, null, log);
    }

    /**
     * @param linkBurstBytes tbf bucket of every link in bytes; {@code null} for the script's default
     *                       (1 ms of the rate, at least 32 KiB)
     */
    Chain(Path script, String tag, String linkRate, Integer linkBurstBytes, Path log) {
        this.script = Objects.requireNonNull(script, "script");
        if (!tag.matches("[a-z0-9]{1,6}")) {
            throw new IllegalArgumentException("tag '" + tag + "' must match [a-z0-9]{1,6}");
        }
        this.tag = tag;
        this.linkRate = Objects.requireNonNull(linkRate, "linkRate");
        if (linkBurstBytes != null && linkBurstBytes <= 0) {
            throw new IllegalArgumentException("link burst must be > 0 bytes, got " + linkBurstBytes);
        }
        this.linkBurstBytes = linkBurstBytes;
        this.log = Objects.requireNonNull(log, "log");
    }

    /** Creates a chain of {@code n} nodes with {@code lossPercent} drop on every link. */
    void up(int n, int lossPercent) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("up", String.valueOf(n), "--tag", tag, "--rate", linkRate));
        if (linkBurstBytes != null) {
            args.addAll(List.of("--burst", String.valueOf(linkBurstBytes)));
        }
        if (lossPercent > 0) {
            args.addAll(List.of("--loss", String.valueOf(lossPercent)));
        }
        script(args);
        nodes = n;
    }

    /** Sets the drop percentage on every link of the chain (0 removes the rules). */
    void loss(int percent) throws IOException, InterruptedException {
        script(List.of("loss", String.valueOf(percent), "--tag", tag));
    }

    /** Removes every namespace of the tag. Never throws: it runs in finally blocks and shutdown hooks. */
    @Override
    public void close() {
        try {
            script(List.of("down", "--tag", tag));
        } catch (IOException | RuntimeException e) {
            System.err.println("testbed: tearing down chain '" + tag + "' failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        nodes = 0;
    }

    String tag() {
        return tag;
    }

    int nodes() {
        return nodes;
    }

    String namespace(int node) {
        return "sc-" + tag + "-n" + node;
    }

    /**
     * The counters of node {@code node}'s shaper toward node {@code node + 1} (its link's tbf),
     * {@link LinkUsage#UNKNOWN} if they cannot be read: a missing figure must not end a run.
     */
    LinkUsage linkUsage(int node) throws InterruptedException {
        List<String> cmd = List.of(TestbedEnvironment.tool("tc"), "-n", namespace(node), "-s", "-j", "qdisc", "show", "dev", "r" + node);
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readNBytes(64 * 1024);
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return LinkUsage.UNKNOWN;
            }
            return p.exitValue() == 0 ? LinkUsage.parseTc(new String(out, StandardCharsets.UTF_8)) : LinkUsage.UNKNOWN;
        } catch (IOException e) {
            return LinkUsage.UNKNOWN;
        }
    }

    static String address(int node) {
        return "10.201.0." + node;
    }

    private void script(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(TestbedEnvironment.tool("bash"));
        cmd.add(script.toString());
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        if (!p.waitFor(SCRIPT_TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", cmd) + " did not finish in " + SCRIPT_TIMEOUT_S + " s; see " + log);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed with status " + p.exitValue() + "; see " + log);
        }
    }
}
