package io.statecast.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The conventions every subcommand shares: -V, --help, exit statuses 0/1/2, no stack traces. */
class StatecastCommandTest {

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = StatecastCommand.newCommandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private static void collect(CommandLine cl, List<String> prefix, List<List<String>> into) {
        for (var e : cl.getSubcommands().entrySet()) {
            if (e.getKey().equals("help")) {
                continue;
            }
            List<String> path = new ArrayList<>(prefix);
            path.add(e.getKey());
            into.add(path);
            collect(e.getValue(), path, into);
        }
    }

    @Test
    void shouldPrintTheVersionAndHelpInEverySubcommand() {
        List<List<String>> commands = new ArrayList<>();
        collect(StatecastCommand.newCommandLine(), List.of(), commands);
        assertTrue(commands.size() >= 15, commands.toString());
        for (List<String> c : commands) {
            List<String> v = new ArrayList<>(c);
            v.add("-V");
            Run version = run(v.toArray(String[]::new));
            assertEquals(0, version.exit(), c + ": " + version.err());
            assertTrue(version.out().startsWith("statecast "), c + " -V printed: " + version.out());
            List<String> h = new ArrayList<>(c);
            h.add("--help");
            Run help = run(h.toArray(String[]::new));
            assertEquals(0, help.exit(), c.toString());
            assertTrue(help.out().contains("-V, --version"), c + ": " + help.out());
        }
    }

    @Test
    void shouldExitTwoOnUsageErrorsInEverySubcommand() {
        List<List<String>> commands = new ArrayList<>();
        collect(StatecastCommand.newCommandLine(), List.of(), commands);
        for (List<String> c : commands) {
            List<String> bad = new ArrayList<>(c);
            bad.add("--no-such-option");
            Run r = run(bad.toArray(String[]::new));
            assertEquals(2, r.exit(), c + ": " + r.err());
            assertFalse(r.err().isBlank(), c + " says what is wrong");
            assertFalse(r.err().contains("\tat "), c + ": no stack trace: " + r.err());
        }
    }

    @Test
    void shouldExitTwoNamingLineAndColumnForAConfigurationThatIsNotWellFormed(@TempDir Path dir) throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "overlay:\n  id: x\n  heartbeat: {fastMs: 100\n");
        // node writes to the process's stderr (its own line protocol), so only its status is checked here
        assertEquals(2, run("node", "--config", bad.toString()).exit());
        for (String[] args : new String[][] {
            {"chat", "--config", bad.toString()},
            {"ttcp", "recv", "--config", bad.toString()},
            {"ttcp", "send", "--config", bad.toString()},
        }) {
            Run r = run(args);
            String all = r.out() + r.err();
            assertEquals(2, r.exit(), String.join(" ", args) + ": " + all);
            assertTrue(all.contains("not well-formed YAML at line "), String.join(" ", args) + ": " + all);
            assertFalse(all.contains("\tat "), "no stack trace: " + all);
        }
    }

    @Test
    void shouldNameTheCauseWhenAConfigurationCannotBeRead(@TempDir Path dir) {
        Run r = run("ttcp", "recv", "--config", dir.resolve("absent.yaml").toString());
        String all = r.out() + r.err();
        assertEquals(2, r.exit(), all);
        assertTrue(all.contains("absent.yaml: cannot read: no such file"), all);
    }
}
