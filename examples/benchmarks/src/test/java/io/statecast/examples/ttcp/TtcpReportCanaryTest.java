package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TtcpReportCanaryTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Sampler.Sample at(long tMillis, long progress, long canaryMicros) {
        return new Sampler.Sample(tMillis * 1_000, 0, 0, 0, progress, null, 0, 0, 0, MachineCpuTime.Times.UNKNOWN,
                ContextSwitches.Counts.UNKNOWN, canaryMicros < 0 ? -1 : canaryMicros * 1_000);
    }

    @Test
    void shouldTakeTheMediansWhileTheRunPassedAndOverTheSecondsBefore() {
        List<Sampler.Sample> samples = new ArrayList<>();
        samples.add(at(0, 0, 500));       // more than 5 s before the run: left out
        samples.add(at(6_000, 0, 118));
        samples.add(at(7_000, 0, -1));    // not read on this sample
        samples.add(at(8_000, 0, 122));   // the last sample before the first message
        samples.add(at(8_100, 1_000, 180));
        samples.add(at(8_200, 5_000, -1));
        samples.add(at(8_300, 9_000, 200));
        samples.add(at(8_400, 10_000, 230)); // the first with every message
        samples.add(at(8_500, 10_000, 119)); // after the run: left out
        ObjectNode summary = JSON.createObjectNode();

        TtcpReport.putCanary(summary, samples);

        assertEquals(200.0, summary.get("canaryMicrosInRun").asDouble());
        assertEquals(118.0, summary.get("canaryMicrosBefore").asDouble(), "the lower middle of two (nearest rank)");
    }

    @Test
    void shouldSayNullWhereNoReadingFallsOrNothingRan() {
        ObjectNode none = JSON.createObjectNode();
        TtcpReport.putCanary(none, List.of(at(0, 0, 120), at(100, 0, 121)));
        assertTrue(none.get("canaryMicrosInRun").isNull(), "no message passed");
        assertTrue(none.get("canaryMicrosBefore").isNull());

        ObjectNode unread = JSON.createObjectNode();
        TtcpReport.putCanary(unread, List.of(at(0, 0, -1), at(100, 10, -1), at(200, 20, -1)));
        assertTrue(unread.get("canaryMicrosInRun").isNull(), "no reading in the run");
        assertTrue(unread.get("canaryMicrosBefore").isNull());

        ObjectNode fromTheStart = JSON.createObjectNode();
        TtcpReport.putCanary(fromTheStart, List.of(at(0, 5, 150), at(100, 10, 160)));
        assertEquals(150.0, fromTheStart.get("canaryMicrosInRun").asDouble(), "messages from the first sample on");
        assertTrue(fromTheStart.get("canaryMicrosBefore").isNull(), "no sample before the run");
    }
}
