package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.fail;

import io.statecast.overlay.testkit.Await;
import io.statecast.specserver.cli.SpecServerCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code spec-server} run as a separate JVM from the test classpath, so it can be killed with
 * SIGKILL. Its standard output and error go to files (no pipe can fill up and stall it).
 */
final class ChildServer implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("spec-server listening on (https?://\\S+/)");

    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private ChildServer(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    static ChildServer start(Path logDir, String name, List<String> args) throws IOException {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=info", "-cp", classpath, SpecServerCommand.class.getName()));
        command.addAll(args);
        Files.createDirectories(logDir);
        Path out = logDir.resolve(name + ".out");
        Path err = logDir.resolve(name + ".err");
        Process p = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .start();
        return new ChildServer(p, out, err);
    }

    /** Waits for the listening line; fails with the child's output if it exits or the deadline passes. */
    URI awaitListening(Duration timeout) {
        AtomicReference<URI> uri = new AtomicReference<>();
        Await.until(() -> {
            Matcher m = LISTENING.matcher(read(stdout));
            if (m.find()) {
                uri.set(URI.create(m.group(1)));
                return true;
            }
            if (!process.isAlive()) {
                fail("child exited with " + process.exitValue() + " before listening:\n" + read(stdout) + "\n" + read(stderr));
            }
            return false;
        }, timeout, () -> "the child server's listening line (stderr: " + stderr + ")");
        return uri.get();
    }

    /** SIGKILL: no shutdown hook, no flush, no unlock. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            fail("child did not die after SIGKILL");
        }
    }

    /** SIGTERM, then the exit status. */
    int terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("child did not stop after SIGTERM");
        }
        return process.exitValue();
    }

    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            fail("child still running after " + timeout + ":\n" + read(stderr));
        }
        return process.exitValue();
    }

    String stdout() {
        return read(stdout);
    }

    String stderr() {
        return read(stderr);
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
