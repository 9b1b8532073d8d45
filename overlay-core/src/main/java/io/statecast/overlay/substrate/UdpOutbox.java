package io.statecast.overlay.substrate;

import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.DatagramPacket;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Flush consolidation for a {@link UdpInterface}'s pipeline: datagrams sent from any thread wait
 * in a lock-free queue, and the first one into an empty queue schedules a single task on the
 * event loop that writes everything queued by then (down the pipeline, through
 * {@link UdpBundleCodec}) and flushes once. A thread that sends a burst (a MessageStore shard
 * answering a drained batch) thus costs the event loop one task and at most one wake-up instead
 * of one per datagram, and nothing waits for a timer. All senders share the one queue, so
 * datagrams leave in the order {@link #offer} took them.
 *
 * <p>Netty's {@code FlushConsolidationHandler} (the TCP interface's) coalesces flushes issued on
 * the event loop; a write from another thread would still cost a task of its own there, so the
 * consolidation has to happen before the loop, as here.
 *
 * <p>One flush task writes at most {@value #DATAGRAMS_PER_FLUSH} datagrams, then yields the loop
 * to reads and other channels and schedules itself again. Datagrams go down with the channel's
 * void promise, so the codec may pack them.
 */
final class UdpOutbox extends ChannelHandlerAdapter {

    /** Datagrams one flush task writes before it yields the event loop. */
    static final int DATAGRAMS_PER_FLUSH = 256;

    private final InterfaceMetrics metrics;
    /** Datagrams taken and not yet written, in order. */
    private final Queue<DatagramPacket> queue = new ConcurrentLinkedQueue<>();
    private final AtomicLong bytes = new AtomicLong();
    /** Whether a flush task is scheduled and has not yet started draining {@link #queue}. */
    private final AtomicBoolean flushScheduled = new AtomicBoolean();
    private final Runnable flushTask = this::flush;
    private volatile ChannelHandlerContext context;

    /** @param metrics where datagrams discarded at close count as failed writes */
    UdpOutbox(InterfaceMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        context = ctx;
    }

    /** Bytes of the datagrams waiting. */
    long queuedBytes() {
        return bytes.get();
    }

    /** Queues {@code datagram} (owning it) and makes sure a flush will write it. Any thread, after registration. */
    void offer(DatagramPacket datagram) {
        bytes.addAndGet(datagram.content().readableBytes());
        queue.offer(datagram);
        if (!flushScheduled.get() && flushScheduled.compareAndSet(false, true)) {
            scheduleFlush();
        }
    }

    private void scheduleFlush() {
        try {
            context.executor().execute(flushTask);
        } catch (RejectedExecutionException e) { // the event loop has shut down (closing)
            flushScheduled.set(false);
            discard();
        }
    }

    /**
     * Runs on the event loop. Clearing the flag before draining means a datagram queued after the
     * drain started schedules a new task, so none is stranded.
     */
    private void flush() {
        flushScheduled.set(false);
        ChannelHandlerContext ctx = context;
        long written = 0;
        int n = 0;
        DatagramPacket p;
        while (n < DATAGRAMS_PER_FLUSH && (p = queue.poll()) != null) {
            written += p.content().readableBytes();
            ctx.write(p, ctx.voidPromise());
            n++;
        }
        bytes.addAndGet(-written);
        if (n > 0) {
            ctx.flush();
        }
        if (n == DATAGRAMS_PER_FLUSH && !queue.isEmpty() && flushScheduled.compareAndSet(false, true)) {
            scheduleFlush(); // let reads and other channels in before the rest
        }
    }

    /** Releases datagrams that can no longer be written, counting them as failed writes. Any thread. */
    void discard() {
        DatagramPacket p;
        while ((p = queue.poll()) != null) {
            bytes.addAndGet(-p.content().readableBytes());
            p.release();
            metrics.recordDrop(InterfaceMetrics.SendDrop.WRITE_FAILED);
        }
    }
}
