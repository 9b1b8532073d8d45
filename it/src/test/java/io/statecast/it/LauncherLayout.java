package io.statecast.it;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * A copy of the repository's {@code bin/statecast} in a directory laid out the way the script
 * expects ({@code examples/target/statecast.jar} plus {@code examples/target/lib/*.jar}), filled
 * from this JVM's class path: so the real launcher script runs against the classes under test,
 * whether or not the build has packaged the examples module yet.
 */
final class LauncherLayout {

    private LauncherLayout() {
    }

    /** The repository root: the parent of the {@code it} module's directory. */
    static Path repositoryRoot() {
        Path basedir = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
        Path root = basedir.getParent();
        if (root == null || !Files.isRegularFile(root.resolve("bin/statecast"))) {
            throw new IllegalStateException("cannot find bin/statecast above " + basedir);
        }
        return root;
    }

    /**
     * Builds the layout under {@code dir} and returns the script to run. Jars on the class path are
     * hard-linked (or copied where links are not allowed, such as across file systems),
     * directories are packed into jars.
     */
    static Path create(Path dir) {
        try {
            Path bin = Files.createDirectories(dir.resolve("bin"));
            Path script = bin.resolve("statecast");
            Files.copy(repositoryRoot().resolve("bin/statecast"), script);
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
            Path target = Files.createDirectories(dir.resolve("examples/target"));
            Path lib = Files.createDirectories(target.resolve("lib"));
            pack(null, target.resolve("statecast.jar"));
            List<String> entries = List.of(System.getProperty("java.class.path").split(File.pathSeparator));
            for (int i = 0; i < entries.size(); i++) {
                Path entry = Path.of(entries.get(i));
                Path jar = lib.resolve(i + "-" + entry.getFileName() + (Files.isDirectory(entry) ? ".jar" : ""));
                if (Files.isDirectory(entry)) {
                    pack(entry, jar);
                } else if (Files.isRegularFile(entry)) {
                    // a hard link, not a symbolic one: JUnit warns for every symbolic link out of a
                    // temporary directory it deletes, and a hard link is an ordinary file to it
                    try {
                        Files.createLink(jar, entry.toAbsolutePath());
                    } catch (UnsupportedOperationException | IOException e) {
                        Files.copy(entry, jar);
                    }
                }
            }
            return script;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lay out the launcher under " + dir, e);
        }
    }

    /** A jar of the files under {@code root} (an empty jar for {@code null}). */
    private static void pack(Path root, Path jar) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
            if (root == null) {
                return;
            }
            List<Path> files;
            try (Stream<Path> walk = Files.walk(root)) {
                files = walk.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path f : files) {
                String name = root.relativize(f).toString().replace(File.separatorChar, '/');
                if (name.equals("META-INF/MANIFEST.MF")) {
                    continue;
                }
                out.putNextEntry(new JarEntry(name));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
    }
}
