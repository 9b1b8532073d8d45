package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReceiveLogTest {

    private static TtcpPayload.Data data(long run, int seq, int count) {
        return new TtcpPayload.Data(run, seq, count, 1_000L * seq, 100);
    }

    @Test
    void shouldCountDuplicatesAndReportMissingRanges() {
        ReceiveLog log = new ReceiveLog();
        for (int seq : new int[] {0, 1, 2, 5, 6, 9, 2, 6}) {
            log.record(data(7, seq, 12), 10_000L + seq);
        }
        assertEquals(6, log.distinct());
        assertEquals(2, log.duplicates());
        assertEquals(6, log.missing(0));
        List<int[]> ranges = log.missingRanges(0, 10);
        assertEquals(3, ranges.size());
        assertArrayEquals(new int[] {3, 4}, ranges.get(0));
        assertArrayEquals(new int[] {7, 8}, ranges.get(1));
        assertArrayEquals(new int[] {10, 11}, ranges.get(2));
        assertEquals(2, log.missingRanges(0, 2).size());
        assertFalse(log.complete());
        assertArrayEquals(new long[] {0, 1, 2, 5, 6, 9}, log.seqs());
    }

    @Test
    void shouldCountFirstCopiesThatArriveAfterALaterOne() {
        ReceiveLog log = new ReceiveLog();
        for (int seq : new int[] {0, 1, 4, 2, 3, 5, 3, 6}) {
            log.record(data(7, seq, 7), 10_000L + seq);
        }
        assertEquals(2, log.outOfOrder(), "2 and 3 came after 4; the copy of 3 is a duplicate, not out of order");
        assertEquals(1, log.duplicates());

        ReceiveLog inOrder = new ReceiveLog();
        for (int seq = 0; seq < 5; seq++) {
            inOrder.record(data(7, seq, 5), seq);
        }
        assertEquals(0, inOrder.outOfOrder());
    }

    @Test
    void shouldIgnoreMessagesOfAnotherRun() {
        ReceiveLog log = new ReceiveLog();
        log.record(data(7, 0, 2), 1);
        assertFalse(log.record(data(8, 1, 2), 2));
        assertEquals(1, log.foreign());
        assertTrue(log.record(data(7, 1, 2), 3));
        assertTrue(log.complete());
    }

    @Test
    void withNothingReceivedEverythingIsMissing() {
        ReceiveLog log = new ReceiveLog();
        assertEquals(50, log.missing(50));
        assertEquals(1, log.missingRanges(50, 10).size());
        assertArrayEquals(new int[] {0, 49}, log.missingRanges(50, 10).get(0));
        assertEquals(0, log.missingRanges(0, 10).size());
    }

    @Test
    void aWarmUpsLogShouldCountEveryMessageButKeepOnlyTheFirstTimes() {
        ReceiveLog log = new ReceiveLog(3);
        for (int seq = 0; seq < 10; seq++) {
            assertTrue(log.record(data(TtcpPayload.WARMUP_RUN, seq, 10), 10_000L + seq));
        }
        assertTrue(log.complete(), "every message counted");
        assertEquals(10, log.distinct());
        assertArrayEquals(new long[] {0, 1, 2}, log.seqs());
        assertArrayEquals(new long[] {10_000, 10_001, 10_002}, log.receivedMicros());
    }
}
