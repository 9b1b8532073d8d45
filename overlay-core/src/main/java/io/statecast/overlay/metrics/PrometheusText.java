package io.statecast.overlay.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A strict reader of the Prometheus text exposition format (0.0.4): {@code # TYPE} and
 * {@code # HELP} lines, and samples {@code name{label="value",…} value [timestamp]}. Anything else
 * is an error naming the line. Used by {@code statecast probe} and the tests; the caller bounds
 * the text's size.
 */
public final class PrometheusText {

    /** A malformed exposition. */
    public static final class FormatException extends Exception {
        private static final long serialVersionUID = 1L;

        FormatException(int line, String message) {
            super("line " + line + ": " + message);
        }
    }

    /**
     * One sample.
     *
     * @param name   the metric name (with its {@code _total}, {@code _count}, … suffix)
     * @param labels its labels, sorted by name
     * @param value  its value
     */
    public record Sample(String name, SortedMap<String, String> labels, double value) {
        /** Freezes the labels. */
        public Sample {
            labels = Collections.unmodifiableSortedMap(new TreeMap<>(labels));
        }

        /** {@code name{a="x",b="y"}} (no labels: {@code name}), the labels sorted. */
        public String key() {
            if (labels.isEmpty()) {
                return name;
            }
            StringBuilder b = new StringBuilder(name).append('{');
            labels.forEach((k, v) -> b.append(k).append("=\"").append(v).append("\","));
            b.setLength(b.length() - 1);
            return b.append('}').toString();
        }
    }

    /**
     * A parsed exposition.
     *
     * @param types   {@code # TYPE} by metric family, in order
     * @param samples every sample, in order
     */
    public record Exposition(Map<String, String> types, List<Sample> samples) {
        /** Freezes both. */
        public Exposition {
            types = Collections.unmodifiableMap(new LinkedHashMap<>(types));
            samples = List.copyOf(samples);
        }

        /** The samples named {@code name}. */
        public List<Sample> named(String name) {
            return samples.stream().filter(s -> s.name().equals(name)).toList();
        }
    }

    private PrometheusText() {
    }

    /** Parses {@code text}. */
    public static Exposition parse(String text) throws FormatException {
        Map<String, String> types = new LinkedHashMap<>();
        List<Sample> samples = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int n = i + 1;
            if (line.isBlank()) {
                continue;
            }
            if (line.startsWith("#")) {
                String[] parts = line.split(" ", 4);
                if (parts.length >= 2 && parts[1].equals("TYPE")) {
                    if (parts.length != 4 || !validName(parts[2])) {
                        throw new FormatException(n, "malformed TYPE line");
                    }
                    types.put(parts[2], parts[3].trim());
                }
                continue; // HELP and other comments
            }
            samples.add(sample(line, n));
        }
        return new Exposition(types, samples);
    }

    private static Sample sample(String line, int n) throws FormatException {
        int i = 0;
        int len = line.length();
        while (i < len && nameChar(line.charAt(i), i == 0)) {
            i++;
        }
        if (i == 0) {
            throw new FormatException(n, "expected a metric name");
        }
        String name = line.substring(0, i);
        SortedMap<String, String> labels = new TreeMap<>();
        if (i < len && line.charAt(i) == '{') {
            i++;
            while (true) {
                if (i < len && line.charAt(i) == '}') {
                    i++;
                    break;
                }
                int start = i;
                while (i < len && nameChar(line.charAt(i), i == start)) {
                    i++;
                }
                if (i == start || i + 1 >= len || line.charAt(i) != '=' || line.charAt(i + 1) != '"') {
                    throw new FormatException(n, "malformed label of " + name);
                }
                String key = line.substring(start, i);
                i += 2;
                StringBuilder v = new StringBuilder();
                while (true) {
                    if (i >= len) {
                        throw new FormatException(n, "unterminated label value of " + name);
                    }
                    char c = line.charAt(i++);
                    if (c == '"') {
                        break;
                    }
                    if (c == '\\') {
                        if (i >= len) {
                            throw new FormatException(n, "unterminated escape in a label of " + name);
                        }
                        char e = line.charAt(i++);
                        v.append(switch (e) {
                            case 'n' -> '\n';
                            case '\\' -> '\\';
                            case '"' -> '"';
                            default -> throw new FormatException(n, "bad escape \\" + e + " in a label of " + name);
                        });
                    } else {
                        v.append(c);
                    }
                }
                if (labels.put(key, v.toString()) != null) {
                    throw new FormatException(n, "duplicate label " + key + " of " + name);
                }
                if (i < len && line.charAt(i) == ',') {
                    i++;
                } else if (i >= len || line.charAt(i) != '}') {
                    throw new FormatException(n, "expected , or } after a label of " + name);
                }
            }
        }
        if (i >= len || line.charAt(i) != ' ') {
            throw new FormatException(n, "expected a space before the value of " + name);
        }
        String[] rest = line.substring(i + 1).trim().split(" +");
        if (rest.length < 1 || rest.length > 2) {
            throw new FormatException(n, "expected a value (and an optional timestamp) for " + name);
        }
        double value;
        try {
            value = switch (rest[0]) {
                case "+Inf" -> Double.POSITIVE_INFINITY;
                case "-Inf" -> Double.NEGATIVE_INFINITY;
                case "NaN" -> Double.NaN;
                default -> Double.parseDouble(rest[0]);
            };
            if (rest.length == 2) {
                Long.parseLong(rest[1]);
            }
        } catch (NumberFormatException e) {
            throw new FormatException(n, "not a number in the sample of " + name + ": " + line.substring(i + 1).trim());
        }
        return new Sample(name, labels, value);
    }

    private static boolean validName(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!nameChar(s.charAt(i), i == 0)) {
                return false;
            }
        }
        return true;
    }

    private static boolean nameChar(char c, boolean first) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || !first && c >= '0' && c <= '9';
    }
}
