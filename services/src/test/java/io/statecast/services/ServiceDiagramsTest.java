package io.statecast.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.messagestore.tools.render.RenderFormat;
import io.statecast.messagestore.tools.render.RenderOptions;
import io.statecast.messagestore.tools.render.Renderer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each shipped service's page shows the machine the spec holds: docs/services/NAME.svg is what
 * {@code spec render} draws from it now (the renderer is deterministic), so a spec change that
 * leaves its diagram behind fails here rather than waiting for someone to run
 * {@code bin/render-diagrams --check}.
 */
class ServiceDiagramsTest {

    private static final Path SERVICES = Path.of("src/main/resources/services");
    private static final Path DOCS = Path.of("../docs/services");

    @Test
    void everyShippedServicesDiagramShouldBeDrawnFromItsSpec() throws Exception {
        List<Path> specs;
        try (Stream<Path> s = Files.list(SERVICES)) {
            specs = s.filter(p -> p.toString().endsWith(".scxml")).sorted().toList();
        }
        assertTrue(specs.size() >= 10, specs.toString());
        List<String> stale = new ArrayList<>();
        try (SpecLoader loader = new SpecLoader()) {
            Renderer renderer = new Renderer(RenderOptions.DEFAULTS);
            for (Path spec : specs) {
                String name = spec.getFileName().toString().replace(".scxml", "");
                Path svg = DOCS.resolve(name + ".svg");
                if (!Files.isRegularFile(svg)) {
                    stale.add(name + ": docs/services/" + name + ".svg is missing");
                    continue;
                }
                ByteArrayOutputStream drawn = new ByteArrayOutputStream();
                renderer.render(loader.load(spec), RenderFormat.SVG, drawn);
                if (!drawn.toString(StandardCharsets.UTF_8).equals(Files.readString(svg, StandardCharsets.UTF_8))) {
                    stale.add(name + ": docs/services/" + name + ".svg differs from what the spec draws");
                }
            }
        }
        assertEquals(List.of(), stale, "run bin/render-diagrams (after mvn -B -q package -DskipTests)");
    }
}
