package io.statecast.examples.sidebyside;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A network namespace whose loopback drops a set share of UDP datagrams: an nftables rule on the
 * input hook, {@code meta l4proto udp numgen random mod 100 < P drop}, so each datagram between
 * two processes of the namespace is lost with probability P % (loopback passes every datagram
 * through input once). Processes run in it through {@code ip netns exec}. Needs root, iproute2 and
 * nftables ({@code apt-get install nftables}).
 */
final class LossyNamespace implements AutoCloseable {

    private static final String TABLE = "statecast_sbs";
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
    static LossyNamespace create(String name) throws IOException, InterruptedException {
        if (!name.matches("[a-z0-9-]{1,15}")) {
            throw new IllegalArgumentException("namespace name '" + name + "' must be 1..15 of [a-z0-9-]");
        }
        LossyNamespace ns = new LossyNamespace(name, tool("ip", "iproute2"), tool("nft", "nftables"));
        ns.runQuietly(ns.ip, "netns", "delete", name);
        ns.run(ns.ip, "netns", "add", name);
        try {
            ns.run(ns.ip, "-n", name, "link", "set", "lo", "up");
            ns.inside(ns.nft, "add", "table", "inet", TABLE);
            ns.inside(ns.nft, "add", "chain", "inet", TABLE, "in", "{ type filter hook input priority 0; policy accept; }");
        } catch (IOException | RuntimeException e) {
            ns.close();
            throw e;
        }
        return ns;
    }

    /** The namespace's name. */
    String name() {
        return name;
    }

    /** The command prefix that runs a program inside the namespace. */
    List<String> exec() {
        return List.of(ip, "netns", "exec", name);
    }

    /** Replaces the loss rule: {@code percent} of the UDP datagrams dropped (0: none). */
    void loss(int percent) throws IOException, InterruptedException {
        if (percent < 0 || percent > 100) {
            throw new IllegalArgumentException("loss " + percent + " % must be within 0..100");
        }
        inside(nft, "flush", "chain", "inet", TABLE, "in");
        if (percent > 0) {
            inside(nft, "add", "rule", "inet", TABLE, "in", "meta", "l4proto", "udp", "numgen", "random", "mod", "100",
                    "<", String.valueOf(percent), "counter", "drop");
        }
    }

    /** Datagrams the loss rule dropped since it was last set (nft's counter), or -1 if unknown. */
    long dropped() {
        try {
            String text = runForOutput(concat(exec(), List.of(nft, "list", "chain", "inet", TABLE, "in")));
            int at = text.indexOf("packets ");
            if (at < 0) {
                return 0;
            }
            String n = text.substring(at + 8).split("\\s", 2)[0];
            return Long.parseLong(n);
        } catch (IOException | NumberFormatException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
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
