package io.statecast.messagestore.cli;

import io.statecast.messagestore.spec.Problem;
import io.statecast.messagestore.spec.SpecLoader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code statecast spec validate FILE…}: prints every problem as
 * {@code file:line:column: severity: message}; exits 1 when any file has an error.
 */
@Command(name = "validate",
        description = "Check specs; print every problem as file:line:column: severity: message. "
                + "Exit status 0: no errors, 1: a spec has errors, 2: bad usage or a file cannot be read.")
final class SpecValidateCommand implements Callable<Integer> {


    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Spec files to check.")
    private List<Path> files;

    @CommandLine.Option(names = {"-q", "--quiet"}, description = "Print errors only, no warnings or summary.")
    private boolean quiet;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Integer refused = InputFiles.refuseUnreadable(files, spec.commandLine().getErr());
        if (refused != null) {
            return refused;
        }
        int errors = 0;
        int warnings = 0;
        try (SpecLoader loader = new SpecLoader()) {
            for (Path file : files) {
                for (Problem p : loader.validate(file)) {
                    if (p.isError()) {
                        errors++;
                    } else {
                        warnings++;
                        if (quiet) {
                            continue;
                        }
                    }
                    out.println(p.format(file.toString()));
                }
            }
        }
        if (!quiet) {
            out.println(files.size() + " file" + (files.size() == 1 ? "" : "s") + " checked: " + errors + " error"
                    + (errors == 1 ? "" : "s") + ", " + warnings + " warning" + (warnings == 1 ? "" : "s"));
        }
        out.flush();
        return errors > 0 ? 1 : 0;
    }
}
