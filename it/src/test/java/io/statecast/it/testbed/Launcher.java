package io.statecast.it.testbed;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How a node process is started: {@code bin/statecast} (the real launcher, needs the packaged
 * jar) or {@code java -cp CLASSPATH} with the launcher's main class (in tests, the test class
 * path, so the code under test is what runs).
 *
 * @param prefix      the command before {@code ttcp …}
 * @param environment extra environment variables
 * @param description what it is, for logs
 */
record Launcher(List<String> prefix, Map<String, String> environment, String description) {

    static final String MAIN = "io.statecast.examples.cli.StatecastCommand";

    /**
     * JVM options of every testbed node. ZGC, because a stop-the-world collection is what tipped
     * the 5-hop chain into recovery storms: a node's live young generation is mostly h2h-ack's
     * lingering instances (6 s of messages), and copying them paused a forwarding node 0.3-2.5 s
     * on the shared cores (serial collector); its socket buffer overflowed, the node upstream asked
     * again for every message in flight, and over 200,000 messages at 75 Mbit/s the far nodes missed
     * 14 % of them (1 GiB heaps, promotion failures every ~10 s) or fell behind by 116 ms/s
     * (3 GiB). ZGC collects concurrently with one GC thread on two cores: the same run held the
     * rate, at 192 CPU µs per message over the chain against 208-273 (docs/benchmarks.md). Up to
     * 3 GiB: e2e-ack keeps each instance 35 s (TimeoutMsg), 250,000 of them at 62.5 Mbit/s, and
     * in 2 GiB ZGC collected back to back (150 µs of CPU per message at a forwarding node against
     * 35). It commits its heap as shared memory, so it starts at 512 MiB and grows as needed.
     * The JIT is left tiered, up to C2: its code
     * costs a forwarding node about a third less CPU per message than C1's, provided the runner's
     * warm-up ({@code --warmup-seconds-per-node}) gives six compilers on two cores the time to
     * finish and sends through the service, so the measured run neither waits for C2 nor
     * deoptimises. {@code bin/statecast} itself keeps the JVM's defaults.
     */
    static final String NODE_JVM_OPTS = "-Xms512m -Xmx3g -XX:MetaspaceSize=64m -XX:+UseZGC";

    /** {@code bin/statecast} of {@code repo}, with {@code jvmOptions} in {@code STATECAST_JAVA_OPTS}. */
    static Launcher bin(Path repo, String jvmOptions) {
        Path bin = repo.resolve("bin/statecast");
        Path jar = repo.resolve("examples/target/statecast.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " not found: build it first (mvn -B -q package -DskipTests)");
        }
        return new Launcher(List.of(bin.toString()), Map.of("STATECAST_JAVA_OPTS", jvmOptions), bin.toString());
    }

    /** {@code java -cp} this JVM's class path. */
    static Launcher classpath(String jvmOptions) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        for (String o : jvmOptions.trim().split("\\s+")) {
            if (!o.isEmpty()) {
                cmd.add(o);
            }
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(MAIN);
        return new Launcher(List.copyOf(cmd), Map.of(), "java -cp <test class path> " + MAIN);
    }
}
