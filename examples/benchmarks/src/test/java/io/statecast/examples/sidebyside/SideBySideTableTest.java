package io.statecast.examples.sidebyside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SideBySideTableTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode summary(String json) throws Exception {
        return JSON.readTree(json);
    }

    @Test
    void aCellShouldTakeTheSlowestReceiverTheLongestDelaysAndTheSumOfCpu() throws Exception {
        JsonNode sender = summary("{\"cpuMicrosPerMessage\": 10.0}");
        JsonNode fast = summary("{\"received\": 100, \"duplicates\": 3, \"outOfOrder\": 0, \"messagesPerSecond\": 900, \"delayMsP50\": 1.0, \"delayMsP99\": 4.0, \"cpuMicrosPerMessage\": 5.0}");
        JsonNode slow = summary("{\"received\": 98, \"duplicates\": 1, \"outOfOrder\": 7, \"messagesPerSecond\": 700, \"delayMsP50\": 2.0, \"delayMsP99\": 3.0, \"cpuMicrosPerMessage\": 6.5}");

        CellResult r = CellResult.of("multicast", 5, "h2h-ack", sender, List.of(fast, slow), 100, "");

        assertEquals(700, r.messagesPerSecond());
        assertEquals(2.0, r.delayMsP50());
        assertEquals(4.0, r.delayMsP99());
        assertEquals(21.5, r.cpuMicrosPerMessage(), 1e-9);
        assertEquals(198, r.delivered());
        assertEquals(200, r.expected());
        assertEquals(4, r.duplicates(), "duplicates summed over receivers");
        assertEquals(7, r.outOfOrder(), "out-of-order arrivals summed over receivers");
        assertFalse(r.complete());
    }

    @Test
    void aProcessWithoutAReportShouldBeNamedAndLeaveNoFigure() throws Exception {
        JsonNode one = summary("{\"received\": 10, \"messagesPerSecond\": 900, \"delayMsP50\": 1.0, \"delayMsP99\": 4.0, \"cpuMicrosPerMessage\": 5.0}");

        CellResult r = CellResult.of("multicast", 0, "e2e-ack", null, Arrays.asList(one, null), 10, "");

        assertTrue(Double.isNaN(r.messagesPerSecond()), "a receiver without a report has no rate");
        assertTrue(Double.isNaN(r.cpuMicrosPerMessage()), "nor can its CPU be summed");
        assertEquals("2 process(es) wrote no report", r.note());
        assertEquals(-1, r.duplicates(), "a receiver that reported no count leaves the sum unknown");
    }

    @Test
    void theTableShouldCompareEachSystemWithJGroupsOfTheSameShapeAndLoss() {
        CellResult jg0 = new CellResult("unicast", 0, "jgroups", 1000, 1.0, 10.0, 20.0, 100, 100, 0, 0, "");
        CellResult ours0 = new CellResult("unicast", 0, "reliable-unicast", 500, 2.0, 5.0, 30.0, 100, 100, 0, 0, "");
        CellResult jg10 = new CellResult("unicast", 10, "jgroups", 800, 4.0, 40.0, 25.0, 100, 100, 0, 0, "");
        CellResult ours10 = new CellResult("unicast", 10, "reliable-unicast", 400, 8.0, 20.0, Double.NaN, 90, 100, 2, -1, "incomplete");

        String table = SideBySideTable.markdown(List.of(jg0, ours0, jg10, ours10));
        String[] lines = table.split("\n");

        assertEquals(6, lines.length, table);
        assertTrue(lines[2].startsWith("| unicast | 0 % | jgroups | 1,000 | 1.00 | 10.00 | 20.0 | 100/100 | 0 | 0 | | | | |"), lines[2]);
        assertTrue(lines[3].endsWith("| 100/100 | 0 | 0 | 0.50 | 2.00 | 0.50 | 1.50 |"), lines[3]);
        assertTrue(lines[5].endsWith("| 90/100 (incomplete) | 2 | – | 0.50 | 2.00 | 0.50 | – |"), lines[5]);
    }

    @Test
    void aTotalOrderCellShouldSumEveryMembersCpuAndSayLoudlyWhenOrdersDiffer() throws Exception {
        JsonNode m1 = summary("{\"received\": 30, \"duplicates\": 0, \"outOfOrder\": 0, \"messagesPerSecond\": 900, \"delayMsP50\": 1.0, \"delayMsP99\": 4.0, \"cpuMicrosPerMessage\": 5.0}");
        JsonNode m2 = summary("{\"received\": 30, \"duplicates\": 0, \"outOfOrder\": 0, \"messagesPerSecond\": 800, \"delayMsP50\": 2.0, \"delayMsP99\": 3.0, \"cpuMicrosPerMessage\": 6.0}");
        CellResult jg = CellResult.ofGroup("total-order", 0, "jgroups", List.of(m1, m2), 30, "", true);
        CellResult ours = CellResult.ofGroup("total-order", 0, "total-order", List.of(m1, m2), 30, "", false);

        assertEquals(800, jg.messagesPerSecond(), "the slowest member");
        assertEquals(11.0, jg.cpuMicrosPerMessage(), 1e-9, "every member's share, no sender of its own");
        assertEquals(60, jg.expected(), "each member delivers every member's messages");
        assertTrue(jg.complete());
        String[] lines = SideBySideTable.markdown(List.of(jg, ours)).split("\n");
        assertTrue(lines[0].contains("| out of order | same order | ÷ JGroups"), lines[0]);
        assertTrue(lines[2].contains("| 60/60 | 0 | 0 | yes | |"), lines[2]);
        assertTrue(lines[3].contains("| 60/60 | 0 | 0 | **NO** | 1.00 |"), lines[3]);
        assertFalse(SideBySideTable.markdown(List.of(new CellResult("unicast", 0, "jgroups", 1, 1, 1, 1, 1, 1, 0, 0, "")))
                .contains("same order"), "no column without a total-order cell");
    }

    @Test
    void aCellWithoutItsReferenceShouldHaveNoRatios() {
        CellResult ours = new CellResult("multicast", 5, "h2h-ack", 500, 2.0, 5.0, 30.0, 100, 100, 0, 0, "");

        String row = SideBySideTable.markdown(List.of(ours)).split("\n")[2];

        assertTrue(row.endsWith("| 100/100 | 0 | 0 | | | | |"), row);
    }
}
