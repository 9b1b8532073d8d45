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
