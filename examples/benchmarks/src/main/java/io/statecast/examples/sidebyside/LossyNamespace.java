package io.statecast.examples.sidebyside;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A network namespace whose loopback drops a set share of UDP datagrams: an nftables rule on the
 * input hook, {@code meta l4proto udp numgen random mod 100 < P drop}, so each datagram between
 * two processes of the namespace is lost with probability P % (loopback passes every datagram
 * through input once). A second input chain, evaluated first, can black-hole the UDP traffic
 * between two ports (two processes) in both directions. Processes run in it through
 * {@code ip netns exec}. Needs root, iproute2 and nftables ({@code apt-get install nftables}).
 * Used by the side-by-side benchmark and by the {@code it} module's tests between real processes.
 */
public final class LossyNamespace implements AutoCloseable {

    private static final String TABLE = "statecast_sbs";
    /** The black holes' chain: input, before the loss chain, so a cut datagram is not counted there. */
    private static final String CUT_CHAIN = "cut";
    private static final long COMMAND_SECONDS = 20;

    private final String name;
    private final String ip;
    private final String nft;

    private LossyNamespace(String name, String ip, String nft) {
        this.name = name;
        this.ip = ip;
        this.nft = nft;
    }

    /**
     * Creates namespace {@code name} (removing a leftover of that name first), brings its loopback
     * up and installs the empty loss chain.
     *
     * @throws IOException if a tool is missing or a command fails (the message names it)
     */
    public static LossyNamespace create(String name) throws IOException, InterruptedException {
        if (!name.matches("[a-z0-9-]{1,15}")) {
            throw new IllegalArgumentException("namespace name '" + name + "' must be 1..15 of [a-z0-9-]");
        }
        LossyNamespace ns = new LossyNamespace(name, tool("ip", "iproute2"), tool("nft", "nftables"));
        ns.runQuietly(ns.ip, "netns", "delete", name);
        ns.run(ns.ip, "netns", "add", name);
        try {
            ns.run(ns.ip, "-n", name, "link", "set", "lo", "up");
            ns.inside(ns.nft, "add", "table", "inet", TABLE);
            ns.inside(ns.nft, "add", "chain", "inet", TABLE, CUT_CHAIN, "{ type filter hook input priority -10; policy accept; }");
            ns.inside(ns.nft, "add", "chain", "inet", TABLE, "in", "{ type filter hook input priority 0; policy accept; }");
            ns.loss(0);
        } catch (IOException | RuntimeException e) {
            ns.close();
            throw e;
        }
        return ns;
    }

    /**
     * Why this machine cannot create a lossy namespace (not Linux, not root, a tool missing), or
     * {@code null} if it can.
     */
    public static String unavailableReason() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return "not Linux (network namespaces are Linux-only)";
        }
        try {
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            if (!Integer.valueOf(0).equals(uid)) {
                return "not running as root (uid " + uid + "); creating a network namespace and nft rules needs root";
            }
            tool("ip", "iproute2");
            tool("nft", "nftables");
        } catch (IOException | UnsupportedOperationException e) {
            return e.getMessage();
        }
        return null;
    }

    /** The namespace's name. */
    public String name() {
        return name;
    }

    /** The command prefix that runs a program inside the namespace. */
    public List<String> exec() {
        return List.of(ip, "netns", "exec", name);
    }

    /**
     * Replaces the loss rule: {@code percent} of the UDP datagrams dropped (0: none). Resets the
     * {@link #counts() counters}.
     */
    public void loss(int percent) throws IOException, InterruptedException {
        if (percent < 0 || percent > 100) {
            throw new IllegalArgumentException("loss " + percent + " % must be within 0..100");
        }
        inside(nft, "flush", "chain", "inet", TABLE, "in");
        // counts every UDP datagram that reaches the loss rule, so a run can say what share it lost
        inside(nft, "add", "rule", "inet", TABLE, "in", "meta", "l4proto", "udp", "counter");
        if (percent > 0) {
            inside(nft, "add", "rule", "inet", TABLE, "in", "meta", "l4proto", "udp", "numgen", "random", "mod", "100",
                    "<", String.valueOf(percent), "counter", "drop");
        }
    }

    /**
     * UDP datagrams since the loss rule was last set.
     *
     * @param udp     datagrams that reached the loss rule (not those a black hole took)
     * @param dropped of those, datagrams the loss rule dropped
     */
    public record Counts(long udp, long dropped) {
    }

    /**
     * The loss chain's counters (nft's).
     *
     * @throws IOException if nft fails or prints something else than its rules
     */
    public Counts counts() throws IOException, InterruptedException {
        return parseCounts(runForOutput(concat(exec(), List.of(nft, "list", "chain", "inet", TABLE, "in"))));
    }

    /**
     * The counters in {@code nft list chain} output of the loss chain: the rule without
     * {@code drop} counts every datagram, the one with it those it dropped (0 without one).
     *
     * @throws IOException if there is no counting rule or a counter is not a number
     */
    static Counts parseCounts(String text) throws IOException {
        long all = -1;
        long dropped = 0;
        for (String line : text.lines().toList()) {
            int at = line.indexOf("packets ");
            if (at < 0) {
                continue;
            }
            long n;
            try {
                n = Long.parseLong(line.substring(at + 8).split("\\s", 2)[0]);
            } catch (NumberFormatException e) {
                throw new IOException("nft's counter is not a number: " + line.strip(), e);
            }
            if (line.strip().endsWith(" drop")) {
                dropped = n;
            } else {
                all = n;
            }
        }
        if (all < 0) {
            throw new IOException("no counter in the loss chain: " + text.strip());
        }
        return new Counts(all, dropped);
    }

    /**
     * Black-holes the UDP traffic between ports {@code a} and {@code b} of the loopback, in both
     * directions: two processes bound to them no longer hear each other, and every other pair
     * still does. Adds to the black holes already there.
     */
    public void blackHole(int a, int b) throws IOException, InterruptedException {
        for (int port : List.of(a, b)) {
            if (port < 1 || port > 65_535) {
                throw new IllegalArgumentException("port " + port + " must be within 1..65535");
            }
        }
        for (int[] d : List.of(new int[] {a, b}, new int[] {b, a})) {
            inside(nft, "add", "rule", "inet", TABLE, CUT_CHAIN, "udp", "sport", String.valueOf(d[0]), "udp", "dport",
                    String.valueOf(d[1]), "counter", "drop");
        }
    }

    /** Removes every black hole. */
    public void mend() throws IOException, InterruptedException {
        inside(nft, "flush", "chain", "inet", TABLE, CUT_CHAIN);
    }

    /** Deletes the namespace (and its rules with it). */
    @Override
    public void close() {
        try {
            runQuietly(ip, "netns", "delete", name);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void inside(String... command) throws IOException, InterruptedException {
        List<String> c = new ArrayList<>(exec());
        c.addAll(List.of(command));
        run(c.toArray(String[]::new));
    }

    private void run(String... command) throws IOException, InterruptedException {
        runForOutput(List.of(command));
    }

    private void runQuietly(String... command) throws InterruptedException {
        try {
            runForOutput(List.of(command));
        } catch (IOException e) {
            // nothing to remove
        }
    }

    private static String runForOutput(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output;
        try (var in = p.getInputStream()) {
            output = in.readNBytes(65_536);
        }
        if (!p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + ": no answer within " + COMMAND_SECONDS + " s");
        }
        String text = new String(output, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + ": exit status " + p.exitValue() + ": " + text.strip());
        }
        return text;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> c = new ArrayList<>(a);
        c.addAll(b);
        return c;
    }

    /** The tool's path in the usual directories (a root shell's PATH may lack /usr/sbin). */
    private static String tool(String name, String pkg) throws IOException {
        for (String dir : List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin")) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        throw new IOException("'" + name + "' not found in /usr/sbin, /sbin, /usr/bin or /bin: install " + pkg
                + " (apt-get install " + pkg + ")");
    }
}
