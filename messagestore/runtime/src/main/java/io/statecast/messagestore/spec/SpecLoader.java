package io.statecast.messagestore.spec;

import io.statecast.overlay.io.FileErrors;
import io.statecast.messagestore.event.XQueryEngine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import io.statecast.messagestore.chart.Chart;
import io.statecast.messagestore.chart.ChartCompiler;
import io.statecast.messagestore.chart.ChartOptions;
import org.w3c.dom.Element;

/**
 * Loads executable specifications: the boundary through which spec bytes from files, the spec
 * server or neighbours enter. Every spec is treated as hostile: bounded in size, elements, depth
 * and time, parsed without DTDs or external access, checked ({@link SpecValidator}), and only then
 * compiled into the engine's form ({@link ChartCompiler}). The one checked exception is {@link SpecException}; nothing else
 * escapes for any input.
 *
 * <p>Thread-safe. Close it to stop the query compile thread of an engine it created itself.
 */
public final class SpecLoader implements AutoCloseable {

    private final SpecLimits limits;
    private final XQueryEngine engine;
    private final boolean ownsEngine;
    private final SpecValidator validator;
    private final ChartCompiler charts;

    /** A loader with {@link SpecLimits#DEFAULTS} and its own query engine. */
    public SpecLoader() {
        this(SpecLimits.DEFAULTS);
    }

    /** A loader with its own query engine. */
    public SpecLoader(SpecLimits limits) {
        this(limits, new XQueryEngine(limits.queries()), true);
    }

    /**
     * A loader sharing a query engine (whose limits then apply to queries); the engine stays open
     * when the loader is closed.
     */
    public SpecLoader(SpecLimits limits, XQueryEngine engine) {
        this(limits, engine, false);
    }

    private SpecLoader(SpecLimits limits, XQueryEngine engine, boolean ownsEngine) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.engine = Objects.requireNonNull(engine, "engine");
        this.ownsEngine = ownsEngine;
        this.validator = new SpecValidator(engine, new SpecSchemas());
        this.charts = new ChartCompiler(engine);
    }

    /** The query engine compiling this loader's XQuery and XPath. */
    public XQueryEngine engine() {
        return engine;
    }

    /** The limits applied. */
    public SpecLimits limits() {
        return limits;
    }

    /**
     * Loads a spec.
     *
     * @param bytes  the document
     * @param source names it in messages (file name, URI)
     * @throws SpecException with every problem when any error is found
     */
    public ServiceSpec load(byte[] bytes, String source) throws SpecException {
        List<Problem> problems = new ArrayList<>();
        ServiceSpec spec = run(bytes, source, problems);
        if (spec == null) {
            throw new SpecException(source, problems);
        }
        return spec;
    }

    /** Loads a spec from a file, reading at most one byte more than the size limit. */
    public ServiceSpec load(Path file) throws SpecException {
        return load(read(file), file.toString());
    }

    /** Loads a spec from a stream (not closed), reading at most one byte more than the size limit. */
    public ServiceSpec load(InputStream in, String source) throws SpecException {
        try {
            return load(in.readNBytes(limits.maxBytes() + 1), source);
        } catch (IOException e) {
            throw new SpecException(source, List.of(Problem.error(0, 0, "cannot read spec: " + FileErrors.describe(e))));
        }
    }

    /**
     * Checks a spec and returns every problem (errors and warnings), sorted; an empty list means
     * it loads cleanly. Never throws for any input.
     */
    public List<Problem> validate(byte[] bytes, String source) {
        List<Problem> problems = new ArrayList<>();
        run(bytes, source, problems);
        return problems.stream().sorted().toList();
    }

    /** {@link #validate(byte[], String)} for a file; an unreadable file is one problem. */
    public List<Problem> validate(Path file) {
        try {
            return validate(read(file), file.toString());
        } catch (SpecException e) {
            return e.problems();
        }
    }

    private byte[] read(Path file) throws SpecException {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(limits.maxBytes() + 1);
        } catch (IOException e) {
            throw new SpecException(file.toString(), List.of(Problem.error(0, 0, "cannot read spec: " + FileErrors.describe(e))));
        }
    }

    private ServiceSpec run(byte[] bytes, String source, List<Problem> problems) {
        try {
            Deadline deadline = Deadline.after(limits.loadTimeout(), limits.loadWallBackstop(),
                    engine::compileCpuNanos);
            SpecParser.Parsed parsed = SpecParser.parse(bytes, limits, deadline, problems);
            if (parsed == null) {
                return null;
            }
            // The blueprint's printed forms are read as today's before anything checks them.
            BlueprintForms.apply(parsed.document(), source, problems);
            SpecValidator.Checked checked = validator.check(parsed, deadline, problems);
            if (checked == null || problems.stream().anyMatch(Problem::isError)) {
                return null;
            }
            Chart chart;
            try {
                chart = charts.compile(source, parsed.document(),
                        new ChartOptions(true, null, true, element -> customAction(element, checked),
                                checked.parameters().stream().map(Parameter::name).collect(java.util.stream.Collectors.toSet())));
            } catch (SpecException e) {
                problems.addAll(e.problems());
                return null;
            }
            return new ServiceSpec(source, sha256(bytes), checked, chart, problems);
        } catch (RuntimeException | StackOverflowError e) {
            // A bug or an input we did not foresee: refuse the spec, never let it escape.
            problems.add(Problem.error(0, 0, "internal error while loading the spec: " + e));
            return null;
        }
    }

    /**
     * What the engine runs for an element of the action namespace: an {@code action:execute} runs
     * the template the validator compiled from it and the create and sets before it; those
     * compile to nothing of their own.
     */
    private static Object customAction(Element element, SpecValidator.Checked checked) {
        if (!SpecNamespaces.ACTION.equals(element.getNamespaceURI())) {
            return null;
        }
        return switch (element.getLocalName()) {
            case "create", "set" -> ChartOptions.CustomActions.NOTHING;
            case "execute" -> checked.executeElements().get(element);
            default -> null;
        };
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }

    /** Closes the query engine if this loader created it. */
    @Override
    public void close() {
        if (ownsEngine) {
            engine.close();
        }
    }
}
