package io.statecast.messagestore.spec;

import io.statecast.messagestore.event.XQueryEngine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.commons.scxml.model.Action;
import org.apache.commons.scxml.model.CustomAction;
import org.apache.commons.scxml.model.Initial;
import org.apache.commons.scxml.model.ModelException;
import org.apache.commons.scxml.model.Parallel;
import org.apache.commons.scxml.model.SCXML;
import org.apache.commons.scxml.model.State;
import org.apache.commons.scxml.model.Transition;
import org.apache.commons.scxml.model.TransitionTarget;
import org.xml.sax.SAXException;

/**
 * Loads executable specifications: the boundary through which spec bytes from files, the spec
 * server or neighbours enter. Every spec is treated as hostile: bounded in size, elements, depth
 * and time, parsed without DTDs or external access, checked ({@link SpecValidator}), and only then
 * handed to Commons SCXML. The one checked exception is {@link SpecException}; nothing else
 * escapes for any input.
 *
 * <p>Thread-safe. Close it to stop the query compile thread of an engine it created itself.
 */
public final class SpecLoader implements AutoCloseable {

    private static final List<CustomAction> CUSTOM_ACTIONS = List.of(
            new CustomAction(SpecNamespaces.ACTION, "create", CreateAction.class),
            new CustomAction(SpecNamespaces.ACTION, "set", SetAction.class),
            new CustomAction(SpecNamespaces.ACTION, "execute", ExecuteAction.class));

    private final SpecLimits limits;
    private final XQueryEngine engine;
    private final boolean ownsEngine;
    private final SpecValidator validator;

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
            throw new SpecException(source, List.of(Problem.error(0, 0, "cannot read spec: " + e.getMessage())));
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
            throw new SpecException(file.toString(), List.of(Problem.error(0, 0, "cannot read spec: " + e)));
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
            SpecValidator.Checked checked = validator.check(parsed, deadline, problems);
            if (checked == null || problems.stream().anyMatch(Problem::isError)) {
                return null;
            }
            SCXML model;
            try {
                model = SpecParser.digest(bytes, CUSTOM_ACTIONS);
            } catch (ModelException | SAXException | IOException | IllegalStateException e) {
                problems.add(Problem.error(0, 0, "Commons SCXML refused the state machine: " + e.getMessage()));
                return null;
            }
            prepare(model, checked.actions());
            return new ServiceSpec(source, sha256(bytes), checked, model, problems);
        } catch (RuntimeException | StackOverflowError e) {
            // A bug or an input we did not foresee: refuse the spec, never let it escape.
            problems.add(Problem.error(0, 0, "internal error while loading the spec: " + e));
            return null;
        }
    }

    /**
     * Makes the parsed model ready to share: binds every action:execute to its compiled template,
     * fills every transition's paths (Commons SCXML 0.9 fills targetless ones lazily without
     * synchronisation: a data race between executors), and drops the datamodel (its sections are
     * compiled; cloning them into every instance would cost time and memory).
     */
    private static void prepare(SCXML model, Map<SpecValidator.BlockKey, List<ActionTemplate>> templates) {
        int[] bound = {0};
        for (Object child : model.getChildren().values()) {
            prepareTarget((TransitionTarget) child, templates, bound);
        }
        int expected = templates.values().stream().mapToInt(List::size).sum();
        if (bound[0] != expected) {
            throw new IllegalStateException("bound " + bound[0] + " of " + expected + " compiled actions");
        }
        model.setDatamodel(null);
    }

    private static void prepareTarget(TransitionTarget tt, Map<SpecValidator.BlockKey, List<ActionTemplate>> templates,
            int[] bound) {
        String id = tt.getId();
        if (tt.getOnEntry() != null) {
            bind(tt.getOnEntry().getActions(), templates.get(key(id, SpecValidator.BlockKind.ONENTRY, 0)), bound);
        }
        if (tt.getOnExit() != null) {
            bind(tt.getOnExit().getActions(), templates.get(key(id, SpecValidator.BlockKind.ONEXIT, 0)), bound);
        }
        List<?> transitions = tt.getTransitionsList();
        for (int i = 0; i < transitions.size(); i++) {
            Transition t = (Transition) transitions.get(i);
            bind(t.getActions(), templates.get(key(id, SpecValidator.BlockKind.TRANSITION, i)), bound);
            t.getPaths();
        }
        if (tt instanceof State s) {
            Initial ini = s.getInitial();
            if (ini != null && ini.getTransition() != null) {
                bind(ini.getTransition().getActions(), templates.get(key(id, SpecValidator.BlockKind.INITIAL, 0)),
                        bound);
                ini.getTransition().getPaths();
            }
            for (Object c : s.getChildren().values()) {
                prepareTarget((TransitionTarget) c, templates, bound);
            }
        } else if (tt instanceof Parallel p) {
            for (Object c : p.getChildren()) {
                prepareTarget((TransitionTarget) c, templates, bound);
            }
        }
    }

    private static SpecValidator.BlockKey key(String id, SpecValidator.BlockKind kind, int index) {
        return new SpecValidator.BlockKey(id, kind, index);
    }

    private static void bind(List<?> actions, List<ActionTemplate> templates, int[] bound) {
        List<ActionTemplate> ts = templates == null ? List.of() : templates;
        int i = 0;
        for (Object a : actions) {
            if (a instanceof ExecuteAction e) {
                if (i >= ts.size()) {
                    throw new IllegalStateException("more action:execute elements than compiled actions");
                }
                e.bind(ts.get(i++));
            } else if (!(a instanceof CreateAction) && !(a instanceof SetAction)) {
                throw new IllegalStateException("unexpected action in the model: " + ((Action) a).getClass().getName());
            }
        }
        if (i != ts.size()) {
            throw new IllegalStateException("compiled " + ts.size() + " actions but found " + i + " action:execute");
        }
        bound[0] += i;
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
