package io.statecast.examples.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.socket.OverlayConfig;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** docs/authoring.md's application example is this class's code, and it delivers as written. */
class ServiceHelloTest {

    @Test
    void shouldDeliverTheMessageWithTheSampleConfigurations() throws Exception {
        int port;
        try (DatagramSocket probe = new DatagramSocket(0)) {
            port = probe.getLocalPort(); // the founder's fixed port, moved off 7000 for the test run
        }
        String founder = Files.readString(Path.of("configs/founder.yaml")).replace("127.0.0.1:7000", "127.0.0.1:" + port);
        String joiner = Files.readString(Path.of("configs/joiner.yaml")).replace("127.0.0.1:7000", "127.0.0.1:" + port);
        assertTrue(founder.contains(":" + port) && joiner.contains(":" + port), "the samples name port 7000");
        assertEquals("hello", ServiceHello.run(OverlayConfig.parse(founder), OverlayConfig.parse(joiner)));
    }

    @Test
    void theDocsShouldShowTheCodeAsItIs() throws Exception {
        List<String> source = Files.readAllLines(
                Path.of("src/main/java/io/statecast/examples/hello/ServiceHello.java"), StandardCharsets.UTF_8);
        int from = indexOf(source, "// docs/authoring.md shows this block as written") + 1;
        int to = indexOf(source, "// end of the block docs/authoring.md shows");
        String code = source.subList(from, to).stream().map(l -> l.length() >= 8 ? l.substring(8) : l.strip())
                .collect(Collectors.joining("\n"));
        String docs = Files.readString(Path.of("../docs/authoring.md"), StandardCharsets.UTF_8);
        assertTrue(docs.contains("```java\n" + code + "\n```"), "docs/authoring.md should show:\n" + code);
    }

    private static int indexOf(List<String> lines, String marker) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().equals(marker)) {
                return i;
            }
        }
        throw new AssertionError("no line '" + marker + "'");
    }
}
