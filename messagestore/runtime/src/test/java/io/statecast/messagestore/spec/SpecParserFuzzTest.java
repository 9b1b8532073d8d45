package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Mutational fuzzing of the spec loader: seeded mutations of the valid specs in {@code specs/} and
 * of the hostile corpus in {@code hostile/} (byte flips, truncations, splices of lines from other
 * files, attribute and text values replaced by hostile strings). Whatever the input, the loader
 * either returns a spec or throws {@link SpecException} whose problems each name a line and a one-line
 * message; {@link SpecLoader#validate} never throws and finds an error exactly when {@code load}
 * refuses. The run is bounded by {@code statecast.fuzz.specCases} (1,500 by default, 1,000,000 under
 * {@code -Psoak}) and by {@code statecast.fuzz.seconds} (20 by default) of wall time, whichever
 * comes first: a slow shared machine runs fewer cases, never a longer build.
 */
class SpecParserFuzzTest {

    private static final String[] HOSTILE_VALUES = {
        "", "'", "\"", "<", "&amp;", "&undefined;", "]]>", "<![CDATA[", "-1", "9223372036854775808",
        "1e309", "NaN", "doc('file:///etc/passwd')", "unparsed-text('/etc/hosts')", "collection()",
        "$_x?rtt?*", "(1 to 1000000000)!string()", "string-join(for $i in 1 to 100000 return 'x')",
        "declare function local:f($n) { local:f($n) }; local:f(1)", "/HistoryOfEvents/Event[",
        "\u0000", "\uFFFF", "\uD800", "x".repeat(70_000), "init", "end", "*", "#_internal", "error.execution",
    };

    private static SpecLoader loader;
    private static final TreeMap<String, byte[]> corpus = new TreeMap<>();

    private final long seed = Long.getLong("statecast.seed", System.nanoTime());
    private final int cases = Integer.getInteger("statecast.fuzz.specCases", 1_500);
    private final long seconds = Long.getLong("statecast.fuzz.seconds", 20);

    @BeforeAll
    static void start() throws IOException {
        loader = new SpecLoader();
        for (String probe : List.of("specs/minimal.scxml", "hostile/expected.txt")) {
            Path root = TestResources.path(probe).getParent();
            String dir = root.getFileName().toString();
            try (Stream<Path> files = Files.list(root)) {
                for (Path p : files.filter(f -> f.toString().endsWith(".scxml")).sorted().toList()) {
                    corpus.put(dir + "/" + p.getFileName(), Files.readAllBytes(p));
                }
            }
        }
    }

    @AfterAll
    static void stop() {
        loader.close();
    }

    @Test
    void shouldOnlyLoadOrRefuseWithLineNumberedOneLineProblems() {
        assertTrue(corpus.size() >= 40, "corpus has " + corpus.size() + " files");
        SplittableRandom random = new SplittableRandom(seed);
        List<byte[]> inputs = new ArrayList<>(corpus.values());
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        int loaded = 0;
        int refused = 0;
        int i = 0;
        for (; i < cases && System.nanoTime() < deadline; i++) {
            byte[] base = inputs.get(random.nextInt(inputs.size()));
            byte[] input = mutate(base, inputs, random);
            String where = "seed=" + seed + " (rerun with -Dstatecast.seed=" + seed + "), case #" + i;
            boolean ok;
            try {
                loader.load(input, "fuzz.scxml");
                ok = true;
                loaded++;
            } catch (SpecException e) {
                ok = false;
                refused++;
                assertFalse(e.problems().isEmpty(), "a refusal names a problem, " + where);
                for (Problem p : e.problems()) {
                    assertFalse(p.message().isBlank(), "empty problem, " + where);
                    assertTrue(p.line() >= 0, "line " + p.line() + ", " + where);
                    assertFalse(p.format("fuzz.scxml").contains("\n"), "one line: " + p + ", " + where);
                }
            } catch (Throwable t) {
                fail("load threw something other than SpecException, " + where + ":\n"
                        + new String(input, StandardCharsets.UTF_8), t);
                return;
            }
            List<Problem> problems;
            try {
                problems = loader.validate(input, "fuzz.scxml");
            } catch (Throwable t) {
                fail("validate threw, " + where, t);
                return;
            }
            assertEquals(!ok, problems.stream().anyMatch(Problem::isError),
                    "validate and load disagree: " + problems + ", " + where);
        }
        System.out.println("spec fuzz: " + i + " cases (" + loaded + " loaded, " + refused + " refused), seed=" + seed);
        // a fuzzer that never gets past the parser is not testing the checks behind it
        assertTrue(i < 200 || loaded > 0, "no mutated spec loaded in " + i + " cases, seed=" + seed);
        assertTrue(i < 200 || refused > i / 10, "only " + refused + " of " + i + " refused, seed=" + seed);
    }

    private static byte[] mutate(byte[] base, List<byte[]> others, SplittableRandom random) {
        // mostly one mutation, so that many inputs get past the XML parser to the checks behind it
        int rounds = random.nextInt(4) == 0 ? 2 + random.nextInt(2) : 1;
        byte[] out = base;
        for (int r = 0; r < rounds; r++) {
            out = switch (random.nextInt(6)) {
                case 0 -> flipBytes(out, random);
                case 1 -> truncate(out, random);
                case 2 -> spliceLine(out, others.get(random.nextInt(others.size())), random);
                case 3 -> dropOrRepeatLine(out, random);
                case 4 -> replaceQuoted(out, random);
                default -> replaceText(out, random);
            };
        }
        return out;
    }

    private static byte[] flipBytes(byte[] in, SplittableRandom random) {
        byte[] out = in.clone();
        int n = 1 + random.nextInt(4);
        for (int i = 0; i < n && out.length > 0; i++) {
            out[random.nextInt(out.length)] ^= (byte) random.nextInt(1, 256);
        }
        return out;
    }

    private static byte[] truncate(byte[] in, SplittableRandom random) {
        return in.length == 0 ? in : java.util.Arrays.copyOf(in, random.nextInt(in.length));
    }

    private static List<String> lines(byte[] in) {
        return new ArrayList<>(List.of(new String(in, StandardCharsets.UTF_8).split("\n", -1)));
    }

    private static byte[] join(List<String> lines) {
        return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] spliceLine(byte[] in, byte[] other, SplittableRandom random) {
        List<String> a = lines(in);
        List<String> b = lines(other);
        a.add(random.nextInt(a.size() + 1), b.get(random.nextInt(b.size())));
        return join(a);
    }

    private static byte[] dropOrRepeatLine(byte[] in, SplittableRandom random) {
        List<String> a = lines(in);
        int at = random.nextInt(a.size());
        if (random.nextBoolean()) {
            a.remove(at);
        } else {
            a.add(at, a.get(at));
        }
        return join(a);
    }

    /** Replaces one attribute value ("...") with a hostile string. */
    private static byte[] replaceQuoted(byte[] in, SplittableRandom random) {
        String s = new String(in, StandardCharsets.UTF_8);
        List<int[]> spans = new ArrayList<>();
        for (int i = s.indexOf("=\""); i >= 0 && spans.size() < 512; i = s.indexOf("=\"", i + 2)) {
            int end = s.indexOf('"', i + 2);
            if (end < 0) {
                break;
            }
            spans.add(new int[] {i + 2, end});
        }
        if (spans.isEmpty()) {
            return in;
        }
        int[] span = spans.get(random.nextInt(spans.size()));
        String value = HOSTILE_VALUES[random.nextInt(HOSTILE_VALUES.length)].replace("\"", "&quot;");
        return (s.substring(0, span[0]) + value + s.substring(span[1])).getBytes(StandardCharsets.UTF_8);
    }

    /** Replaces the text between one '>' and the next '<' with a hostile string. */
    private static byte[] replaceText(byte[] in, SplittableRandom random) {
        String s = new String(in, StandardCharsets.UTF_8);
        if (s.isEmpty()) {
            return in;
        }
        int from = s.indexOf('>', random.nextInt(s.length()));
        int to = from < 0 ? -1 : s.indexOf('<', from);
        if (to < 0) {
            return in;
        }
        String value = HOSTILE_VALUES[random.nextInt(HOSTILE_VALUES.length)];
        if (random.nextBoolean()) {
            value = "<![CDATA[" + value.replace("]]>", "") + "]]>";
        }
        return (s.substring(0, from + 1) + value + s.substring(to)).getBytes(StandardCharsets.UTF_8);
    }
}
