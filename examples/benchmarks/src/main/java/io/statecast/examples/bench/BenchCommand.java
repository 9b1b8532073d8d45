package io.statecast.examples.bench;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code statecast bench}: runs the JMH benchmarks compiled into the benchmarks jar (their list is
 * {@code META-INF/BenchmarkList}, written by JMH's annotation processor). The defaults trade
 * precision for a run of about ten seconds per benchmark; for numbers worth publishing raise
 * {@code --forks}, {@code --iterations} and {@code --time-ms}.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Run the JMH micro-benchmarks (e.g. 'bench Codec --prof gc') and print their scores.")
public final class BenchCommand implements Callable<Integer> {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", defaultValue = ".*", paramLabel = "REGEX",
            description = "JMH regular expression selecting benchmarks by name (default: all).")
    private String include;

    @Option(names = "--forks", defaultValue = "1", description = "JVM forks per benchmark; 0 runs in this JVM (default: ${DEFAULT-VALUE}).")
    private int forks;

    @Option(names = "--warmup", defaultValue = "3", description = "Warm-up iterations per fork (default: ${DEFAULT-VALUE}).")
    private int warmup;

    @Option(names = "--iterations", defaultValue = "5", description = "Measured iterations per fork (default: ${DEFAULT-VALUE}).")
    private int iterations;

    @Option(names = "--time-ms", defaultValue = "1000", description = "Length of every warm-up and measured iteration, ms (default: ${DEFAULT-VALUE}).")
    private long timeMs;

    @Option(names = "--prof", paramLabel = "PROFILER",
            description = "JMH profiler to attach, repeatable; 'gc' reports allocation per operation (gc.alloc.rate.norm).")
    private List<String> profilers = new ArrayList<>();

    @Override
    public Integer call() {
        requireAtLeast("--forks", forks, 0);
        requireAtLeast("--warmup", warmup, 0);
        requireAtLeast("--iterations", iterations, 1);
        requireAtLeast("--time-ms", timeMs, 1);
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(include)
                .forks(forks)
                .warmupIterations(warmup)
                .warmupTime(TimeValue.milliseconds(timeMs))
                .measurementIterations(iterations)
                .measurementTime(TimeValue.milliseconds(timeMs))
                .shouldFailOnError(true);
        for (String profiler : profilers) {
            options.addProfiler(profiler);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Collection<RunResult> results;
        try {
            results = new Runner(options.build()).run();
        } catch (RunnerException e) {
            err.println("bench: " + e.getMessage());
            return 1;
        }
        if (results.isEmpty()) {
            err.println("bench: no benchmark matches '" + include + "'");
            return 1;
        }
        out.println();
        out.println("Summary (score ± 99.9% confidence half-interval; forks=" + forks + ", iterations=" + iterations
                + " x " + timeMs + " ms):");
        for (RunResult run : results) {
            Result<?> primary = run.getPrimaryResult();
            out.println("  " + run.getParams().getBenchmark() + ": " + format(primary));
            Result<?> alloc = run.getSecondaryResults().get("gc.alloc.rate.norm");
            if (alloc != null) {
                out.println("    allocation: " + format(alloc));
            }
        }
        out.flush();
        return 0;
    }

    private static String format(Result<?> r) {
        double error = r.getScoreError();
        String errorText = Double.isNaN(error) ? "(no error bar: too few iterations)" : String.format(Locale.ROOT, "± %.3f", error);
        return String.format(Locale.ROOT, "%.3f %s %s", r.getScore(), errorText, r.getScoreUnit());
    }

    private void requireAtLeast(String option, long value, long min) {
        if (value < min) {
            throw new CommandLine.ParameterException(spec.commandLine(), option + "=" + value + " must be >= " + min);
        }
    }
}
