package io.statecast.messagestore.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * A command line run in-process: its exit status and what it printed. The harness of the
 * {@code spec} commands' tests.
 *
 * @param exit the exit status
 * @param out  standard output, with standard error unless kept apart
 * @param err  standard error when kept apart ({@link #specApart}), else empty
 */
record CommandRun(int exit, String out, String err) {

    /** Runs {@code spec args...}; standard output and error both in {@link #out}, as a terminal shows them. */
    static CommandRun spec(String... args) {
        return run(new SpecCommand(), args);
    }

    /** Runs {@code command} with {@code args}; standard output and error both in {@link #out}. */
    static CommandRun run(Object command, String... args) {
        StringWriter out = new StringWriter();
        CommandLine cl = new CommandLine(command);
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(out));
        int exit = cl.execute(args);
        return new CommandRun(exit, out.toString(), "");
    }

    /** Runs {@code spec args...} with standard error kept apart in {@link #err}. */
    static CommandRun specApart(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new SpecCommand());
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new CommandRun(exit, out.toString(), err.toString());
    }

    /** The file path of the test resource {@code name}. */
    static String resource(String name) throws Exception {
        URL url = CommandRun.class.getClassLoader().getResource(name);
        return Path.of(url.toURI()).toString();
    }
}
