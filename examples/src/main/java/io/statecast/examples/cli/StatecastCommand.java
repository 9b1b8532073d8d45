package io.statecast.examples.cli;

import io.statecast.examples.demo.DemoCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code bin/statecast} launcher: one entry point whose subcommands each module contributes.
 * Subcommands print what they did and exit non-zero on failure; errors in arguments print usage.
 */
@Command(
        name = "statecast",
        // Every subcommand inherits -h/--help and -V/--version with this version.
        scope = CommandLine.ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Statecast overlay middleware: overlay nodes, delivery services as SCXML state machines, and their tools.",
        subcommands = {
            CommandLine.HelpCommand.class,
            ExchangeCommand.class,
            io.statecast.examples.bench.BenchCommand.class,
            io.statecast.messagestore.cli.SpecCommand.class,
            io.statecast.messagestore.cli.KeygenCommand.class,
            ChatCommand.class,
            NodeCommand.class,
            ProbeCommand.class,
            io.statecast.specserver.cli.SpecServerCommand.class,
            io.statecast.examples.ttcp.TtcpCommand.class,
            io.statecast.examples.sidebyside.SideBySideCommand.class,
            io.statecast.examples.demo.DemoCommand.class,
            SimCommand.class,
        })
public final class StatecastCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    private static final String LOG_LEVEL = "org.slf4j.simpleLogger.defaultLogLevel";
    private static final String LEAK_DETECTION = "io.netty.leakDetection.level";

    /**
     * Runs the launcher.
     *
     * @param args command line
     */
    public static void main(String[] args) {
        // slf4j-simple reads its level once, when the first logger is made; a user's -D setting wins.
        if (DemoCommand.wantsQuietLogs(args) && System.getProperty(LOG_LEVEL) == null) {
            System.setProperty(LOG_LEVEL, "warn");
        }
        // Netty samples one buffer allocation in 128 for leak reports, recording a stack trace:
        // a few per cent of a saturated node's CPU. The tests keep it on; a user's -D setting wins.
        if (System.getProperty(LEAK_DETECTION) == null) {
            System.setProperty(LEAK_DETECTION, "disabled");
        }
        System.exit(newCommandLine().execute(args));
    }

    /** The configured command line, shared by {@link #main} and tests. */
    public static CommandLine newCommandLine() {
        return new CommandLine(new StatecastCommand()).setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(StatecastCommand::failed);
    }

    /**
     * What a command that threw prints: one line naming the command and the cause chain, no
     * stack trace (unless {@value #STACK_TRACES} is set), and exit status 1, the work failed.
     */
    private static int failed(Exception ex, CommandLine cl, CommandLine.ParseResult parsed) {
        StringBuilder why = new StringBuilder();
        for (Throwable t = ex; t != null && why.length() < 2000; t = t.getCause()) {
            String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
            if (why.indexOf(m) < 0) {
                why.append(why.length() == 0 ? "" : ": ").append(m);
            }
        }
        cl.getErr().println(cl.getCommandSpec().qualifiedName() + ": " + why);
        if (Boolean.getBoolean(STACK_TRACES)) {
            ex.printStackTrace(cl.getErr());
        }
        cl.getErr().flush();
        return CommandLine.ExitCode.SOFTWARE;
    }

    /** System property that makes a failed command print its stack trace too. */
    static final String STACK_TRACES = "statecast.stackTraces";
}
