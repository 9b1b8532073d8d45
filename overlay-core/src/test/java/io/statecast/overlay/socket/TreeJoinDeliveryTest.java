package io.statecast.overlay.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.forward.DropCause;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.substrate.FaultConfig;
import io.statecast.overlay.substrate.MemNetwork;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node joins a spanning tree whose only other node is already multicasting, ten messages per
 * millisecond of virtual time, over an in-memory network that delays every frame by one to one and
 * a half milliseconds (so frames overtake each other, as protocol messages and data do in a real
 * node, where they are handled on different threads). Checks that the tree edge is usable in both directions as soon as the joiner's
 * {@code join} returns — within a few network delays, not after a heartbeat — and that no
 * multicast is dropped for arriving before its previous hop was known as parent.
 */
class TreeJoinDeliveryTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());
    private static final Duration DELAY = Duration.ofMillis(1);
    private static final Duration JITTER = Duration.ofNanos(500_000);
    private static final Duration MAX_DELAY = DELAY.plus(JITTER);
    private static final Duration PERIOD = Duration.ofNanos(100_000);
    /** Messages sent during the longest network delay. */
    private static final long PER_DELAY = MAX_DELAY.toNanos() / PERIOD.toNanos();
    /** Far below the default heartbeat (250 ms): a join that waits for a tick takes longer. */
    private static final long NO_TICK_NANOS = Duration.ofMillis(10).toNanos();
    private static final long SENDER_ID = 500;

    private final VirtualTimerService clock = new VirtualTimerService();
    private final MemNetwork net = new MemNetwork(clock, SEED);
    private final Random random = new Random(SEED);
    private final List<OverlaySocket> sockets = new ArrayList<>();
    private OverlaySocket sender;
    private long nextSeq;

    @AfterEach
    void closeAll() {
        sockets.forEach(OverlaySocket::close);
    }

    private OverlaySocket socket(long id, List<SubstrateAddress> buddies) throws Exception {
        OverlayConfig c = OverlayConfig.defaults("join", NodeType.TREE).withAddress(Long.toString(id))
                .withInterfaces(List.of(SubstrateAddress.mem("n" + id))).withBuddies(buddies);
        OverlaySocket s = OverlaySocket.builder(c).interfaces(List.of(net.newInterface("n" + id))).timers(clock)
                .random(new Random(random.nextLong())).build();
        sockets.add(s);
        return s;
    }

    /** The sender alone, joined, multicasting sequence numbers every {@link #PERIOD} from now on. */
    private void startSender() throws Exception {
        net.faults().configure(FaultConfig.NONE.withDelay(DELAY, JITTER));
        sender = socket(SENDER_ID, List.of());
        CompletableFuture<Void> joined = sender.joinAsync();
        assertTrue(clock.runUntil(joined::isDone, Duration.ofSeconds(1)), "seed=" + SEED);
        clock.schedule(0, TimeUnit.MILLISECONDS, this::multicastEveryPeriod);
        clock.advanceBy(Duration.ofMillis(50));
    }

    private void multicastEveryPeriod() {
        sendNext();
        clock.schedule(PERIOD.toNanos(), TimeUnit.NANOSECONDS, this::multicastEveryPeriod);
    }

    private long sendNext() {
        long seq = nextSeq++;
        sender.sendToAll(ByteBuffer.allocate(Long.BYTES).putLong(seq).array());
        return seq;
    }

    /** Joins {@code joiner}; returns the virtual nanoseconds its join took. */
    private long join(OverlaySocket joiner) {
        long start = clock.nanoTime();
        CompletableFuture<Void> joined = joiner.joinAsync();
        assertTrue(clock.runUntil(joined::isDone, Duration.ofSeconds(5)), "the join never completed; seed=" + SEED);
        assertTrue(!joined.isCompletedExceptionally(), "seed=" + SEED);
        long took = clock.nanoTime() - start;
        assertTrue(took < NO_TICK_NANOS, "the join took " + took + " ns: it waited for a heartbeat; seed=" + SEED);
        return took;
    }

    private static TreeSet<Long> received(OverlaySocket s) throws InterruptedException {
        TreeSet<Long> seqs = new TreeSet<>();
        OverlayMessage m;
        while ((m = s.receive(0, TimeUnit.MILLISECONDS)) != null) {
            seqs.add(ByteBuffer.wrap(m.payload()).getLong());
        }
        return seqs;
    }

    private void assertNothingDroppedAsNotFromParent() {
        for (OverlaySocket s : sockets) {
            assertEquals(0, s.statistics().forwarding().drops(DropCause.PREVIOUS_HOP_NOT_PARENT),
                    () -> s + " dropped multicasts from a hop it did not know as parent yet; seed=" + SEED);
        }
    }

    @Test
    void joinerBelowTheSenderReceivesAMessageSentTheMomentItsJoinReturns() throws Exception {
        startSender();
        OverlaySocket joiner = socket(SENDER_ID - 1, sender.substrateAddresses());
        long took = join(joiner);
        // rendezvous beacon, answer, claim, acknowledgement: four one-way delays, no heartbeat
        assertTrue(took >= 4 * DELAY.toNanos() && took <= 4 * MAX_DELAY.toNanos(), "join took " + took + " ns; seed=" + SEED);
        long marker = sendNext();
        clock.advanceBy(MAX_DELAY);
        TreeSet<Long> got = received(joiner);
        assertTrue(got.contains(marker), "message " + marker + " sent when the join returned not delivered one "
                + "network delay later; got " + got + "; " + joiner.topology() + " " + sender.topology() + "; seed=" + SEED);
        assertNoGapFrom(marker, joiner, got);
    }

    @Test
    void joinerAboveTheSenderBecomesItsParentWithoutDroppingWhatTheSenderForwards() throws Exception {
        startSender();
        OverlaySocket joiner = socket(SENDER_ID + 1, sender.substrateAddresses());
        long took = join(joiner);
        // rendezvous beacon, then the sender's claim: two one-way delays
        assertTrue(took >= 2 * DELAY.toNanos() && took <= 2 * MAX_DELAY.toNanos() + PERIOD.toNanos(),
                "join took " + took + " ns; seed=" + SEED);
        long firstAfterJoin = nextSeq;
        // the acknowledgement reaches the sender one delay after the join; from then on it forwards up
        clock.advanceBy(MAX_DELAY.multipliedBy(3));
        TreeSet<Long> got = received(joiner);
        assertTrue(!got.isEmpty() && got.first() <= firstAfterJoin + PER_DELAY + 1, "first message after the join: "
                + got.first() + ", expected one sent at most one network delay after it (" + (firstAfterJoin + PER_DELAY + 1)
                + "); seed=" + SEED);
        assertNoGapFrom(got.first(), joiner, got);
    }

    /** Runs 20 ms more; every message from {@code first} on that had time to arrive did, and nothing was dropped. */
    private void assertNoGapFrom(long first, OverlaySocket joiner, TreeSet<Long> got) throws InterruptedException {
        clock.advanceBy(Duration.ofMillis(20));
        got.addAll(received(joiner));
        long arrivedBy = nextSeq - PER_DELAY - 1;
        for (long seq = first; seq < arrivedBy; seq++) {
            assertTrue(got.contains(seq), "message " + seq + " missing after the join; got " + got + "; seed=" + SEED);
        }
        assertNothingDroppedAsNotFromParent();
    }
}
