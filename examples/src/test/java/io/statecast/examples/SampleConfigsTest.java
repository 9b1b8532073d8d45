package io.statecast.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.MessageStoreSettings;
import io.statecast.overlay.socket.OverlayConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commented sample configurations in examples/configs/ (which the docs point to) stay valid. */
class SampleConfigsTest {

    @TempDir
    Path dir;

    @Test
    void everySampleConfigurationShouldLoadWithItsStoreSection() throws Exception {
        List<Path> samples;
        try (Stream<Path> s = Files.list(Path.of("configs"))) {
            samples = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertTrue(samples.size() >= 3, samples.toString());
        byte[] secret = new byte[32];
        new Random(7).nextBytes(secret); // any bytes do: the file only has to be well-formed
        Files.writeString(dir.resolve("overlay.key"), "1 " + Base64.getEncoder().encodeToString(secret) + "\n");
        for (Path sample : samples) {
            Path copy = Files.copy(sample, dir.resolve(sample.getFileName()));
            OverlayConfig c = OverlayConfig.load(copy);
            assertEquals("demo", c.id(), sample.toString());
            assertNotNull(c.messageStore(), sample + " runs services");
            MessageStoreSettings store = MessageStoreSettings.parse(c.messageStore());
            assertNotNull(store, sample.toString());
        }
    }
}
