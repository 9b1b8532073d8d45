package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads test resources and the small index files that list expected problems. */
final class TestResources {

    private TestResources() {
    }

    static byte[] bytes(String resource) {
        try (InputStream in = TestResources.class.getClassLoader().getResourceAsStream(resource)) {
            assertNotNull(in, resource + " is on the test classpath");
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path path(String resource) {
        URL url = TestResources.class.getClassLoader().getResource(resource);
        assertNotNull(url, resource + " is on the test classpath");
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Lines of an index file split at '|', trimmed; comments and blank lines skipped. */
    static List<String[]> index(String resource) {
        List<String[]> rows = new ArrayList<>();
        for (String line : new String(bytes(resource), StandardCharsets.UTF_8).split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] cols = line.split("\\|", -1);
            for (int i = 0; i < cols.length; i++) {
                cols[i] = cols[i].strip();
            }
            rows.add(cols);
        }
        return rows;
    }
}
