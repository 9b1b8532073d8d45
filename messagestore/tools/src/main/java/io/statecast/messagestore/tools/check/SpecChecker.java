package io.statecast.messagestore.tools.check;

import io.statecast.overlay.io.FileErrors;
import io.statecast.messagestore.spec.Problem;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.messagestore.tools.SourceText;
import io.statecast.messagestore.tools.SpecGraph;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code statecast spec check}: bounded model checking of one service spec.
 *
 * <p>The spec is loaded once by the {@link SpecLoader}; the checker then runs that loaded spec
 * — its Commons SCXML model, compiled actions, history and composite-event queries — on an
 * {@link AbstractNode} with K peers, feeding every interleaving of the inputs (each message of
 * the {@link Alphabet}, and the expiry of each pending timer) up to a depth, breadth first, and
 * merging states with equal {@link StateKey}s. {@link Analysis} then looks for leaking states,
 * send storms, unhandled timers, events never handled and failing actions, each with a shortest
 * trace.
 *
 * <h2>What a clean result means, and what it does not</h2>
 * Within the bound and the abstraction: timers may expire in any order (their delays are not
 * compared), messages arrive in any order from the abstract peers, one topology is assumed (a
 * node with a parent, children and perhaps a neighbour, see {@link AbstractNode}), the history
 * is summarised as {@link StateKey} says. A leak is reported only when it is certain for the
 * explored state (everything reachable from it was explored, or the spec's graph has no ending
 * step at all); states whose fate lies beyond the depth bound are counted as undecided.
 *
 * <p>Thread-safe when its loader is; each check runs on the calling thread.
 */
public final class SpecChecker {

    private final SpecLoader loader;
    private final CheckProgress progress;

    /** A checker loading specs with {@code loader} (not closed by the checker). */
    public SpecChecker(SpecLoader loader) {
        this(loader, CheckProgress.NONE);
    }

    /** A checker that tells {@code progress} how far each exploration has got. */
    public SpecChecker(SpecLoader loader, CheckProgress progress) {
        this.loader = Objects.requireNonNull(loader, "loader");
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /** Checks a file, reading at most one byte more than the loader's size limit. */
    public CheckReport check(Path file, CheckOptions options) {
        return check(file, options, Map.of());
    }

    /**
     * Checks a file with some of its parameters changed ({@link ServiceSpec#withParameters}): for a
     * default beyond what a bounded check reaches, such as a count threshold above the depth.
     */
    public CheckReport check(Path file, CheckOptions options, Map<String, String> parameters) {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(loader.limits().maxBytes() + 1);
        } catch (IOException e) {
            return new CheckReport(file.toString(), options, List.of(CheckFinding.of(CheckRule.INVALID,
                    file.toString(), 0, 0, "cannot read spec: " + FileErrors.describe(e), null)), null);
        }
        return check(bytes, file.toString(), options, parameters);
    }

    /**
     * Checks a spec.
     *
     * @param bytes the document
     * @param file  names it in findings
     */
    public CheckReport check(byte[] bytes, String file, CheckOptions options) {
        return check(bytes, file, options, Map.of());
    }

    /**
     * {@link #check(byte[], String, CheckOptions)} with some parameters changed; an unknown name or
     * a value of the wrong type is an {@link CheckRule#INVALID} finding.
     */
    public CheckReport check(byte[] bytes, String file, CheckOptions options, Map<String, String> parameters) {
        SourceText text = SourceText.of(bytes);
        ServiceSpec spec;
        try {
            spec = loader.load(bytes, file);
            if (!parameters.isEmpty()) {
                spec = spec.withParameters(parameters);
            }
        } catch (SpecException e) {
            List<CheckFinding> out = new ArrayList<>();
            for (Problem p : e.problems()) {
                if (p.severity() == Problem.Severity.ERROR) {
                    out.add(CheckFinding.of(CheckRule.INVALID, file, p.line(), p.column(),
                            "the spec does not load: " + p.message(), null));
                }
            }
            return new CheckReport(file, options, out, null);
        }
        return check(spec, text, file, options, progress);
    }

    /** Checks a loaded spec ({@code text} only gives columns; {@link SourceText#empty()} will do). */
    public static CheckReport check(ServiceSpec spec, SourceText text, String file, CheckOptions options) {
        return check(spec, text, file, options, CheckProgress.NONE);
    }

    /** {@link #check(ServiceSpec, SourceText, String, CheckOptions)}, telling {@code progress} how far it got. */
    public static CheckReport check(ServiceSpec spec, SourceText text, String file, CheckOptions options,
            CheckProgress progress) {
        List<String> unmodelled = spec.chart().controlContent();
        if (!unmodelled.isEmpty()) {
            // its states are configurations only: a datamodel that steers, or history, would make
            // its verdicts wrong (one that only feeds values, such as timer durations, does not)
            return new CheckReport(file, options, List.of(CheckFinding.of(CheckRule.NOT_MODELLED, file, 0, 0,
                    "spec check models states, events and actions, not the SCXML datamodel or history; this spec "
                            + "uses " + String.join(", ", unmodelled.subList(0, Math.min(3, unmodelled.size())))
                            + (unmodelled.size() > 3 ? " and " + (unmodelled.size() - 3) + " more" : "")
                            + ": test it with spec test scenarios instead", null)), null);
        }
        long t0 = System.nanoTime();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        boolean cpu = threads.isCurrentThreadCpuTimeSupported();
        long c0 = cpu ? threads.getCurrentThreadCpuTime() : 0;
        SpecGraph graph = SpecGraph.of(spec);
        AbstractNode node = AbstractNode.of(options.peers(), Alphabet.family(spec));
        List<Input.Arrival> alphabet = Alphabet.of(spec, node);
        Simulator sim = new Simulator(spec, graph, node);
        StateKey keys = new StateKey(spec, graph, alphabet, options.historyCap(), options.depth());
        StateSpace space = StateSpace.explore(sim, keys, alphabet, options, progress);
        Analysis analysis = new Analysis(spec, graph, space, text, file);
        List<CheckFinding> findings = analysis.run();
        int expanded = 0;
        int atBound = 0;
        for (StateSpace.Node n : space.nodes) {
            if (n.expanded) {
                expanded++;
            } else if (!n.ended()) {
                atBound++;
            }
        }
        long millis = (System.nanoTime() - t0) / 1_000_000;
        long cpuMillis = cpu ? (threads.getCurrentThreadCpuTime() - c0) / 1_000_000 : millis;
        CheckReport.Stats stats = new CheckReport.Stats(space.nodes.size(), space.transitions, expanded, atBound,
                alphabet.size(), space.cut.name().toLowerCase(java.util.Locale.ROOT), analysis.undecided(), millis, cpuMillis);
        return new CheckReport(file, options, findings, stats);
    }
}
