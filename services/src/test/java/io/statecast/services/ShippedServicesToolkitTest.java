package io.statecast.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.messagestore.spec.SpecStructure;
import io.statecast.messagestore.tools.SourceText;
import io.statecast.messagestore.tools.check.CheckFinding;
import io.statecast.messagestore.tools.check.CheckOptions;
import io.statecast.messagestore.tools.check.CheckReport;
import io.statecast.messagestore.tools.check.CheckRule;
import io.statecast.messagestore.tools.check.SpecChecker;
import io.statecast.messagestore.tools.lint.Finding;
import io.statecast.messagestore.tools.lint.Linter;
import io.statecast.messagestore.tools.render.RenderFormat;
import io.statecast.messagestore.tools.render.Renderer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.w3c.dom.Document;

/**
 * The authoring toolkit on every shipped service (issue #7): {@code spec lint} finds nothing,
 * {@code spec check} at depth {@value CheckOptions#DEFAULT_DEPTH} with
 * {@value CheckOptions#DEFAULT_PEERS} peers finds no error and no warning, and {@code spec render}
 * draws a parseable SVG. (That every service has scenarios is {@link ShippedScenariosTest}'s.)
 *
 * <p>Nothing is suppressed. A spec may be checked with some parameters changed, listed in
 * {@link #CHECK_PARAMETERS} with the reason, when a default lies beyond what a bounded check can
 * reach; the check then explores the very path the default hides, it does not skip it.
 */
class ShippedServicesToolkitTest {

    private static final Path SERVICES = Path.of("src/main/resources/services");

    /** A parameter value for the check only, and why the default cannot be checked. */
    private record CheckParameter(String name, String value, String why) {
    }

    /** Per spec, the parameters the check uses instead of the defaults. */
    private static final Map<String, List<CheckParameter>> CHECK_PARAMETERS = Map.of(
            "best-effort-ordering", List.of(new CheckParameter("BufferSize", "2",
                    "overflow fires when more than BufferSize (default 100) messages are held: 101 inputs, far beyond "
                            + "depth 8; with 2 the overflow path is explored within the bound")),
            "heartbeat-fd", List.of(new CheckParameter("Threshold", "2",
                    "silent fires after Threshold (default 8) ticks without a heartbeat: with the heartbeat, alive and "
                            + "down steps before them, beyond depth 8; with 2 the timeout path is explored within the bound")));

    private static SpecLoader loader;

    @BeforeAll
    static void open() {
        loader = new SpecLoader();
    }

    @AfterAll
    static void close() {
        loader.close();
    }

    private static List<Path> specs() throws IOException {
        try (Stream<Path> files = Files.list(SERVICES)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".scxml")).sorted().toList();
        }
    }

    private static String name(Path spec) {
        String f = spec.getFileName().toString();
        return f.substring(0, f.length() - ".scxml".length());
    }

    @Test
    void shouldFindTheShippedServices() throws IOException {
        assertTrue(specs().size() >= 9, "shipped services in " + SERVICES.toAbsolutePath() + ": " + specs());
        assertTrue(specs().stream().map(ShippedServicesToolkitTest::name).toList()
                .containsAll(CHECK_PARAMETERS.keySet()), "check parameters for a spec that is not shipped");
    }

    @TestFactory
    Stream<DynamicTest> lintFindsNothing() throws IOException {
        Linter linter = new Linter(loader);
        return specs().stream().map(spec -> DynamicTest.dynamicTest(name(spec), () -> {
            List<Finding> findings = linter.lint(spec);
            assertEquals(List.of(), findings, spec + ": lint findings");
        }));
    }

    @TestFactory
    Stream<DynamicTest> checkFindsNoErrorAndNoWarning() throws IOException {
        // the default depth and state bound, but a time limit a loaded machine cannot reach: the
        // search must end because it has explored everything (8 s on a quiet 2-core machine), and a
        // neighbour's load must not turn that into a "time limit reached" warning
        CheckOptions d = CheckOptions.defaults();
        CheckOptions options = new CheckOptions(d.depth(), d.peers(), d.historyCap(), d.maxStates(), Duration.ofMinutes(30));
        return specs().stream().map(spec -> DynamicTest.dynamicTest(name(spec), () -> {
            byte[] bytes = Files.readAllBytes(spec);
            ServiceSpec loaded = loader.load(bytes, spec.toString());
            List<CheckParameter> params = CHECK_PARAMETERS.getOrDefault(name(spec), List.of());
            if (!params.isEmpty()) {
                loaded = loaded.withParameters(params.stream()
                        .collect(Collectors.toMap(CheckParameter::name, CheckParameter::value)));
            }
            CheckReport report = SpecChecker.check(loaded, SourceText.of(bytes), spec.toString(), options);
            if (!loaded.chart().controlContent().isEmpty()) {
                // the checker models configurations, not a datamodel that steers the machine
                // (reliable-unicast's windows decide its transitions; h2h-ack's round-trip variable
                // only feeds timer values, which the checker does model): it says so and checks
                // nothing; the spec's
                // scenarios and simulation tests carry it instead (ShippedScenariosTest requires them)
                assertEquals(List.of(CheckRule.NOT_MODELLED), report.findings().stream().map(CheckFinding::rule).toList(),
                        report.format());
                return;
            }
            assertNotNull(report.stats(), report.format());
            assertEquals("none", report.stats().cut(), "the check must not stop early: " + report.summary());
            assertEquals(List.of(), report.findings(), report.format());
        }));
    }

    @TestFactory
    Stream<DynamicTest> renderDrawsAParseableSvg() throws IOException {
        Renderer renderer = new Renderer();
        return specs().stream().map(spec -> DynamicTest.dynamicTest(name(spec), () -> {
            ServiceSpec loaded = loader.load(spec);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            renderer.render(loaded, RenderFormat.SVG, out);
            Document svg = parse(out.toByteArray());
            assertEquals("svg", svg.getDocumentElement().getLocalName(), spec + ": root element");
            assertFalse(svg.getElementsByTagNameNS("*", "text").getLength() == 0, spec + ": the diagram has no text");
            String drawn = out.toString(StandardCharsets.UTF_8);
            for (SpecStructure.StateInfo state : loaded.structure().states()) {
                assertTrue(drawn.contains(state.id()), spec + ": state " + state.id() + " is not drawn");
            }
        }));
    }

    private static Document parse(byte[] bytes) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(bytes));
    }
}
