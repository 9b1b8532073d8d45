package io.statecast.specserver;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * HTTP entity tags (RFC 9110 §8.8.3) and the {@code If-Match} / {@code If-None-Match} conditions.
 *
 * <p>The server's tags are strong: the quoted lower-case hex SHA-256 of the document. A header
 * value is a comma-separated list of tags ({@code "abc"}, {@code W/"abc"}) or {@code *};
 * anything that does not parse as a tag is ignored, so it never matches.
 */
final class EntityTags {

    private EntityTags() {
    }

    /**
     * @param sha256Hex the document hash
     * @return its entity tag
     */
    static String of(String sha256Hex) {
        return '"' + sha256Hex + '"';
    }

    /**
     * A parsed conditional header.
     *
     * @param any the value was {@code *}
     * @param tags the tags listed, each with its quotes and without a {@code W/} prefix
     * @param weak for each tag, whether it was weak
     */
    record Condition(boolean any, List<String> tags, List<Boolean> weak) {

        /**
         * Strong comparison, as {@code If-Match} requires.
         *
         * @param current the current tag, or empty when the resource does not exist
         * @return whether the condition holds
         */
        boolean matchesStrong(Optional<String> current) {
            if (current.isEmpty()) {
                return false;
            }
            if (any) {
                return true;
            }
            for (int i = 0; i < tags.size(); i++) {
                if (!weak.get(i) && tags.get(i).equals(current.get())) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Weak comparison, as {@code If-None-Match} requires.
         *
         * @param current the current tag, or empty when the resource does not exist
         * @return whether any listed tag (or {@code *}) matches the current one
         */
        boolean matchesWeak(Optional<String> current) {
            if (current.isEmpty()) {
                return false;
            }
            return any || tags.contains(current.get());
        }
    }

    /**
     * Parses a header value.
     *
     * @param header the value, or null when the header is absent
     * @return the condition, or empty when the header is absent
     */
    static Optional<Condition> parse(String header) {
        if (header == null) {
            return Optional.empty();
        }
        String value = header.strip();
        if (value.equals("*")) {
            return Optional.of(new Condition(true, List.of(), List.of()));
        }
        List<String> tags = new ArrayList<>();
        List<Boolean> weak = new ArrayList<>();
        int i = 0;
        int n = value.length();
        while (i < n) {
            while (i < n && (value.charAt(i) == ' ' || value.charAt(i) == '\t' || value.charAt(i) == ',')) {
                i++;
            }
            if (i >= n) {
                break;
            }
            boolean isWeak = false;
            if (value.startsWith("W/", i)) {
                isWeak = true;
                i += 2;
            }
            if (i >= n || value.charAt(i) != '"') {
                // Not a tag: skip to the next comma so one bad element does not hide the others.
                int comma = value.indexOf(',', i);
                i = comma < 0 ? n : comma + 1;
                continue;
            }
            int close = value.indexOf('"', i + 1);
            if (close < 0) {
                break;
            }
            tags.add(value.substring(i, close + 1));
            weak.add(isWeak);
            i = close + 1;
        }
        return Optional.of(new Condition(false, List.copyOf(tags), List.copyOf(weak)));
    }
}
