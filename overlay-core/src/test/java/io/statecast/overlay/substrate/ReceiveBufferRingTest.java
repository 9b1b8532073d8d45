package io.statecast.overlay.substrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
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
}
