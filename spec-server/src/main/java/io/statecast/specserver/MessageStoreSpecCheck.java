package io.statecast.specserver;

import io.statecast.messagestore.spec.Problem;
import io.statecast.messagestore.spec.Promise;
import io.statecast.messagestore.spec.ServiceMetadata;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLimits;
import io.statecast.messagestore.spec.SpecLoader;
import java.util.List;
import java.util.Objects;

/**
 * The production {@link SpecCheck}: the MessageStore's own {@link SpecLoader}, so the server
 * accepts exactly the specs a node can load (schema, semantic checks, XQuery compilation, all
 * bounded in size and time). Errors become {@link SpecProblem}s with their positions; warnings do
 * not refuse a spec and are not reported.
 *
 * <p>Thread-safe. Close it to stop the query engine of a loader it created.
 */
public final class MessageStoreSpecCheck implements SpecCheck, AutoCloseable {

    private static final String SOURCE = "upload";

    private final SpecLoader loader;
    private final boolean ownsLoader;

    /**
     * A check with its own loader whose size bound matches the server's.
     *
     * @param maxSpecBytes the server's {@link SpecServerLimits#maxSpecBytes()}
     */
    public MessageStoreSpecCheck(int maxSpecBytes) {
        this(new SpecLoader(SpecLimits.DEFAULTS.withMaxBytes(maxSpecBytes)), true);
    }

    /**
     * A check sharing a loader, which stays open when this check is closed.
     *
     * @param loader the loader
     */
    public MessageStoreSpecCheck(SpecLoader loader) {
        this(loader, false);
    }

    private MessageStoreSpecCheck(SpecLoader loader, boolean ownsLoader) {
        this.loader = Objects.requireNonNull(loader, "loader");
        this.ownsLoader = ownsLoader;
    }

    @Override
    public Validated check(byte[] document) {
        try {
            ServiceSpec spec = loader.load(document, SOURCE);
            ServiceMetadata service = spec.service();
            return new Validated.Valid(new SpecMetadata(service.serviceId(), service.name(),
                    service.scope().label(), service.promises().stream().map(Promise::label).toList()));
        } catch (SpecException e) {
            List<Problem> errors = e.problems().stream().filter(Problem::isError).toList();
            List<SpecProblem> problems = (errors.isEmpty() ? e.problems() : errors).stream()
                    .map(p -> new SpecProblem(p.line(), p.column(), p.message()))
                    .toList();
            return new Validated.Invalid(problems.isEmpty() ? List.of(SpecProblem.unlocated(e.getMessage())) : problems);
        }
    }

    /** Closes the loader if this check created it. */
    @Override
    public void close() {
        if (ownsLoader) {
            loader.close();
        }
    }
}
