package io.statecast.overlay.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Two ends' tables exchanging stamps by hand, with clocks far apart. */
class RttTableTest {

    private static final LogicalAddress A = new DtAddress(1, 1);
    private static final LogicalAddress B = new DtAddress(2, 2);
    private static final long MS = 1_000_000L;

    private final RttTable atA = new RttTable();
    private final RttTable atB = new RttTable();

    @Test
    void shouldMeasureTheRoundTripWhateverTheOffsetBetweenTheClocks() {
        long a = 1_000 * MS;           // A's clock
        long b = -7_777_777 * MS;       // B's clock: nothing to do with A's
        HeartbeatStamp toB = atA.stamp(B, a);
        assertNull(toB.echo(), "nothing to echo yet");
        a += 3 * MS;
        b += 3 * MS;                    // 3 ms on the way A -> B
        assertEquals(RttTable.Outcome.NO_ECHO, atB.receive(A, toB, b));
        a += 2 * MS;
        b += 2 * MS;                    // B holds it 2 ms
        HeartbeatStamp toA = atB.stamp(A, b);
        assertEquals(2_000, toA.echo().heldMicros());
        a += 5 * MS;
        b += 5 * MS;                    // 5 ms back
        assertEquals(RttTable.Outcome.SAMPLED, atA.receive(B, toA, a));
        RttEstimate e = atA.estimate(B).orElseThrow();
        assertEquals(8_000.0, e.srttMicros(), "3 ms there + 5 ms back; the 2 ms held do not count");
        assertEquals(4_000.0, e.rttvarMicros());
        assertTrue(atB.estimate(A).isEmpty(), "B has no sample until A echoes B's stamp");
        HeartbeatStamp again = atA.stamp(B, a);
        assertNotNull(again.echo(), "A echoes B's stamp");
        assertEquals(RttTable.Outcome.SAMPLED, atB.receive(A, again, b + 4 * MS));
        assertEquals(9_000.0, atB.estimate(A).orElseThrow().srttMicros(), "5 ms to A + 4 ms back");
    }

    @Test
    void shouldEchoATimestampOnlyOnce() {
        atB.receive(A, new HeartbeatStamp(10, null), 0);
        assertNotNull(atB.stamp(A, MS).echo());
        assertNull(atB.stamp(A, 2 * MS).echo(), "a second heartbeat before A's next would repeat the same exchange");
    }

    @Test
    void shouldDropNegativeAndAbsurdSamples() {
        long now = 100_000 * MS;
        long nowMicros = RttTable.micros(now);
        assertEquals(RttTable.Outcome.DROPPED,
                atA.receive(B, new HeartbeatStamp(0, new HeartbeatStamp.Echo(nowMicros + 1, 0)), now), "echo from the future");
        assertEquals(RttTable.Outcome.DROPPED,
                atA.receive(B, new HeartbeatStamp(0, new HeartbeatStamp.Echo(nowMicros - 1_000, 2_000)), now),
                "held longer than the round trip");
        assertEquals(RttTable.Outcome.DROPPED, atA.receive(B,
                new HeartbeatStamp(0, new HeartbeatStamp.Echo(nowMicros - RttTable.MAX_SAMPLE_MICROS - 1, 0)), now), "over 60 s");
        assertEquals(RttTable.Outcome.DROPPED,
                atA.receive(B, new HeartbeatStamp(0, new HeartbeatStamp.Echo(Long.MIN_VALUE, 0)), now), "no overflow");
        assertEquals(RttTable.Outcome.DROPPED,
                atA.receive(B, new HeartbeatStamp(0, new HeartbeatStamp.Echo(Long.MAX_VALUE, 0)), now), "no overflow");
        assertTrue(atA.estimate(B).isEmpty(), "no sample kept");
        assertEquals(RttTable.Outcome.SAMPLED, atA.receive(B,
                new HeartbeatStamp(0, new HeartbeatStamp.Echo(nowMicros - RttTable.MAX_SAMPLE_MICROS, 0)), now), "60 s is kept");
    }

    @Test
    void shouldForgetWhoIsNoLongerANeighbour() {
        long now = 10 * MS;
        long nowMicros = RttTable.micros(now);
        atA.receive(B, new HeartbeatStamp(0, new HeartbeatStamp.Echo(nowMicros - 500, 0)), now);
        LogicalAddress c = new DtAddress(3, 3);
        atA.receive(c, new HeartbeatStamp(0, new HeartbeatStamp.Echo(nowMicros - 700, 0)), now);
        assertEquals(2, atA.size());
        atA.retainOnly(List.of(c));
        assertEquals(Optional.empty(), atA.estimate(B));
        assertNull(atA.stamp(B, now).echo(), "nor does it echo to it");
        assertEquals(700.0, atA.estimate(c).orElseThrow().srttMicros());
        atA.forget(c);
        assertEquals(0, atA.size());
        assertTrue(atA.estimate(c).isEmpty());
    }

    @Test
    void shouldSendNoTimestampsToANeighbourThatSendsNone() {
        assertEquals(RttTable.Outcome.UNSTAMPED, atA.receive(B, null, MS));
        assertNull(atA.stamp(B, 2 * MS), "an older node refuses the timestamp flags: it gets none");
        assertNotNull(atA.stamp(new DtAddress(3, 3), 2 * MS), "others still do");
        atA.receive(B, new HeartbeatStamp(5, null), 3 * MS);
        HeartbeatStamp again = atA.stamp(B, 4 * MS);
        assertNotNull(again, "stamped once B's heartbeats are");
        assertEquals(5, again.echo().echoMicros());
        atA.receive(B, null, 5 * MS);
        assertNotNull(atA.stamp(B, 6 * MS), "a node that has sent timestamps takes them: one bare heartbeat changes nothing");
        assertNull(atA.stamp(B, 6 * MS).echo(), "but there is nothing to echo");
    }
}
