package io.statecast.examples.sidebyside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statecast.examples.ttcp.TtcpReport;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A member's delivery sequence and the comparison of the members' sequences. */
class OrderLogTest {

    @TempDir
    Path dir;

    @Test
    void aSequenceShouldCountDuplicatesAndEachSendersOwnOrderAndSurviveItsFile() throws Exception {
        OrderLog log = new OrderLog(2, 2);
        log.delivered(2, 0, 1_000, 3_000);
        log.delivered(1, 1, 1_000, 4_000);
        log.delivered(1, 0, 1_000, 5_000); // after member 1's later message
        log.delivered(1, 0, 1_000, 6_000); // again
        log.delivered(3, 0, 1_000, 6_000); // no such member: not this cell's
        assertFalse(log.complete());
        log.delivered(2, 1, 2_000, 7_000);

        ObjectNode s = TtcpReport.object();
        log.summary(s);
        assertTrue(log.complete());
        assertEquals(4, s.get("received").asInt());
        assertEquals(1, s.get("duplicates").asInt());
        assertEquals(1, s.get("outOfOrder").asInt());
        Path file = dir.resolve("n1.order");
        log.write(file);
        assertEquals(List.of(OrderLog.key(2, 0), OrderLog.key(1, 1), OrderLog.key(1, 0), OrderLog.key(2, 1)), OrderLog.read(file));
    }

    @Test
    void equalSequencesShouldHashAlikeAndAReorderedOneShouldNot() {
        OrderLog a = new OrderLog(2, 1);
        OrderLog b = new OrderLog(2, 1);
        OrderLog c = new OrderLog(2, 1);
        a.delivered(1, 0, 0, 1);
        a.delivered(2, 0, 0, 1);
        b.delivered(1, 0, 0, 5);
        b.delivered(2, 0, 0, 9);
        c.delivered(2, 0, 0, 1);
        c.delivered(1, 0, 0, 1);

        assertEquals(a.hash(), b.hash(), "the times are not the order");
        assertNotEquals(a.hash(), c.hash());
    }

    @Test
    void membersShouldBeOneOrderOnlyIfEachSequenceIsAPrefixOfTheLongest() throws Exception {
        List<Long> full = List.of(1L, 2L, 3L);
        assertTrue(OrderLog.oneOrder(List.of(full, List.of(1L, 2L), full)), "a member that stopped early holds the start");
        assertFalse(OrderLog.oneOrder(List.of(full, List.of(2L, 1L, 3L))));
        assertFalse(OrderLog.oneOrder(List.of(full, List.of(1L, 3L))), "a gap is another order");
        assertFalse(OrderLog.oneOrder(List.of()));

        JsonNode same = TtcpReport.JSON.readTree("{\"missing\": 0, \"orderHash\": \"ab\"}");
        JsonNode other = TtcpReport.JSON.readTree("{\"missing\": 0, \"orderHash\": \"cd\"}");
        JsonNode partial = TtcpReport.JSON.readTree("{\"missing\": 1, \"orderHash\": \"ef\"}");
        assertTrue(SideBySideCommand.sameOrder(Arrays.asList(same, same, partial, null), List.of(full, full)));
        assertEquals(null, SideBySideCommand.sameOrder(List.of(partial), List.of(List.of())), "nothing delivered, nothing to compare");
        assertFalse(SideBySideCommand.sameOrder(List.of(same, other), List.of(full, full)), "complete members' hashes differ");
    }
}
