package io.statecast.examples.demo;

import io.statecast.messagestore.deploy.ClasspathSpecSource;
import io.statecast.messagestore.deploy.FileSpecSource;
import io.statecast.specserver.SpecCheck;
import io.statecast.specserver.SpecProblem;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The service the demo sends with, read and checked before anything starts.
 *
 * @param label      what the user named ({@code h2h-ack}, a path, a URI, {@code none})
 * @param uri        where node 1 loads it from ({@code classpath:} or {@code file:}); {@code null} for none
 * @param document   the spec's bytes, published to the spec server; {@code null} for none
 * @param serviceId  its ServiceID; {@code null} for none
 * @param name       its ServiceName; {@code null} for none
 * @param promises   what the spec promises its applications ({@code <Promises>}: {@link #EVERY_MESSAGE},
 *                   {@link #NO_DUPLICATES}, {@code source-order}); empty for best effort and for {@code none}
 */
record DemoService(String label, URI uri, byte[] document, Integer serviceId, String name, List<String> promises) {

    /** The promise the demo checks by counting missing deliveries. */
    static final String EVERY_MESSAGE = "every-message";
    /** The promise the demo checks by counting duplicate deliveries. */
    static final String NO_DUPLICATES = "no-duplicates";

    /** Copies the promises. */
    DemoService {
        promises = List.copyOf(promises);
    }

    /** The service {@code bin/statecast demo} uses when none is named. */
    static final String DEFAULT = "h2h-ack";

    /** Where the services module keeps its specs on the class path. */
    static final String CLASSPATH_DIR = "services/";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    /** A URI scheme of two or more characters (so that no path is taken for one). */
    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]+:");

    /** Best-effort delivery: no MessageStore service at all. */
    static DemoService none() {
        return new DemoService("none", null, null, null, null, List.of());
    }

    /**
     * Resolves {@code text}: {@code none}; a URI with a scheme ({@code classpath:}, {@code file:});
     * a path ending in {@code .scxml}; or a name of the services module ({@code h2h-ack} is
     * {@code classpath:services/h2h-ack.scxml}).
     *
     * @param check      validates the document as the spec server will
     * @param maxBytes   largest document read
     * @throws DemoException naming the service if it cannot be read or is not a valid spec
     */
    static DemoService resolve(String text, SpecCheck check, int maxBytes) throws DemoException {
        String t = text.trim();
        if (t.equalsIgnoreCase("none")) {
            return none();
        }
        URI uri = uriOf(t);
        byte[] doc;
        try {
            doc = switch (uri.getScheme().toLowerCase(Locale.ROOT)) {
                case "classpath" -> new ClasspathSpecSource(DemoService.class.getClassLoader()).read(uri, maxBytes);
                case "file" -> new FileSpecSource().read(uri, maxBytes);
                default -> throw new DemoException("--service=" + text + ": only classpath: and file: specs can be published "
                        + "by the demo, not " + uri.getScheme() + ":");
            };
        } catch (IOException e) {
            throw new DemoException("--service=" + text + ": cannot read " + uri + ": " + e.getMessage(), e);
        }
        SpecCheck.Validated v = check.check(doc);
        if (v instanceof SpecCheck.Validated.Invalid bad) {
            throw new DemoException("--service=" + text + ": " + uri + " is not a valid service spec: " + bad.problems().stream()
                    .limit(5).map(SpecProblem::toString).collect(Collectors.joining("; ")));
        }
        var meta = ((SpecCheck.Validated.Valid) v).metadata();
        return new DemoService(t, uri, doc, meta.serviceId(), meta.name(), meta.promises());
    }

    private static URI uriOf(String t) throws DemoException {
        if (SCHEME.matcher(t).lookingAt()) {
            try {
                return new URI(t);
            } catch (URISyntaxException e) {
                throw new DemoException("--service=" + t + " is not a URI: " + e.getMessage(), e);
            }
        }
        if (t.endsWith(".scxml") || t.contains("/")) {
            return Path.of(t).toAbsolutePath().normalize().toUri();
        }
        if (!NAME.matcher(t).matches()) {
            throw new DemoException("--service=" + t + " is neither a service name (letters, digits, '.', '_', '-'), a .scxml "
                    + "path, a classpath:/file: URI nor 'none'");
        }
        return URI.create("classpath:" + CLASSPATH_DIR + t + ".scxml");
    }

    /** How the table and report name it. */
    String describe() {
        return serviceId == null ? "none (best-effort)" : label + " (" + name + ", ServiceID " + serviceId + ")";
    }
}
