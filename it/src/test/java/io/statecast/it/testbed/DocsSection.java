package io.statecast.it.testbed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The block of a Markdown document the runner owns ({@code --docs}): everything between
 * {@link #BEGIN} and {@link #END}, each on a line of its own, is replaced by the latest results;
 * the rest of the document, the curated write-ups around it, is kept byte for byte.
 */
final class DocsSection {

    static final String BEGIN = "<!-- testbed-results:begin (written by TestbedRunner --docs; edits here are replaced) -->";
    static final String END = "<!-- testbed-results:end -->";

    private DocsSection() {
    }

    /**
     * {@code document} with the block between the markers replaced by {@code section}.
     *
     * @throws IllegalArgumentException naming {@code what} if a marker is missing, repeated or out of order
     */
    static String splice(String document, String section, String what) {
        int begin = only(document, BEGIN, what);
        int end = only(document, END, what);
        if (end < begin) {
            throw new IllegalArgumentException(what + ": the end marker comes before the begin marker");
        }
        int from = begin + BEGIN.length();
        String body = section.endsWith("\n") ? section : section + "\n";
        return document.substring(0, from) + "\n\n" + body + "\n" + document.substring(end);
    }

    private static int only(String document, String marker, String what) {
        int at = document.indexOf(marker);
        if (at < 0) {
            throw new IllegalArgumentException(what + " has no line " + marker + ": add the two markers where the results belong");
        }
        if (document.indexOf(marker, at + marker.length()) >= 0) {
            throw new IllegalArgumentException(what + " has " + marker + " more than once");
        }
        return at;
    }

    /** {@code markdown} with every heading one level deeper, to sit under the document's own. */
    static String demoted(String markdown) {
        return markdown.replaceAll("(?m)^(#{1,5}) ", "$1# ");
    }

    /** Replaces the block in {@code file}; a reader sees the old file or the new one, never a half-written one. */
    static void update(Path file, String section) throws IOException {
        String document = Files.readString(file, StandardCharsets.UTF_8);
        String updated = splice(document, section, file.toString());
        Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), ".testbed-results", ".md");
        try {
            Files.writeString(tmp, updated, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
