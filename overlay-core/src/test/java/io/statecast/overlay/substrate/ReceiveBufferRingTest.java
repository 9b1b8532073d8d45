package io.statecast.overlay.substrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelConfig;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.UncheckedBooleanSupplier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ReceiveBufferRingTest {

    private final UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);

    @Test
    void shouldHandOutTheSameBufferAgainOnceItsReaderReleasedIt() {
        ReceiveBufferRing ring = new ReceiveBufferRing(100, 2);
        ByteBuf first = ring.take(alloc);
        first.writeInt(7);
        first.release();

        ByteBuf second = ring.take(alloc);
        ByteBuf third = ring.take(alloc);

        assertEquals(100, first.capacity());
        assertNotSame(first, second, "slots are taken in turn");
        assertSame(first, third, "the released buffer is reused");
        assertEquals(0, third.writerIndex(), "handed out cleared");
        assertEquals(2, third.refCnt(), "the ring's reference and the reader's");
        second.release();
        third.release();
    }

    @Test
    void shouldSkipABufferStillHeldAndFallBackToTheAllocatorWhenAllAreHeld() {
        ReceiveBufferRing ring = new ReceiveBufferRing(64, 2);
        ByteBuf a = ring.take(alloc);
        ByteBuf b = ring.take(alloc);
        ByteBuf c = ring.take(alloc); // both slots held: a fresh buffer

        assertNotSame(a, b);
        assertNotSame(a, c);
        assertNotSame(b, c);
        assertEquals(1, c.refCnt());
        b.release();
        ByteBuf again = ring.take(alloc);
        assertSame(b, again, "the free slot is reused, the held one skipped");
        again.release();
        c.release();
        a.release();
    }

    @Test
    void shouldFreeItsBuffersOnReleaseAllAndNotReuseThemAfterwards() {
        ReceiveBufferRing ring = new ReceiveBufferRing(64, 2);
        ByteBuf idle = ring.take(alloc);
        idle.release();
        ByteBuf held = ring.take(alloc);
        held.release();
        ByteBuf stillHeld = ring.take(alloc);

        ring.releaseAll();

        assertEquals(1, stillHeld.refCnt(), "the holder's reference survives");
        stillHeld.release();
        assertEquals(0, stillHeld.refCnt());
        ByteBuf after = ring.take(alloc);
        assertEquals(1, after.refCnt(), "after releaseAll every buffer comes from the allocator");
        after.release();
        assertEquals(0, after.refCnt());
    }

    /** Datagrams one read event takes when the socket always has more. */
    private static int readsInOneEvent(RecvByteBufAllocator.ExtendedHandle h, ChannelConfig config) {
        h.reset(config);
        int n = 0;
        do {
            h.lastBytesRead(100);
            h.incMessagesRead(1);
            n++;
        } while (h.continueReading(UncheckedBooleanSupplier.TRUE_SUPPLIER) && n < 1000);
        h.readComplete();
        return n;
    }

    @Test
    void shouldReadOneDatagramPerEventAfterAnIdlePauseAndABatchRightAfterWork() {
        AtomicLong now = new AtomicLong(TimeUnit.SECONDS.toNanos(100));
        ReceiveBufferRing ring = new ReceiveBufferRing(64, 32, now::get);
        RecvByteBufAllocator.ExtendedHandle h = (RecvByteBufAllocator.ExtendedHandle) ring.newHandle();
        EmbeddedChannel channel = new EmbeddedChannel();
        ChannelConfig config = channel.config();

        assertEquals(1, readsInOneEvent(h, config), "first event after a long pause");
        ring.workDone();
        now.addAndGet(TimeUnit.MICROSECONDS.toNanos(ReceiveBufferRing.BUSY_WITHIN_MICROS - 1));
        assertEquals(32, readsInOneEvent(h, config), "right after the previous event's work");
        now.addAndGet(TimeUnit.MICROSECONDS.toNanos(5 * ReceiveBufferRing.BUSY_WITHIN_MICROS)); // slow work
        ring.workDone();
        now.addAndGet(TimeUnit.MICROSECONDS.toNanos(1));
        assertEquals(32, readsInOneEvent(h, config), "measured from the end of the work, not the event's start");
        now.addAndGet(TimeUnit.SECONDS.toNanos(1));
        assertEquals(32, readsInOneEvent(h, config), "the previous event read its full batch: still busy");
        ring.workDone();
        h.reset(config);
        h.lastBytesRead(100);
        h.incMessagesRead(1);
        h.continueReading(UncheckedBooleanSupplier.TRUE_SUPPLIER); // then the socket is empty
        h.readComplete();
        now.addAndGet(TimeUnit.MICROSECONDS.toNanos(ReceiveBufferRing.BUSY_WITHIN_MICROS));
        assertEquals(1, readsInOneEvent(h, config), "after an idle pause as long as the busy window");
        now.addAndGet(TimeUnit.SECONDS.toNanos(1));
        assertEquals(1, readsInOneEvent(h, config), "a quiet event that read its one datagram stays quiet");
        channel.finishAndReleaseAll();
    }
}
