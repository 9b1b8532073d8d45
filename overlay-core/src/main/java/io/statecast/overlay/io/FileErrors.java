package io.statecast.overlay.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Why a file cannot be read, in the words a user expects ("no such file", "permission denied"),
 * for every command and loader that reads a file the user named. The JDK's exceptions carry the
 * cause in their type and the path as their message, so printing the message alone says
 * "X: cannot read: X" whatever went wrong.
 */
public final class FileErrors {

    private FileErrors() {
    }

    /**
     * The cause of {@code e} without the path: "no such file", "permission denied", "is a
     * directory", "not a directory", else the reason the file system gave, else the message.
     *
     * @param e what reading threw
     * @return a short lower-case phrase
     */
    public static String describe(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason().toLowerCase(Locale.ROOT);
        }
        String m = e.getMessage();
        if (m == null) {
            return e.getClass().getSimpleName();
        }
        // Files.newInputStream on a directory fails on the first read with "Is a directory".
        return m.toLowerCase(Locale.ROOT).equals("is a directory") ? "is a directory" : m;
    }

    /**
     * Whether {@code file} can be opened for reading as a regular file, checked before any work
     * starts so a command can refuse its input up front.
     *
     * @param file a path the user named
     * @return the reason it cannot be read, or empty when it can
     */
    public static Optional<String> unreadable(Path file) {
        if (!Files.exists(file)) {
            return Optional.of("no such file");
        }
        if (Files.isDirectory(file)) {
            return Optional.of("is a directory");
        }
        if (!Files.isReadable(file)) {
            return Optional.of("permission denied");
        }
        return Optional.empty();
    }
}
