package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.statecast.overlay.address.TreeAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ReceiverRosterTest {

    private static final TreeAddress A = new TreeAddress(2);
    private static final TreeAddress B = new TreeAddress(3);

    @Test
    void theWarmUpShouldBeOverOnlyWhenEveryReceiverHasAllOfIt() throws Exception {
        ReceiverRoster roster = new ReceiverRoster();
        roster.hello(A, 1);
        roster.hello(B, 2);
        roster.warmed(A, new TtcpPayload.Warmed(100, 100));
        roster.warmed(B, new TtcpPayload.Warmed(60, 100));

        assertEquals(1, roster.warmedUp(100));
        assertEquals(ReceiverRoster.WarmUp.TIMED_OUT, roster.awaitWarmedUp(100, 60_000, 0), "B has 60 of 100");
        assertEquals(ReceiverRoster.WarmUp.COMPLETE, roster.awaitWarmedUp(60, 0, 0), "both have the 60 the sender managed to send");

        CompletableFuture<ReceiverRoster.WarmUp> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return roster.awaitWarmedUp(100, 60_000, TimeUnit.SECONDS.toMillis(60));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        roster.warmed(B, new TtcpPayload.Warmed(100, 100));
        assertEquals(ReceiverRoster.WarmUp.COMPLETE, waiting.get(60, TimeUnit.SECONDS), "B's report ends the wait");
        assertEquals(2, roster.warmedUp(100));
    }

    @Test
    void aWaitWithoutGainsShouldStallAfterTheQuietPeriod() throws Exception {
        ReceiverRoster roster = new ReceiverRoster();
        roster.hello(A, 1);
        roster.warmed(A, new TtcpPayload.Warmed(99, 100));
        assertEquals(ReceiverRoster.WarmUp.STALLED, roster.awaitWarmedUp(100, 0, 60_000), "nothing gained, nothing to wait for");

        // a report without a gain does not keep the wait going
        CompletableFuture<ReceiverRoster.WarmUp> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return roster.awaitWarmedUp(100, 200, 60_000);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        roster.warmed(A, new TtcpPayload.Warmed(99, 100)); // no gain
        assertEquals(ReceiverRoster.WarmUp.STALLED, waiting.get(60, TimeUnit.SECONDS));
        assertEquals("stalled", ReceiverRoster.WarmUp.STALLED.label());
        assertEquals("timed-out", ReceiverRoster.WarmUp.TIMED_OUT.label());
    }

    @Test
    void aReorderedReportShouldNotTakeProgressBackAndAStrangersShouldBeForeign() {
        ReceiverRoster roster = new ReceiverRoster();
        roster.hello(A, 1);
        roster.warmed(A, new TtcpPayload.Warmed(90, 100));
        roster.warmed(A, new TtcpPayload.Warmed(40, 100));
        roster.warmed(B, new TtcpPayload.Warmed(100, 100));

        assertEquals(1, roster.warmedUp(90));
        assertEquals(1, roster.foreignCount(), "B never said HELLO");
        ArrayNode json = roster.toJson();
        assertEquals(1, json.size());
        assertEquals(90, json.get(0).get("warmupReceived").asInt());
    }

    @Test
    void aReceiverThatNeverReportedShouldShowNoWarmUp() {
        ReceiverRoster roster = new ReceiverRoster();
        roster.hello(A, 1);
        assertEquals(0, roster.warmedUp(0), "no WARMED at all is not zero messages");
        assertTrue(roster.toJson().get(0).get("warmupReceived").isNull());
    }
}
