package io.statecast.messagestore.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.forward.Arrival;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PendingMessagesTest {

    @Test
    void shouldHoldBoundedReleaseByServiceAndExpireInOrder() {
        PendingMessages p = new PendingMessages(3, 100);
        assertEquals(PendingMessages.Result.HELD_FIRST, p.hold(Messages.payload(1, 1, 1, 1, "a"), Arrival.DELIVERED, 0));
        assertEquals(PendingMessages.Result.HELD, p.hold(Messages.payload(1, 2, 1, 1, "b"), Arrival.DELIVERED, 10));
        assertEquals(PendingMessages.Result.HELD_FIRST, p.hold(Messages.payload(2, 3, 1, 1, "c"), Arrival.TRANSIT, 20));
        assertEquals(PendingMessages.Result.FULL, p.hold(Messages.payload(2, 4, 1, 1, "d"), Arrival.DELIVERED, 30));
        assertEquals(Set.of(1, 2), p.waitingFor());
        List<PendingMessages.Held> dropped = new ArrayList<>();
        p.expire(105, dropped::add);
        assertEquals(1, dropped.size());
        assertEquals(1, dropped.get(0).message().fsm().messageId());
        List<PendingMessages.Held> two = p.release(2);
        assertEquals(1, two.size());
        assertEquals(Arrival.TRANSIT, two.get(0).arrival());
        assertEquals(1, p.size());
    }
}
