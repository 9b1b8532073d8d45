package io.statecast.it.testbed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/** Whether this machine can run the testbed: Linux, root, iproute2, and network namespaces. */
final class TestbedEnvironment {

    private TestbedEnvironment() {
    }

    /** {@code null} if the testbed can run here, else why not. */
    static String unavailableReason() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return "not Linux (network namespaces are Linux-only)";
        }
        String uid = output(List.of(tool("id"), "-u"));
        if (uid == null || !uid.trim().equals("0")) {
            return "not running as root (uid " + (uid == null ? "unknown" : uid.trim()) + "); the testbed creates network namespaces";
        }
        for (String tool : List.of("ip", "tc")) {
            if (!onPath(tool)) {
                return "'" + tool + "' (iproute2) is not installed";
            }
        }
        String probe = "sc-probe-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);
        if (output(List.of(tool("ip"), "netns", "add", probe)) == null) {
            return "cannot create a network namespace (ip netns add failed: no CAP_SYS_ADMIN in this container?)";
        }
        output(List.of(tool("ip"), "netns", "del", probe));
        return null;
    }

    /** The repository root: the nearest directory upward holding {@code it/testbed/netns-chain.sh}. */
    static Path repository() {
        String configured = System.getProperty("statecast.repo");
        if (configured != null) {
            return Path.of(configured).toAbsolutePath();
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("it/testbed/netns-chain.sh"))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find it/testbed/netns-chain.sh above " + Path.of("").toAbsolutePath()
                + "; set -Dstatecast.repo=DIR");
    }

    private static boolean onPath(String tool) {
        return !tool(tool).equals(tool);
    }

    /**
     * The absolute path of {@code tool} on PATH or in the system directories (root's tools live in
     * /usr/sbin, which a non-login PATH may lack); {@code tool} itself if not found.
     */
    static String tool(String tool) {
        String path = System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin:/usr/bin:/bin";
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return Path.of(dir, tool).toString();
            }
        }
        return tool;
    }

    /** The command's output if it exits 0 within ten seconds, else {@code null}. */
    private static String output(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readNBytes(64 * 1024);
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? new String(out, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The namespaces whose names start with {@code prefix}. */
    static List<String> namespaces(String prefix) {
        String out = output(List.of(tool("ip"), "netns", "list"));
        if (out == null) {
            return List.of();
        }
        return out.lines().map(l -> l.split("\\s+")[0]).filter(n -> n.startsWith(prefix)).toList();
    }
}
