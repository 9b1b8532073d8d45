package io.statecast.messagestore.tools.lint;

import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.tools.SourceText;
import io.statecast.messagestore.tools.SpecGraph;
import io.statecast.messagestore.tools.TimerAnalysis;
import java.util.List;

/** What every check of one spec sees, and where it reports. */
final class LintContext {

    private final String file;
    private final ServiceSpec spec;
    private final SpecGraph graph;
    private final TimerAnalysis timers;
    private final SourceText text;
    private final List<Finding> out;

    LintContext(String file, ServiceSpec spec, SourceText text, List<Finding> out) {
        this.file = file;
        this.spec = spec;
        this.graph = SpecGraph.of(spec);
        this.timers = TimerAnalysis.of(graph);
        this.text = text;
        this.out = out;
    }

    ServiceSpec spec() {
        return spec;
    }

    SpecGraph graph() {
        return graph;
    }

    TimerAnalysis timers() {
        return timers;
    }

    /** Reports a finding at the start tag of {@code element} on {@code line}. */
    void report(Rule rule, int line, String element, String message) {
        out.add(Finding.of(rule, file, line, text.column(line, element), message));
    }
}
