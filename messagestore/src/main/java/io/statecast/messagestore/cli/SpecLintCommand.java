package io.statecast.messagestore.cli;

import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.messagestore.tools.lint.Finding;
import io.statecast.messagestore.tools.lint.LintReport;
import io.statecast.messagestore.tools.lint.Linter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code statecast spec lint FILE… [--json]}: validation plus the static analyses of
 * {@link io.statecast.messagestore.tools.lint.Rule}. Exit status 0 without findings, 1 with
 * warnings only, 2 with any error.
 */
@Command(name = "lint",
        description = {"Validate specs and look for what validation lets through: unreachable and leaking states, "
                + "unused or undeclared events, unhandled timers, history reads of impossible events, metaops "
                + "that contradict the actions.",
            "Prints file:line:column: severity: message [rule]. Exit status 0: no findings, 1: warnings only, "
                + "2: errors."})
final class SpecLintCommand implements Callable<Integer> {

    @CommandLine.Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Spec files to lint.")
    private List<Path> files;

    @CommandLine.Option(names = "--json", description = "Print the findings as one JSON document.")
    private boolean json;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<Finding> findings = new ArrayList<>();
        try (SpecLoader loader = new SpecLoader()) {
            Linter linter = new Linter(loader);
            for (Path f : files) {
                findings.addAll(linter.lint(f));
            }
        }
        LintReport report = new LintReport(files.size(), findings);
        if (json) {
            out.print(report.toJson());
        } else {
            for (Finding f : report.findings()) {
                out.println(f.format());
            }
            out.println(report.summary());
        }
        out.flush();
        return report.exitStatus();
    }
}
