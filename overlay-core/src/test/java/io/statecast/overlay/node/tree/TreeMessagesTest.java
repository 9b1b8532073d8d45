package io.statecast.overlay.node.tree;

import io.statecast.overlay.node.ProtocolBodyException;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.ProtocolMessage;
import io.statecast.overlay.node.HeartbeatStamp;
import io.statecast.overlay.node.tree.TreeMessages.Beacon;
import io.statecast.overlay.node.tree.TreeMessages.Goodbye;
import io.statecast.overlay.node.ProtocolBodyException.Reason;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TreeMessagesTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());
    private static final List<SubstrateAddress> ADDRS = List.of(SubstrateAddress.udp("127.0.0.1", 5000), SubstrateAddress.mem("x"));

    @Test
    void shouldRoundTripBeaconWithAndWithoutSubtree() throws Exception {
        Beacon b = new Beacon(-7, Long.MAX_VALUE, 0x1234_5678_0000_0009L, true, 42, 65535, ADDRS, new long[] {1, -2, 3}, true);
        Beacon d = (Beacon) TreeMessages.decode(TreeMessages.encode(b), 16);
        assertEquals(b.sender(), d.sender());
        assertEquals(b.root(), d.root());
        assertEquals(b.rootSeq(), d.rootSeq());
        assertTrue(d.hasParent());
        assertEquals(42, d.parent());
        assertEquals(65535, d.hops());
        assertEquals(ADDRS, d.addresses());
        assertArrayEquals(b.subtree(), d.subtree());
        assertTrue(d.truncated());

        Beacon plain = new Beacon(1, 1, 0, false, 0, 0, ADDRS.subList(0, 1), null, false);
        Beacon e = (Beacon) TreeMessages.decode(TreeMessages.encode(plain), 16);
        assertNull(e.subtree());
        assertEquals(plain.addresses(), e.addresses());
        assertFalse(e.child());
    }

    @Test
    void shouldRoundTripTheChildAcknowledgementAsItsOwnFlag() throws Exception {
        Beacon ack = new Beacon(5, 9, 3, true, 9, 1, ADDRS, null, false, true);
        ProtocolMessage m = TreeMessages.encode(ack);
        assertEquals(TreeMessages.FLAG_HAS_PARENT | TreeMessages.FLAG_CHILD, m.body()[1]);
        Beacon d = (Beacon) TreeMessages.decode(m, 16);
        assertTrue(d.child());
        assertTrue(d.hasParent());
        assertNull(d.subtree());
    }

    @Test
    void shouldRoundTripGoodbye() throws Exception {
        assertEquals(new Goodbye(99), TreeMessages.decode(TreeMessages.encode(new Goodbye(99)), 16));
    }

    @Test
    void shouldCarryTimestampsAfterTheSubtreeList() throws Exception {
        HeartbeatStamp stamp = new HeartbeatStamp(-5, new HeartbeatStamp.Echo(Long.MAX_VALUE, HeartbeatStamp.MAX_HELD_MICROS));
        Beacon b = new Beacon(1, 2, 3, true, 2, 1, ADDRS, new long[] {7}, false, false, stamp);
        byte[] body = TreeMessages.encode(b).body();
        assertEquals(TreeMessages.FLAG_HAS_PARENT | TreeMessages.FLAG_SUBTREE | TreeMessages.FLAG_TS | TreeMessages.FLAG_ECHO,
                body[1]);
        byte[] tail = Arrays.copyOfRange(body, body.length - 20, body.length);
        assertArrayEquals(new byte[] {-1, -1, -1, -1, -1, -1, -1, -5, 0x7F, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}, tail,
                "sent (8) | echo (8) | held (4) after the subtree list");
        Beacon d = (Beacon) TreeMessages.decode(new ProtocolMessage(TreeMessages.BEACON, body), 16);
        assertEquals(stamp, d.stamp());
        assertArrayEquals(new long[] {7}, d.subtree());
        Beacon sentOnly = (Beacon) TreeMessages.decode(TreeMessages.encode(b.withStamp(new HeartbeatStamp(4, null))), 16);
        assertEquals(new HeartbeatStamp(4, null), sentOnly.stamp());
        assertNull(((Beacon) TreeMessages.decode(TreeMessages.encode(b.withStamp(null)), 16)).stamp(),
                "a beacon without timestamps, as older nodes send, still decodes");
    }

    @Test
    void shouldRejectAnEchoWithoutTimestampAndCutTimestamps() {
        byte[] good = TreeMessages.encode(new Beacon(1, 2, 3, false, 0, 1, ADDRS, null, false, false,
                new HeartbeatStamp(5, new HeartbeatStamp.Echo(6, 7)))).body();
        byte[] echoAlone = good.clone();
        echoAlone[1] = (byte) TreeMessages.FLAG_ECHO;
        assertEquals(Reason.BAD_FLAGS, reasonOf(TreeMessages.BEACON, echoAlone, 16));
        assertEquals(Reason.TRUNCATED, reasonOf(TreeMessages.BEACON, Arrays.copyOf(good, good.length - 1), 16), "held cut");
        assertEquals(Reason.TRUNCATED, reasonOf(TreeMessages.BEACON, Arrays.copyOf(good, good.length - 13), 16), "sent cut");
        byte[] tsOnly = good.clone();
        tsOnly[1] = (byte) TreeMessages.FLAG_TS;
        assertEquals(Reason.TRAILING_BYTES, reasonOf(TreeMessages.BEACON, tsOnly, 16));
    }

    private static Reason reasonOf(int type, byte[] body, int maxIds) {
        return assertThrows(ProtocolBodyException.class, () -> TreeMessages.decode(new ProtocolMessage(type, body), maxIds)).reason();
    }

    @Test
    void shouldRejectEachKindOfMalformedBody() {
        byte[] good = TreeMessages.encode(new Beacon(1, 2, 3, true, 2, 1, ADDRS, new long[] {1, 5}, false)).body();
        assertEquals(Reason.UNKNOWN_TYPE, reasonOf(0x99, good, 16));
        assertEquals(Reason.TRUNCATED, reasonOf(TreeMessages.BEACON, Arrays.copyOf(good, good.length - 1), 16));
        byte[] trailing = Arrays.copyOf(good, good.length + 1);
        assertEquals(Reason.TRAILING_BYTES, reasonOf(TreeMessages.BEACON, trailing, 16));
        byte[] version = good.clone();
        version[0] = 9;
        assertEquals(Reason.BAD_VERSION, reasonOf(TreeMessages.BEACON, version, 16));
        byte[] flags = good.clone();
        flags[1] = (byte) 0x80;
        assertEquals(Reason.BAD_FLAGS, reasonOf(TreeMessages.BEACON, flags, 16));
        byte[] truncatedWithoutList = good.clone();
        truncatedWithoutList[1] = 4;
        assertEquals(Reason.BAD_FLAGS, reasonOf(TreeMessages.BEACON, truncatedWithoutList, 16));
        assertEquals(Reason.TOO_MANY, reasonOf(TreeMessages.BEACON, good, 1));
        byte[] noAddr = good.clone();
        noAddr[36] = 0;
        assertEquals(Reason.TOO_MANY, reasonOf(TreeMessages.BEACON, noAddr, 16));
        byte[] badAddr = good.clone();
        badAddr[38] = 'x'; // "xdp://…"
        assertEquals(Reason.BAD_ADDRESS, reasonOf(TreeMessages.BEACON, badAddr, 16));
        byte[] parentWithoutFlag = good.clone();
        parentWithoutFlag[1] = 2;
        assertEquals(Reason.BAD_FLAGS, reasonOf(TreeMessages.BEACON, parentWithoutFlag, 16));
    }

    /** Random and mutated bodies never escape as anything but the decoder's own exception. */
    @Test
    void shouldSurviveFuzzedBodies() {
        int cases = Math.min(Integer.getInteger("statecast.fuzz.cases", 50_000), 200_000);
        Random r = new Random(SEED);
        byte[] good = TreeMessages.encode(new Beacon(1, 2, 3, true, 2, 1, ADDRS, new long[] {1, 5}, false)).body();
        int decoded = 0;
        for (int i = 0; i < cases; i++) {
            byte[] body;
            if (r.nextBoolean()) {
                body = new byte[r.nextInt(64)];
                r.nextBytes(body);
                if (body.length > 0) {
                    body[0] = 1;
                }
            } else {
                body = Arrays.copyOf(good, Math.max(0, good.length + r.nextInt(5) - 2));
                for (int k = r.nextInt(4); k >= 0; k--) {
                    if (body.length > 0) {
                        body[r.nextInt(body.length)] = (byte) r.nextInt();
                    }
                }
            }
            int type = r.nextBoolean() ? TreeMessages.BEACON : TreeMessages.GOODBYE;
            try {
                TreeMessages.decode(new ProtocolMessage(type, body), 16);
                decoded++;
            } catch (ProtocolBodyException expected) {
                // the only allowed failure
            } catch (RuntimeException e) {
                throw new AssertionError("seed=" + SEED + " case " + i + " body " + Arrays.toString(body), e);
            }
        }
        assertTrue(decoded > 0, "some mutations stay valid; seed=" + SEED);
    }
}
