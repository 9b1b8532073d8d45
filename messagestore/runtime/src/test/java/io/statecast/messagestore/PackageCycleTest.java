package io.statecast.messagestore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.deploy.ServiceHost;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The root package {@code io.statecast.messagestore} (the store, its shards, its settings) uses
 * {@code io.statecast.messagestore.deploy} (registry, spec sources, unknown-service handling), and
 * never the other way round: no class of {@code deploy} names a class of the root package. Checked
 * on the compiled classes — their constant pools name every class they use, however it was written
 * in the source — and on the sources, imports and fully qualified names alike.
 */
class PackageCycleTest {

    /** A class of the root package, as a class file or a source names it. */
    private static final Pattern ROOT_CLASS_IN_BYTECODE = Pattern.compile("io/statecast/messagestore/([A-Z][\\w$]*)");
    private static final Pattern ROOT_CLASS_IN_SOURCE = Pattern.compile("io\\.statecast\\.messagestore\\.([A-Z]\\w*)");
    private static final Pattern DEPLOY_CLASS_IN_BYTECODE = Pattern.compile("io/statecast/messagestore/deploy/([A-Z][\\w$]*)");

    @Test
    void deployClassesShouldNameNoClassOfTheRootPackage() throws Exception {
        List<Path> deploy = classFiles(classesRoot().resolve("io/statecast/messagestore/deploy"));
        assertTrue(deploy.size() >= 20, "the deploy package's classes were found: " + deploy);
        assertEquals(Set.of(), names(deploy, ROOT_CLASS_IN_BYTECODE), "root-package classes named in deploy's class files");
    }

    @Test
    void theScanShouldSeeTheRootPackageUsingDeploy() throws Exception {
        // the other direction exists, so the scan of the constant pools does find references
        List<Path> root = List.of(classesRoot().resolve("io/statecast/messagestore/MessageStore.class"));
        Set<String> used = names(root, DEPLOY_CLASS_IN_BYTECODE);
        assertTrue(used.contains("ServiceRegistry") && used.contains("ServiceHost"),
                "MessageStore's class file names deploy classes: " + used);
    }

    @Test
    void deploySourcesShouldImportNoClassOfTheRootPackage() throws IOException {
        Path dir = Path.of("src/main/java/io/statecast/messagestore/deploy");
        assertTrue(Files.isDirectory(dir), dir.toAbsolutePath() + " (the test runs in the module's directory)");
        Set<String> found = new TreeSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = ROOT_CLASS_IN_SOURCE.matcher(Files.readString(f));
                while (m.find()) {
                    found.add(f.getFileName() + ": " + m.group());
                }
            }
        }
        assertEquals(Set.of(), found, "root-package classes named in deploy's sources");
        assertTrue(ROOT_CLASS_IN_SOURCE.matcher("import io.statecast.messagestore.MessageStore;").find(),
                "the source pattern matches an import of the root package");
    }

    private static Path classesRoot() throws URISyntaxException {
        return Path.of(ServiceHost.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static List<Path> classFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".class")).sorted().collect(Collectors.toList());
        }
    }

    /** The class names {@code pattern} finds in the files' bytes (constant-pool strings are plain in ISO-8859-1). */
    private static Set<String> names(List<Path> files, Pattern pattern) throws IOException {
        Set<String> out = new TreeSet<>();
        for (Path f : files) {
            Matcher m = pattern.matcher(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }
}
