package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        assertFalse(roster.awaitWarmedUp(100, 0), "B has 60 of 100");
        assertTrue(roster.awaitWarmedUp(60, 0), "both have the 60 the sender managed to send");

        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return roster.awaitWarmedUp(100, TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        roster.warmed(B, new TtcpPayload.Warmed(100, 100));
        assertTrue(waiting.get(30, TimeUnit.SECONDS), "B's report ends the wait");
        assertEquals(2, roster.warmedUp(100));
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
