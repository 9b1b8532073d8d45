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
 * {@link io.statecast.messagestore.tools.lint.Rule}. Exit status 0 without errors, 1 with any
 * error (or warning, with {@code -W}), 2 for bad usage or an unreadable file.
 */
@Command(name = "lint",
        description = {"Validate specs and look for what validation lets through: unreachable and leaking states, "
                + "unused or undeclared events, unhandled timers, history reads of impossible events, metaops "
                + "that contradict the actions.",
            "Prints file:line:column: severity: message [rule]. Exit status 0: no errors, 1: errors (or warnings with -W), "
                + "2: bad usage or a file cannot be read."})
final class SpecLintCommand implements Callable<Integer> {


    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Spec files to lint.")
    private List<Path> files;

    @CommandLine.Option(names = {"-W", "--warnings-as-errors"}, description = "Exit with status 1 on warnings too.")
    private boolean warningsAsErrors;

    @CommandLine.Option(names = "--json", description = "Print the findings as one JSON document.")
    private boolean json;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Integer refused = InputFiles.refuseUnreadable(files, spec.commandLine().getErr());
        if (refused != null) {
            return refused;
        }
        List<Finding> findings = new ArrayList<>();
        try (SpecLoader loader = new SpecLoader()) {
            Linter linter = new Linter(loader);
            for (Path f : files) {
                findings.addAll(linter.lint(f));
            }
        }
        LintReport report = new LintReport(files.size(), findings);
        if (json) {
            out.print(report.toJson(warningsAsErrors));
        } else {
            for (Finding f : report.findings()) {
                out.println(f.format());
            }
            out.println(report.summary());
        }
        out.flush();
        return report.exitStatus(warningsAsErrors);
    }
}
