package io.statecast.overlay.node.dt;

import io.statecast.overlay.node.ProtocolBodyException;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.ProtocolMessage;
import io.statecast.overlay.node.HeartbeatStamp;
import io.statecast.overlay.node.dt.DtMessages.DtMessage;
import io.statecast.overlay.node.dt.DtMessages.Goodbye;
import io.statecast.overlay.node.dt.DtMessages.Hello;
import io.statecast.overlay.node.dt.DtMessages.IAmHere;
import io.statecast.overlay.node.dt.DtMessages.IAmLeader;
import io.statecast.overlay.node.dt.DtMessages.NewNode;
import io.statecast.overlay.node.dt.DtMessages.NodeRef;
import io.statecast.overlay.node.ProtocolBodyException.Reason;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The DT message bodies: exact round trips, every bound, and hostile bytes refused with a reason. */
class DtMessagesTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());
    private static final int FUZZ_CASES = Integer.getInteger("statecast.fuzz.cases", 50_000);

    private static final SubstrateAddress UDP = SubstrateAddress.udp("127.0.0.1", 7000);
    private static final SubstrateAddress MEM = SubstrateAddress.mem("n1");

    private static DtMessage roundTrip(DtMessage m) throws ProtocolBodyException {
        ProtocolMessage wire = DtMessages.encode(m);
        DtMessage back = DtMessages.decode(wire);
        assertEquals(m, back);
        assertArrayEquals(wire.body(), DtMessages.encode(back).body(), "canonical encoding");
        return back;
    }

    private static DtMessage randomMessage(Random r) {
        DtAddress p = new DtAddress(r.nextInt(), r.nextInt());
        List<SubstrateAddress> addrs = new ArrayList<>();
        int n = 1 + r.nextInt(DtMessages.MAX_ADDRESSES);
        for (int i = 0; i < n; i++) {
            addrs.add(r.nextBoolean() ? SubstrateAddress.udp("10.0.0." + r.nextInt(256), r.nextInt(65536))
                    : SubstrateAddress.mem("node-" + r.nextInt(1_000_000)));
        }
        return switch (r.nextInt(5)) {
            case 0 -> new Hello(r.nextBoolean(), p, new DtAddress(r.nextInt(), r.nextInt()), addrs,
                    r.nextBoolean() ? new NodeRef(new DtAddress(r.nextInt(), r.nextInt()), addrs.get(0)) : null,
                    r.nextBoolean() ? new NodeRef(new DtAddress(r.nextInt(), r.nextInt()), MEM) : null, randomStamp(r));
            case 1 -> new Goodbye(p);
            case 2 -> new NewNode(p, addrs, r.nextInt(256), r.nextBoolean());
            case 3 -> new IAmHere(p, addrs, r.nextBoolean() ? new DtAddress(r.nextInt(), r.nextInt()) : null);
            default -> new IAmLeader(p, r.nextLong(), r.nextInt(256));
        };
    }

    private static HeartbeatStamp randomStamp(Random r) {
        return switch (r.nextInt(3)) {
            case 0 -> null;
            case 1 -> new HeartbeatStamp(r.nextLong(), null);
            default -> new HeartbeatStamp(r.nextLong(), new HeartbeatStamp.Echo(r.nextLong(),
                    r.nextLong(HeartbeatStamp.MAX_HELD_MICROS + 1)));
        };
    }

    @Test
    void shouldRoundTripEveryMessageExactly() throws ProtocolBodyException {
        Random r = new Random(SEED);
        for (int i = 0; i < 2000; i++) {
            DtMessage m = randomMessage(r);
            try {
                roundTrip(m);
            } catch (AssertionError e) {
                throw new AssertionError("seed=" + SEED + " message " + m, e);
            }
        }
        Hello hull = new Hello(true, new DtAddress(Integer.MIN_VALUE, Integer.MAX_VALUE), new DtAddress(0, -1), List.of(UDP), null, null);
        assertEquals(hull, roundTrip(hull));
    }

    @Test
    void shouldUseTheDocumentedTypeCodesAndLayouts() {
        NodeRef cw = new NodeRef(new DtAddress(5, 6), MEM);
        ProtocolMessage hello = DtMessages.encode(new Hello(true, new DtAddress(1, 2), new DtAddress(3, 4), List.of(MEM), cw, null));
        assertEquals(0x51, hello.type());
        // ver, flags=CW, sender, receiver, nAddr=1, len=8 "mem://n1", cw point, len, "mem://n1"
        byte[] expected = {1, 1, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 1, 8, 'm', 'e', 'm', ':', '/', '/', 'n', '1',
            0, 0, 0, 5, 0, 0, 0, 6, 8, 'm', 'e', 'm', ':', '/', '/', 'n', '1'};
        assertArrayEquals(expected, hello.body());
        assertEquals(0x52, DtMessages.encode(new Hello(false, new DtAddress(1, 2), new DtAddress(3, 4), List.of(MEM), null, null)).type());
        ProtocolMessage bye = DtMessages.encode(new Goodbye(new DtAddress(-1, 7)));
        assertEquals(0x53, bye.type());
        assertArrayEquals(new byte[] {1, -1, -1, -1, -1, 0, 0, 0, 7}, bye.body());
        ProtocolMessage nn = DtMessages.encode(new NewNode(new DtAddress(1, 2), List.of(MEM), 200, true));
        assertEquals(0x54, nn.type());
        assertArrayEquals(new byte[] {1, 1, (byte) 200, 0, 0, 0, 1, 0, 0, 0, 2, 1, 8, 'm', 'e', 'm', ':', '/', '/', 'n', '1'}, nn.body());
        ProtocolMessage here = DtMessages.encode(new IAmHere(new DtAddress(1, 2), List.of(MEM), new DtAddress(9, 9)));
        assertEquals(0x55, here.type());
        assertArrayEquals(new byte[] {1, 1, 0, 0, 0, 1, 0, 0, 0, 2, 1, 8, 'm', 'e', 'm', ':', '/', '/', 'n', '1', 0, 0, 0, 9, 0, 0, 0, 9},
                here.body());
        ProtocolMessage leader = DtMessages.encode(new IAmLeader(new DtAddress(1, 2), 258, 3));
        assertEquals(0x56, leader.type());
        assertArrayEquals(new byte[] {1, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 1, 2}, leader.body());
    }

    @Test
    void shouldDrawTheTimestampsAfterTheNodeReferences() throws ProtocolBodyException {
        HeartbeatStamp stamp = new HeartbeatStamp(0x0102_0304_0506_0708L, new HeartbeatStamp.Echo(-2, 0xFFFF_FFFEL));
        ProtocolMessage m = DtMessages.encode(new Hello(true, new DtAddress(1, 2), new DtAddress(3, 4), List.of(MEM), null, null,
                stamp));
        // ver, flags=TS|ECHO, sender, receiver, nAddr=1, len=8 "mem://n1", sent (8), echo (8), held (4)
        byte[] expected = {1, 12, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 1, 8, 'm', 'e', 'm', ':', '/', '/', 'n', '1',
            1, 2, 3, 4, 5, 6, 7, 8, -1, -1, -1, -1, -1, -1, -1, -2, -1, -1, -1, -2};
        assertArrayEquals(expected, m.body());
        assertEquals(stamp, ((Hello) DtMessages.decode(m)).stamp(), "held is unsigned on the wire");
        ProtocolMessage sentOnly = DtMessages.encode(new Hello(false, new DtAddress(1, 2), new DtAddress(3, 4), List.of(MEM),
                null, null, new HeartbeatStamp(9, null)));
        assertEquals(4, sentOnly.body()[1], "TS without ECHO");
        assertEquals(new HeartbeatStamp(9, null), ((Hello) DtMessages.decode(sentOnly)).stamp());
    }

    @Test
    void shouldStillAcceptAHelloWithoutTimestamps() throws ProtocolBodyException {
        byte[] old = {1, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 1, 8, 'm', 'e', 'm', ':', '/', '/', 'n', '1'};
        Hello h = (Hello) DtMessages.decode(new ProtocolMessage(0x51, old));
        assertEquals(null, h.stamp(), "an older node's Hello gives no sample but is still a Hello");
        assertEquals(new DtAddress(1, 2), h.sender());
    }

    @Test
    void shouldRefuseAnEchoWithoutTimestampAndCutTimestamps() {
        byte[] stamped = DtMessages.encode(new Hello(true, new DtAddress(1, 2), new DtAddress(3, 4), List.of(MEM), null, null,
                new HeartbeatStamp(5, new HeartbeatStamp.Echo(6, 7)))).body();
        byte[] b = stamped.clone();
        b[1] = 8; // ECHO alone
        assertEquals(Reason.BAD_FLAGS, reasonOf(0x51, b), "ECHO without TS");
        assertEquals(Reason.TRUNCATED, reasonOf(0x51, Arrays.copyOf(stamped, stamped.length - 4)), "held cut off");
        assertEquals(Reason.TRUNCATED, reasonOf(0x51, Arrays.copyOf(stamped, stamped.length - 12)), "echo cut off");
        assertEquals(Reason.TRUNCATED, reasonOf(0x51, Arrays.copyOf(stamped, stamped.length - 15)), "sent cut short");
        b = stamped.clone();
        b[1] = 4; // TS only: the echo's 12 bytes are now trailing
        assertEquals(Reason.TRAILING_BYTES, reasonOf(0x51, b));
    }

    private static Reason reasonOf(int type, byte[] body) {
        try {
            DtMessages.decode(new ProtocolMessage(type, body));
        } catch (ProtocolBodyException e) {
            return e.reason();
        }
        return fail("accepted " + type + " " + Arrays.toString(body));
    }

    @Test
    void shouldRefuseEveryTruncationAndTrailingByte() {
        Random r = new Random(SEED);
        for (int i = 0; i < 300; i++) {
            ProtocolMessage m = DtMessages.encode(randomMessage(r));
            for (int len = 0; len < m.body().length; len++) {
                Reason reason = reasonOf(m.type(), Arrays.copyOf(m.body(), len));
                assertTrue(reason == Reason.TRUNCATED || reason == Reason.BAD_ADDRESS || reason == Reason.TOO_MANY,
                        "prefix " + len + " of " + m + ": " + reason + "; seed=" + SEED);
            }
            assertEquals(Reason.TRAILING_BYTES, reasonOf(m.type(), Arrays.copyOf(m.body(), m.body().length + 1)), "seed=" + SEED);
        }
    }

    @Test
    void shouldRefuseBadVersionFlagsCountsAndAddresses() {
        byte[] hello = DtMessages.encode(new Hello(true, new DtAddress(1, 2), new DtAddress(3, 4), List.of(MEM), null, null)).body();
        byte[] b = hello.clone();
        b[0] = 2;
        assertEquals(Reason.BAD_VERSION, reasonOf(0x51, b));
        b = hello.clone();
        b[1] = 16;
        assertEquals(Reason.BAD_FLAGS, reasonOf(0x51, b));
        b = hello.clone();
        b[18] = 0;
        assertEquals(Reason.TOO_MANY, reasonOf(0x51, b), "no address");
        b = hello.clone();
        b[18] = 9;
        assertEquals(Reason.TOO_MANY, reasonOf(0x51, b), "nine addresses");
        b = hello.clone();
        b[19] = 0;
        assertEquals(Reason.BAD_ADDRESS, reasonOf(0x51, b), "empty address");
        b = hello.clone();
        b[24] = ' ';
        assertEquals(Reason.BAD_ADDRESS, reasonOf(0x51, b), "space in address");
        b = hello.clone();
        b[20] = 'x';
        assertEquals(Reason.BAD_ADDRESS, reasonOf(0x51, b), "unknown scheme");
        byte[] nn = DtMessages.encode(new NewNode(new DtAddress(1, 2), List.of(UDP), 3, false)).body();
        b = nn.clone();
        b[1] = 2;
        assertEquals(Reason.BAD_FLAGS, reasonOf(0x54, b));
        assertEquals(Reason.UNKNOWN_TYPE, reasonOf(0x50, hello));
        assertEquals(Reason.UNKNOWN_TYPE, reasonOf(0x41, hello), "a tree beacon is not a DT message");
        byte[] port = DtMessages.encode(new NewNode(new DtAddress(1, 2), List.of(SubstrateAddress.udp("h", 1)), 3, false)).body();
        port[port.length - 1] = 'x';
        assertEquals(Reason.BAD_ADDRESS, reasonOf(0x54, port), "port is not a number");
    }

    @Test
    void shouldBoundWhatItEncodes() {
        SubstrateAddress longest = SubstrateAddress.mem("m".repeat(SubstrateAddress.MAX_AUTHORITY_LENGTH));
        assertTrue(!DtMessages.encodable(longest));
        assertThrows(IllegalArgumentException.class,
                () -> DtMessages.encode(new NewNode(new DtAddress(0, 0), List.of(longest), 1, false)));
        List<SubstrateAddress> nine = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            nine.add(SubstrateAddress.mem("n" + i));
        }
        assertThrows(IllegalArgumentException.class, () -> new NewNode(new DtAddress(0, 0), nine, 1, false));
        assertThrows(IllegalArgumentException.class, () -> new NewNode(new DtAddress(0, 0), List.of(MEM), 256, false));
        assertThrows(IllegalArgumentException.class, () -> new IAmLeader(new DtAddress(0, 0), 1, -1));
    }

    @Test
    void shouldOnlyEverRefuseRandomBytesWithItsOwnException() {
        Random r = new Random(SEED);
        int[] types = {0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57};
        for (int i = 0; i < FUZZ_CASES; i++) {
            byte[] body;
            if (r.nextBoolean()) {
                body = new byte[r.nextInt(64)];
                r.nextBytes(body);
                if (body.length > 0) {
                    body[0] = 1;
                }
            } else {
                body = DtMessages.encode(randomMessage(r)).body().clone();
                int flips = 1 + r.nextInt(3);
                for (int f = 0; f < flips && body.length > 0; f++) {
                    body[r.nextInt(body.length)] ^= (byte) (1 << r.nextInt(8));
                }
            }
            int type = types[r.nextInt(types.length)];
            try {
                DtMessage m = DtMessages.decode(new ProtocolMessage(type, body));
                assertEquals(m, DtMessages.decode(DtMessages.encode(m)), "what is accepted re-encodes to itself; seed=" + SEED);
            } catch (ProtocolBodyException expected) {
                // refused with a reason: fine
            } catch (RuntimeException e) {
                throw new AssertionError("decode threw " + e + " for type " + type + " " + Arrays.toString(body) + "; seed=" + SEED, e);
            }
        }
    }
}
