package io.statecast.examples.bench;

import io.statecast.messagestore.chart.Chart;
import io.statecast.messagestore.chart.ChartCompiler;
import io.statecast.messagestore.chart.ChartEvent;
import io.statecast.messagestore.chart.ChartHost;
import io.statecast.messagestore.chart.ChartLimits;
import io.statecast.messagestore.chart.ChartOptions;
import io.statecast.messagestore.chart.Session;
import io.statecast.messagestore.spec.SpecDocuments;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLimits;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Cost of the statechart engine's XPath datamodel per step: one event into a live
 * {@link Session} whose state has a targetless transition for it. Each measure is one
 * {@code process(event)}:
 *
 * <ul>
 *   <li>{@code dispatch}: a transition with neither cond nor action (what the others add to).</li>
 *   <li>{@code assignSubset}: {@code <assign location="$n" expr="$n + 1"/>}, an expression of the
 *       subset the engine compiles itself (no Saxon, no DOM).</li>
 *   <li>{@code assignSaxon}: {@code <assign location="$n" expr="$n + abs(1)"/>}, the same value
 *       through Saxon ({@code abs} is outside the subset).</li>
 *   <li>{@code condSubset}: a transition with {@code cond="$m &lt; 4"} that holds.</li>
 *   <li>{@code condSaxon}: {@code cond="$m &lt; abs(4)"}, through Saxon.</li>
 * </ul>
 *
 * Run with {@code bin/statecast bench ChartExpression}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ChartExpressionBenchmark {

    private static final String CHART = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="xpath">
              <datamodel><data id="n" expr="0"/><data id="m" expr="1"/></datamodel>
              <state id="s">
                <transition event="dispatch"/>
                <transition event="assignSubset"><assign location="$n" expr="$n + 1"/></transition>
                <transition event="assignSaxon"><assign location="$n" expr="$n + abs(1)"/></transition>
                <transition event="condSubset" cond="$m &lt; 4"/>
                <transition event="condSaxon" cond="$m &lt; abs(4)"/>
              </state>
            </scxml>""";

    private static final ChartEvent DISPATCH = ChartEvent.external("dispatch");
    private static final ChartEvent ASSIGN_SUBSET = ChartEvent.external("assignSubset");
    private static final ChartEvent ASSIGN_SAXON = ChartEvent.external("assignSaxon");
    private static final ChartEvent COND_SUBSET = ChartEvent.external("condSubset");
    private static final ChartEvent COND_SAXON = ChartEvent.external("condSaxon");

    private Session session;

    /** A host that ignores logs and timers: the chart uses neither. */
    private static final class Host implements ChartHost {
        @Override
        public void log(String label, String value) {
        }

        @Override
        public Object schedule(long delayMillis, Runnable task) {
            throw new UnsupportedOperationException("the benchmark's chart sets no timers");
        }

        @Override
        public void cancel(Object handle) {
        }
    }

    @Setup
    public void setUp() throws SpecException {
        byte[] bytes = CHART.getBytes(StandardCharsets.UTF_8);
        Chart chart = new ChartCompiler().compile("bench.scxml",
                SpecDocuments.read("bench.scxml", bytes, SpecLimits.DEFAULTS), new ChartOptions(true, null));
        session = new Session(chart, new Host(), ChartLimits.DEFAULTS, "bench");
        session.start();
    }

    @Benchmark
    public Session dispatch() {
        session.process(DISPATCH);
        return session;
    }

    @Benchmark
    public Session assignSubset() {
        session.process(ASSIGN_SUBSET);
        return session;
    }

    @Benchmark
    public Session assignSaxon() {
        session.process(ASSIGN_SAXON);
        return session;
    }

    @Benchmark
    public Session condSubset() {
        session.process(COND_SUBSET);
        return session;
    }

    @Benchmark
    public Session condSaxon() {
        session.process(COND_SAXON);
        return session;
    }
}
