package io.statecast.messagestore.tools.conformance;

import io.statecast.messagestore.chart.Chart;
import io.statecast.messagestore.chart.ChartCompiler;
import io.statecast.messagestore.chart.ChartEvent;
import io.statecast.messagestore.chart.ChartHost;
import io.statecast.messagestore.chart.ChartLimits;
import io.statecast.messagestore.chart.ChartOptions;
import io.statecast.messagestore.chart.Session;
import io.statecast.messagestore.spec.SpecDocuments;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLimits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs the W3C SCXML 1.0 Implementation Report tests (XPath datamodel versions) on the chart
 * engine. A test passes when its session ends in the top-level final state {@code pass}; it fails
 * when it ends in {@code fail}, is refused, stops on a limit or still runs when nothing is left to
 * happen within {@link #VIRTUAL_TIME_LIMIT_MS} of virtual time. Delayed sends run on a virtual
 * clock, so a run takes no real waiting.
 *
 * <p>Excluded, each with its reason: tests that need {@code <invoke>} or an event I/O processor
 * other than the SCXML one to this session (BasicHTTP, {@code #_parent}), tests of
 * {@code <script>} (for datamodels with scripting; XPath has none), and tests the manifest marks
 * manual (their verdict is a person reading the log). A few published tests do not compile as
 * XPath; {@link #ERRATA} corrects them, and their outcome names the correction.
 */
public final class ConformanceRunner {

    /** Virtual time a test may take: longer than any delay the tests use (30 s). */
    static final long VIRTUAL_TIME_LIMIT_MS = 120_000;
    /** Largest {@code <data src>} file read, in bytes. */
    static final int MAX_DATA_FILE_BYTES = 64 * 1024;

    private static final Pattern TEST_FILE = Pattern.compile("test(\\d+)([a-z]?)\\.scxml");
    private static final Pattern MANUAL = Pattern.compile("<test\\s+id=\"(\\d+)\"[^>]*manual=\"true\"");

    /**
     * Corrections to the published XPath versions of a few tests, whose text the W3C's
     * {@code confXPath.xsl} got wrong (it writes XPath that does not compile). Each is applied to
     * the named test only, and its outcome says so.
     */
    record Erratum(String test, String wrong, String right, String why) {
    }

    static final List<Erratum> ERRATA = List.of(
            new Erratum("test288", "cond=\"Var1 = 123\"", "cond=\"$Var1 = 123\"",
                    "confXPath.xsl writes conf:idSomeVal without the '$' of the variable"),
            new Erratum("test354", "[@id=Var'1']", "[@id='Var1']",
                    "confXPath.xsl quotes the id of conf:eventDataNamelistValue inside the name"),
            new Erratum("test354", "cond=\"_event.data = 123\"", "cond=\"$_event/data = 123\"",
                    "confXPath.xsl leaves an ECMAScript condition in the XPath version"),
            new Erratum("test568", "$_ioprocessors/[@name=", "$_ioprocessors/processor[@name=",
                    "confXPath.xsl leaves out the step 'processor' of the SCXML processor's location"),
            new Erratum("test579", "text() ==", "text() =",
                    "confXPath.xsl writes the comparison of conf:idVal as '=='"),
            new Erratum("test580", "text() ==", "text() =",
                    "confXPath.xsl writes the comparison of conf:idVal as '=='"));

    private final ChartCompiler compiler = new ChartCompiler();
    private final SpecLimits limits = SpecLimits.DEFAULTS;

    /** Runs every test in {@code dir} in name order (numerically). */
    public List<TestOutcome> runAll(Path dir) throws IOException {
        List<String> manual = manualTests(dir);
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> TEST_FILE.matcher(p.getFileName().toString()).matches())
                    .sorted((a, b) -> {
                        Matcher ma = TEST_FILE.matcher(a.getFileName().toString());
                        Matcher mb = TEST_FILE.matcher(b.getFileName().toString());
                        ma.matches();
                        mb.matches();
                        int c = Integer.compare(Integer.parseInt(ma.group(1)), Integer.parseInt(mb.group(1)));
                        return c != 0 ? c : ma.group(2).compareTo(mb.group(2));
                    })
                    .toList();
        }
        List<TestOutcome> out = new ArrayList<>();
        for (Path f : files) {
            Matcher m = TEST_FILE.matcher(f.getFileName().toString());
            m.matches();
            String name = f.getFileName().toString().replace(".scxml", "");
            if (manual.contains(m.group(1))) {
                out.add(new TestOutcome(name, TestOutcome.Result.EXCLUDED,
                        "manual: the manifest says its verdict is a person reading the log"));
                continue;
            }
            out.add(run(f));
        }
        return out;
    }

    /** The ids the manifest beside (or above) the directory marks manual; none without one. */
    private static List<String> manualTests(Path dir) throws IOException {
        for (Path p : new Path[] {dir.resolve("manifest.xml"), dir.toAbsolutePath().getParent().resolve("manifest.xml")}) {
            if (p != null && Files.isRegularFile(p)) {
                List<String> ids = new ArrayList<>();
                Matcher m = MANUAL.matcher(Files.readString(p, StandardCharsets.UTF_8));
                while (m.find()) {
                    ids.add(m.group(1));
                }
                return ids;
            }
        }
        return List.of();
    }

    /** Runs one test file. */
    public TestOutcome run(Path file) throws IOException {
        String name = file.getFileName().toString().replace(".scxml", "");
        byte[] bytes = Files.readAllBytes(file);
        String text = new String(bytes, StandardCharsets.UTF_8);
        String exclusion = exclusion(text);
        if (exclusion != null) {
            return new TestOutcome(name, TestOutcome.Result.EXCLUDED, exclusion);
        }
        String erratum = "";
        for (Erratum e : ERRATA) {
            if (e.test().equals(name) && text.contains(e.wrong())) {
                text = text.replace(e.wrong(), e.right());
                erratum = "erratum: " + e.why();
            }
        }
        bytes = text.getBytes(StandardCharsets.UTF_8);
        Chart chart;
        try {
            Path dir = file.toAbsolutePath().getParent();
            ChartOptions options = new ChartOptions(false, src -> readDataFile(dir, src));
            chart = compiler.compile(name, SpecDocuments.read(name, bytes, limits), options);
        } catch (SpecException e) {
            return new TestOutcome(name, TestOutcome.Result.FAILED, "refused: " + e.getMessage());
        }
        VirtualClock clock = new VirtualClock();
        List<String> log = new ArrayList<>();
        ChartHost host = new ChartHost() {
            @Override
            public void log(String label, String value) {
                log.add(label + ": " + value);
            }

            @Override
            public Object schedule(long delayMillis, Runnable task) {
                return clock.schedule(delayMillis, task);
            }

            @Override
            public void cancel(Object handle) {
                clock.cancel(handle);
            }
        };
        Session session = new Session(chart, host, ChartLimits.DEFAULTS, "s" + name);
        try {
            session.start();
            while (session.running()) {
                if (session.hasExternal()) {
                    session.processExternal();
                } else if (!clock.runNext(VIRTUAL_TIME_LIMIT_MS)) {
                    break;
                }
            }
        } catch (RuntimeException e) {
            return new TestOutcome(name, TestOutcome.Result.FAILED, "engine error: " + e);
        }
        if ("pass".equals(session.finalState())) {
            return new TestOutcome(name, TestOutcome.Result.PASSED, erratum);
        }
        String why = session.running() ? "still running in " + session.activeStates() + " with nothing left to happen"
                : session.stopReason() != null ? "stopped: " + session.stopReason()
                : "ended in '" + session.finalState() + "'";
        List<String> errors = log.stream().filter(l -> l.startsWith("error:")).toList();
        return new TestOutcome(name, TestOutcome.Result.FAILED,
                why + (errors.isEmpty() ? "" : "; " + errors.get(errors.size() - 1))
                        + (erratum.isEmpty() ? "" : "; " + erratum));
    }

    /** Why a test cannot run here, or {@code null}. */
    static String exclusion(String text) {
        if (text.contains("<invoke")) {
            return "needs <invoke>";
        }
        if (text.contains("BasicHTTPEventProcessor")) {
            return "needs the BasicHTTP event I/O processor";
        }
        if (text.contains("#_parent")) {
            return "needs a parent session (<invoke>)";
        }
        if (text.contains("<script")) {
            return "needs <script>, which the XPath datamodel does not have (for datamodels with scripting)";
        }
        return null;
    }

    /** A {@code <data src="file:NAME">}: a plain file in the test's own directory, bounded in size. */
    private static String readDataFile(Path dir, String src) throws IOException {
        String name = src.startsWith("file:") ? src.substring(5) : src;
        if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.startsWith(".")) {
            throw new IOException("only a file beside the test may be read");
        }
        Path p = dir.resolve(name);
        if (!Files.isRegularFile(p) || Files.size(p) > MAX_DATA_FILE_BYTES) {
            throw new IOException("no such file, or larger than " + MAX_DATA_FILE_BYTES + " bytes");
        }
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    /** Counts by result. */
    public static Map<TestOutcome.Result, Long> counts(List<TestOutcome> outcomes) {
        Map<TestOutcome.Result, Long> m = new java.util.EnumMap<>(TestOutcome.Result.class);
        for (TestOutcome.Result r : TestOutcome.Result.values()) {
            m.put(r, outcomes.stream().filter(o -> o.result() == r).count());
        }
        return m;
    }
}
