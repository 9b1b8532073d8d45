package io.statecast.overlay.substrate;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelConfig;
import io.netty.channel.DefaultMaxMessagesRecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Receive buffers of one datagram channel, reused from read to read. Every read needs a buffer of
 * the largest datagram (plus one byte, to recognise an oversized one); from the pooled allocator
 * such a buffer is above the thread cache's size limit, so each datagram cost an allocation and a
 * release in the shared arena. The ring keeps up to {@code slots} such buffers and hands out one
 * whose only reference is the ring's own; the reader copies a small datagram out and releases the
 * buffer, which makes it free again. A buffer someone still holds (a large datagram passed on
 * uncopied) is skipped; when every slot is busy the allocator is asked as before.
 *
 * <p><b>Reads per read event.</b> Reading several datagrams per event saves a selector call per
 * datagram on a busy socket, but it ends only when a read finds the socket empty, a system call
 * wasted on a quiet socket that gets one datagram at a time. So a read event that comes within
 * {@value #BUSY_WITHIN_MICROS} us of the end of the previous one's work ({@link #workDone()})
 * reads up to {@code slots} datagrams, and so does every event after one that read its full
 * {@code slots} (the socket had more); one after a longer idle pause reads one, and if more are
 * waiting the selector reports the socket again at once, making the next event a busy one. Once
 * busy, a flooded socket stays busy however the event loop is scheduled.
 *
 * <p>While the channel is open the ring holds up to {@code slots * bufferBytes} of pooled direct
 * memory (32 x 64 KiB = 2 MiB for the UDP interface's defaults), which the pool would otherwise
 * lend and take back per datagram. One instance per channel; {@link #take},
 * {@link #workDone} and {@link #releaseAll} run on its event loop.
 */
final class ReceiveBufferRing extends DefaultMaxMessagesRecvByteBufAllocator {

    /** A read event this soon after the previous one's work ended is taken for a busy socket. */
    static final long BUSY_WITHIN_MICROS = 200;

    private final int bufferBytes;
    private final ByteBuf[] ring;
    private final LongSupplier nanoClock;
    private int next;
    private boolean released;
    private long lastWorkDone;

    /**
     * @param bufferBytes size of every receive buffer
     * @param slots       buffers kept at most (the datagrams read per read event)
     */
    ReceiveBufferRing(int bufferBytes, int slots) {
        this(bufferBytes, slots, System::nanoTime);
    }

    ReceiveBufferRing(int bufferBytes, int slots, LongSupplier nanoClock) {
        super(slots);
        this.bufferBytes = bufferBytes;
        this.ring = new ByteBuf[slots];
        this.nanoClock = nanoClock;
        this.lastWorkDone = nanoClock.getAsLong() - TimeUnit.SECONDS.toNanos(1);
    }

    @Override
    public Handle newHandle() {
        return new MaxMessageHandle() {
            private boolean busy;
            /** Whether the last busy event stopped at its limit rather than at an empty socket. */
            private boolean filledLast;
            private int readThisEvent;

            @Override
            public void reset(ChannelConfig config) {
                super.reset(config);
                busy = filledLast
                        || nanoClock.getAsLong() - lastWorkDone < TimeUnit.MICROSECONDS.toNanos(BUSY_WITHIN_MICROS);
                readThisEvent = 0;
            }

            @Override
            public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
                readThisEvent++; // called once after each datagram read
                return busy && super.continueReading(maybeMoreDataSupplier);
            }

            @Override
            public void readComplete() {
                super.readComplete();
                filledLast = busy && readThisEvent >= maxMessagesPerRead();
            }

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

    /**
     * The reader has handled what the last read event brought (or a slice of it): the event loop
     * may now go idle. A read event soon after means datagrams keep arriving.
     */
    void workDone() {
        lastWorkDone = nanoClock.getAsLong();
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
