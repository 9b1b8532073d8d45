package io.statecast.messagestore.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code statecast spec …}: tools for executable specifications. Subcommands print what they
 * did and exit non-zero on failure.
 */
@Command(
        name = "spec",
        scope = CommandLine.ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        description = "Check, inspect, lint, draw, test, model-check, sign and verify executable specifications (SCXML service specs).",
        subcommands = {
            SpecValidateCommand.class,
            SpecInfoCommand.class,
            SpecLintCommand.class,
            SpecRenderCommand.class,
            SpecTestCommand.class,
            SpecCheckCommand.class,
            SpecConformanceCommand.class,
            SpecSignCommand.class,
            SpecVerifyCommand.class,
        })
public final class SpecCommand implements Runnable {


    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
