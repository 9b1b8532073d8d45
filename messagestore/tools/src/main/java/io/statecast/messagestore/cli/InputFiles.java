package io.statecast.messagestore.cli;

import io.statecast.overlay.io.FileErrors;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;

/**
 * The check every {@code spec} command makes before it starts: each file the user named can be
 * read. One that cannot is bad input (exit status 2) and is named with its cause; a file that can
 * be read but holds a broken spec is the work failing (exit status 1), reported by the command.
 */
final class InputFiles {

    private InputFiles() {
    }

    /**
     * Prints {@code FILE: error: CAUSE} to {@code err} for each unreadable file.
     *
     * @return {@link CommandLine.ExitCode#USAGE} when any file cannot be read, else {@code null}
     */
    static Integer refuseUnreadable(List<Path> files, PrintWriter err) {
        boolean refused = false;
        for (Path f : files) {
            Optional<String> why = FileErrors.unreadable(f);
            if (why.isPresent()) {
                err.println(f + ": error: " + why.get());
                refused = true;
            }
        }
        err.flush();
        return refused ? CommandLine.ExitCode.USAGE : null;
    }
}
