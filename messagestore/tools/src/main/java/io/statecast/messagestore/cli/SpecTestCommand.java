package io.statecast.messagestore.cli;

import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.tools.scenario.ScenarioException;
import io.statecast.messagestore.tools.scenario.ScenarioReport;
import io.statecast.messagestore.tools.scenario.ScenarioResult;
import io.statecast.messagestore.tools.scenario.ScenarioSuite;
import io.statecast.overlay.io.FileErrors;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code statecast spec test FILE SCENARIO…}: runs scenario files (or every scenario file in a
 * directory) against one spec and prints pass or fail per step, with the differences. Exit status
 * 0 when every scenario passed, 1 when one failed or could not be read (or the spec does not
 * load), 2 on a usage error.
 */
@Command(name = "test",
        description = {"Run scripted scenarios (YAML or JSON) against a spec on a virtual clock and check the "
                + "primitives it calls, the states it reaches and whether it terminates.",
            "SCENARIO may be a directory: every *.yaml, *.yml and *.json in it runs. "
                + "Exit status 0: all passed, 1: a scenario failed or the spec does not load, 2: bad usage, no scenario, "
                + "or a file that cannot be read or is not a valid scenario."})
final class SpecTestCommand implements Callable<Integer> {


    @Parameters(index = "0", paramLabel = "FILE", description = "The spec.")
    private Path specFile;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "SCENARIO", description = "Scenario files or directories.")
    private List<Path> scenarios;

    @CommandLine.Option(names = {"-v", "--verbose"}, description = "Print every step's calls, notes and state.")
    private boolean verbose;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Integer refused = InputFiles.refuseUnreadable(List.of(specFile), spec.commandLine().getErr());
        if (refused != null) {
            return refused;
        }
        try {
            ScenarioSuite suite;
            try {
                suite = ScenarioSuite.load(specFile);
            } catch (SpecException e) {
                out.println(specFile + ": the spec does not load: " + e.getMessage());
                return 1;
            }
            List<Path> files;
            try {
                files = ScenarioSuite.expand(scenarios);
            } catch (IOException e) {
                out.println("cannot list scenarios: " + FileErrors.describe(e));
                return CommandLine.ExitCode.USAGE;
            }
            int passed = 0;
            int failed = 0;
            int invalid = 0;
            for (Path f : files) {
                try {
                    ScenarioResult r = suite.run(f);
                    out.print(ScenarioReport.format(r, verbose));
                    if (r.passed()) {
                        passed++;
                    } else {
                        failed++;
                    }
                } catch (ScenarioException e) {
                    out.println(e.getMessage());
                    out.println("FAIL (not a valid scenario)");
                    invalid++;
                }
            }
            out.println(files.size() + (files.size() == 1 ? " scenario: " : " scenarios: ") + passed + " passed, "
                    + failed + " failed" + (invalid == 0 ? "" : ", " + invalid + " not valid"));
            if (invalid > 0 || files.isEmpty()) {
                return CommandLine.ExitCode.USAGE;
            }
            return failed == 0 ? CommandLine.ExitCode.OK : CommandLine.ExitCode.SOFTWARE;
        } finally {
            out.flush();
        }
    }
}
