package io.statecast.messagestore.cli;

import io.statecast.overlay.io.FileErrors;
import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.statecast.messagestore.tools.conformance.ConformanceRunner;
import io.statecast.messagestore.tools.conformance.TestOutcome;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code statecast spec conformance DIR [--json FILE]}: runs the W3C SCXML 1.0 conformance tests
 * in DIR on the chart engine; prints a line per test, then {@code N passed, N failed, N excluded}.
 * Exit status 1 when any test failed, 2 when DIR cannot be read.
 */
@Command(name = "conformance",
        description = "Run the W3C SCXML 1.0 conformance tests (XPath datamodel) in DIR on the engine; "
                + "print a line per test and 'N passed, N failed, N excluded'. Exit status 1 if any failed.")
final class SpecConformanceCommand implements Callable<Integer> {


    @Parameters(index = "0", paramLabel = "DIR", description = "Directory of testNNN.scxml files (XPath versions).")
    private Path dir;

    @CommandLine.Option(names = "--json", paramLabel = "FILE", description = "Also write every outcome as JSON.")
    private Path json;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.isDirectory(dir)) {
            err.println(dir + ": not a directory");
            err.flush();
            return 2;
        }
        List<TestOutcome> outcomes;
        try {
            outcomes = new ConformanceRunner().runAll(dir);
        } catch (IOException e) {
            err.println(dir + ": cannot read: " + FileErrors.describe(e));
            err.flush();
            return 2;
        }
        for (TestOutcome o : outcomes) {
            out.println(o.test() + " " + o.result().name().toLowerCase(java.util.Locale.ROOT)
                    + (o.reason().isEmpty() ? "" : " (" + o.reason() + ")"));
        }
        Map<TestOutcome.Result, Long> n = ConformanceRunner.counts(outcomes);
        if (json != null) {
            try (JsonGenerator g = new JsonFactory().createGenerator(json.toFile(), JsonEncoding.UTF8)) {
                g.useDefaultPrettyPrinter();
                g.writeStartObject();
                g.writeNumberField("passed", n.get(TestOutcome.Result.PASSED));
                g.writeNumberField("failed", n.get(TestOutcome.Result.FAILED));
                g.writeNumberField("excluded", n.get(TestOutcome.Result.EXCLUDED));
                g.writeArrayFieldStart("tests");
                for (TestOutcome o : outcomes) {
                    g.writeStartObject();
                    g.writeStringField("test", o.test());
                    g.writeStringField("result", o.result().name().toLowerCase(java.util.Locale.ROOT));
                    g.writeStringField("reason", o.reason());
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeEndObject();
            } catch (IOException e) {
                err.println(json + ": cannot write: " + e.getMessage());
                err.flush();
                return 2;
            }
        }
        out.println(n.get(TestOutcome.Result.PASSED) + " passed, " + n.get(TestOutcome.Result.FAILED) + " failed, "
                + n.get(TestOutcome.Result.EXCLUDED) + " excluded");
        out.flush();
        return n.get(TestOutcome.Result.FAILED) > 0 ? 1 : 0;
    }
}
