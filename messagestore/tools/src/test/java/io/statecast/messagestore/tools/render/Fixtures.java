package io.statecast.messagestore.tools.render;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLoader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Loads the specs the render tests draw. */
final class Fixtures {

    static final String H2H = "specs/blueprint-h2h.scxml";
    static final String HIERARCHY = "lint/clean-hierarchy.scxml";

    private Fixtures() {
    }

    static String text(String resource) {
        try (InputStream in = Fixtures.class.getClassLoader().getResourceAsStream(resource)) {
            assertNotNull(in, resource);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ServiceSpec load(String resource) {
        return loadText(text(resource), resource);
    }

    static ServiceSpec loadText(String spec, String name) {
        try (SpecLoader loader = new SpecLoader()) {
            return loader.load(spec.getBytes(StandardCharsets.UTF_8), name);
        } catch (SpecException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }
}
