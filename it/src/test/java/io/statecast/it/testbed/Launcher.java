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
     * JVM options of every testbed node. The serial collector keeps six JVMs from running a dozen
     * GC threads on two cores. A young generation of 768 MiB holds a run's garbage and h2h-ack's
     * lingering instances (6 s of messages) without a collection: with a 64 MiB heap, serial young
     * collections of 35-55 ms every 350 ms made the delay grow at 75 Mbit/s on one hop. The JIT is
     * left tiered, up to C2: its code costs a forwarding node about a third less CPU per message
     * than C1's (docs/benchmarks.md), provided the runner's warm-up ({@code --warmup-seconds-per-node})
     * gives six compilers on two cores the time to finish and sends through the service, so the
     * measured run neither waits for C2 nor deoptimises. {@code bin/statecast} itself keeps the
     * JVM's defaults.
     */
    static final String NODE_JVM_OPTS = "-Xms1g -Xmx1g -Xmn768m -XX:MetaspaceSize=64m -XX:+UseSerialGC";

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
