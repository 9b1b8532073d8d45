package io.statecast.overlay.substrate;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.DefaultMaxMessagesRecvByteBufAllocator;

/**
 * Receive buffers of one datagram channel, reused from read to read. Every read needs a buffer of
 * the largest datagram (plus one byte, to recognise an oversized one); from the pooled allocator
 * such a buffer is above the thread cache's size limit, so each datagram cost an allocation and a
 * release in the shared arena. The ring keeps up to {@code slots} such buffers and hands out one
 * whose only reference is the ring's own; the reader copies a small datagram out and releases the
 * buffer, which makes it free again. A buffer someone still holds (a large datagram passed on
 * uncopied) is skipped; when every slot is busy the allocator is asked as before.
 *
 * <p>While the channel is open the ring holds up to {@code slots * bufferBytes} of pooled direct
 * memory (32 x 64 KiB = 2 MiB for the UDP interface's defaults), which the pool would otherwise
 * lend and take back per datagram. One instance per channel; {@link #take} and
 * {@link #releaseAll} run on its event loop.
 */
final class ReceiveBufferRing extends DefaultMaxMessagesRecvByteBufAllocator {

    private final int bufferBytes;
    private final ByteBuf[] ring;
    private int next;
    private boolean released;

    /**
     * @param bufferBytes size of every receive buffer
     * @param slots       buffers kept at most (the datagrams read per read event)
     */
    ReceiveBufferRing(int bufferBytes, int slots) {
        super(slots);
        this.bufferBytes = bufferBytes;
        this.ring = new ByteBuf[slots];
    }

    @Override
    public Handle newHandle() {
        return new MaxMessageHandle() {
            @Override
            public ByteBuf allocate(ByteBufAllocator alloc) {
                return take(alloc);
            }

            @Override
            public int guess() {
                return bufferBytes;
            }
        };
    }

    /** A free buffer of the ring, retained for the caller, or a new one from {@code alloc}. */
    ByteBuf take(ByteBufAllocator alloc) {
        if (released) {
            return alloc.ioBuffer(bufferBytes, bufferBytes);
        }
        for (int i = 0; i < ring.length; i++) {
            int at = (next + i) % ring.length;
            ByteBuf b = ring[at];
            if (b == null) {
                b = alloc.ioBuffer(bufferBytes, bufferBytes);
                ring[at] = b;
            } else if (b.refCnt() != 1) {
                continue; // still held by whoever got it last
            }
            next = at + 1;
            return b.retain().clear();
        }
        return alloc.ioBuffer(bufferBytes, bufferBytes);
    }

    /** Drops the ring's references (buffers still held elsewhere are freed by their holders). */
    void releaseAll() {
        released = true;
        for (int i = 0; i < ring.length; i++) {
            if (ring[i] != null) {
                ring[i].release();
                ring[i] = null;
            }
        }
    }
}
