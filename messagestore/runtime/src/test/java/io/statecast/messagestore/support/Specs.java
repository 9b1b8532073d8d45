package io.statecast.messagestore.support;

import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLoader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Loads test specs from the test class path with one shared loader. */
public final class Specs {

    private static final SpecLoader LOADER = new SpecLoader();

    private Specs() {
    }

    /** The shared loader (its query engine compiled every spec loaded here). */
    public static SpecLoader loader() {
        return LOADER;
    }

    /** Bytes of a test resource. */
    public static byte[] bytes(String resource) {
        try (InputStream in = Specs.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException(resource + " is not on the test class path");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Loads a spec resource. */
    public static ServiceSpec load(String resource) {
        try {
            return LOADER.load(bytes(resource), resource);
        } catch (SpecException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Loads a spec from text. */
    public static ServiceSpec parse(String text) throws SpecException {
        return LOADER.load(text.getBytes(java.nio.charset.StandardCharsets.UTF_8), "inline");
    }
}
