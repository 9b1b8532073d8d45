package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.event.QueryLimits;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpecParserTest {

    private static final String MINIMAL = new String(TestResources.bytes("specs/minimal.scxml"), StandardCharsets.UTF_8);

    @Test
    void shouldRefuseADoctypeBeforeAnythingIsCompiled() {
        byte[] xxe = TestResources.bytes("hostile/xxe-file.scxml");
        SpecException e = assertThrows(SpecException.class, () -> SpecDocuments.read("xxe", xxe, SpecLimits.DEFAULTS));
        assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
    }

    @Test
    void shouldApplyConfiguredElementAndSizeLimits() {
        SpecLimits small = new SpecLimits(4096, 20, 64, Duration.ofSeconds(5), QueryLimits.DEFAULTS);
        try (SpecLoader loader = new SpecLoader(small)) {
            List<Problem> p = loader.validate(MINIMAL.getBytes(StandardCharsets.UTF_8), "m");
            assertTrue(p.stream().anyMatch(x -> x.isError() && x.message().contains("more than 20 elements")),
                    p.toString());
            List<Problem> big = loader.validate((MINIMAL + "<!--" + "x".repeat(5000) + "-->")
                    .getBytes(StandardCharsets.UTF_8), "m");
            assertEquals(List.of(Problem.error(0, 0, "spec is larger than the limit of 4096 bytes")), big);
        }
    }

    @Test
    void shouldGiveUpWhenTheLoadDeadlinePasses() {
        SpecLimits hurried = new SpecLimits(SpecLimits.DEFAULT_MAX_BYTES, SpecLimits.DEFAULT_MAX_ELEMENTS,
                SpecLimits.DEFAULT_MAX_DEPTH, Duration.ofNanos(1), QueryLimits.DEFAULTS);
        try (SpecLoader loader = new SpecLoader(hurried)) {
            List<Problem> p = loader.validate(MINIMAL.getBytes(StandardCharsets.UTF_8), "m");
            assertTrue(p.stream().anyMatch(x -> x.isError() && x.message().startsWith("loading took longer than 0 ms")),
                    p.toString());
        }
    }

    @Test
    void shouldReportPositionsOfTheStartTagAlsoWithWindowsLineEnds() {
        String crlf = MINIMAL.replace("<transition event=\"tick\" target=\"idle\"/>",
                "<transition\n        event=\"tock\" target=\"idle\"/>").replace("\n", "\r\n");
        try (SpecLoader loader = new SpecLoader()) {
            Problem p = loader.validate(crlf.getBytes(StandardCharsets.UTF_8), "crlf").stream()
                    .filter(Problem::isError).findFirst().orElseThrow();
            assertEquals(38, p.line(), p.toString());
            assertEquals(5, p.column(), p.toString());
        }
    }

    @Test
    void shouldFormatProblemsForTools() {
        assertEquals("f.scxml:3:7: error: bad", Problem.error(3, 7, "bad").format("f.scxml"));
        assertEquals("f.scxml:3: warning: odd", Problem.warning(3, 0, "odd").format("f.scxml"));
        assertEquals("f.scxml: error: big", Problem.error(0, 0, "big").format("f.scxml"));
    }
}
