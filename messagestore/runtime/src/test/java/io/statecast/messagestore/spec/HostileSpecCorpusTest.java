package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every file in {@code hostile/} is refused with the message its line in
 * {@code hostile/expected.txt} names, and nothing but {@link SpecException} escapes the loader.
 */
class HostileSpecCorpusTest {

    private static SpecLoader loader;

    @BeforeAll
    static void start() {
        loader = new SpecLoader();
    }

    @AfterAll
    static void stop() {
        loader.close();
    }

    private static Map<String, String> expectations() {
        Map<String, String> m = new TreeMap<>();
        for (String[] row : TestResources.index("hostile/expected.txt")) {
            assertEquals(2, row.length, "index row " + String.join("|", row));
            m.put(row[0], row[1]);
        }
        return m;
    }

    @Test
    void shouldListEveryCorpusFileInTheIndex() throws IOException {
        Path dir = TestResources.path("hostile/expected.txt").getParent();
        TreeSet<String> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".scxml"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertTrue(files.size() >= 30, "corpus has " + files.size() + " files");
        assertEquals(files, new TreeSet<>(expectations().keySet()), "files vs. index");
    }

    @Test
    void shouldRefuseEveryHostileSpecWithAClearMessage() {
        StringBuilder failures = new StringBuilder();
        for (Map.Entry<String, String> e : expectations().entrySet()) {
            String file = e.getKey();
            byte[] bytes = TestResources.bytes("hostile/" + file);
            try {
                loader.load(bytes, file);
                failures.append(file).append(": loaded, but must be refused\n");
            } catch (SpecException refused) {
                List<Problem> problems = refused.problems();
                boolean found = problems.stream().anyMatch(p -> p.isError() && p.message().contains(e.getValue()));
                if (!found) {
                    failures.append(file).append(": no error containing '").append(e.getValue()).append("' in ")
                            .append(problems).append('\n');
                }
                assertNotNull(refused.getMessage());
            } catch (Throwable t) {
                failures.append(file).append(": escaped with ").append(t).append('\n');
            }
            // validate() never throws and agrees.
            try {
                List<Problem> problems = loader.validate(bytes, file);
                if (problems.stream().noneMatch(Problem::isError)) {
                    failures.append(file).append(": validate() found no error\n");
                }
            } catch (Throwable t) {
                failures.append(file).append(": validate() escaped with ").append(t).append('\n');
            }
        }
        if (failures.length() > 0) {
            fail(failures.toString());
        }
    }

    @Test
    void shouldNotReadTheFileAnXxeSpecNames() throws Exception {
        SpecException e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class,
                () -> loader.load(TestResources.bytes("hostile/xxe-file.scxml"), "xxe"));
        assertTrue(e.problems().stream().noneMatch(p -> p.message().contains("root:")), e.problems().toString());
    }
}
