package io.statecast.examples.ttcp;

import io.statecast.messagestore.MessageStore;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.node.Topology;
import io.statecast.overlay.socket.OverlaySocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Makes a sender wait while the substrate toward a child in its own multicast tree is not
 * writable — TTCP's blocking write, for an overlay — or while its own MessageStore holds half a
 * data queue of messages not yet processed, or is within 5 % of its live-instance limit. Without
 * the second condition a sender at full speed filled its own store's data queue, whose drop-tail
 * then discarded its messages before any service instance saw them (19,795 of 30,000 in one
 * h2h-ack run on loopback); without the third, at 8,000 msgs/s h2h-ack's finished instances
 * (lingering 6 s) filled the store and it refused 2,390 of 80,000 new messages. Either way,
 * messages the service never had a chance to deliver. The children and their substrate addresses are re-read
 * only when the topology changes. One sending thread uses it.
 *
 * <p>For a service the socket's flow control governs ({@link OverlaySocket#flowControl()}: its
 * spec declares in-flight states and {@code overlay.sendWindow.window} is not 0) the two store
 * conditions are the flow control's business: its window bounds the sender's unprocessed and
 * unacknowledged messages far below half a data queue, and a governed send already waits for room
 * in the live-instance limit. Only the substrate condition, which it cannot see, stays.
 */
final class BackpressureGate {

    /** The longest a send waits; then it goes anyway (and the substrate may drop it, counted). */
    static final long MAX_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long POLL_NANOS = 20_000;

    private final OverlaySocket socket;
    /** The socket's store, or null (none, not one whose backlog can be read, or its flow control governs the service). */
    private final MessageStore store;
    private final int backlogLimit;
    private final int liveLimit;
    private long version = -1;
    private List<SubstrateAddress> targets = List.of();

    /** @param serviceId the service the sender sends with, or null (best-effort) */
    BackpressureGate(OverlaySocket socket, Integer serviceId) {
        this.socket = socket;
        MessageStore ms = socket.messageStore() instanceof MessageStore m ? m : null;
        boolean governed = serviceId != null && socket.flowControl().governs(serviceId);
        this.store = governed ? null : ms;
        this.backlogLimit = store == null ? Integer.MAX_VALUE : Math.max(1, store.config().dataQueueCapacity() / 2);
        this.liveLimit = store == null ? Integer.MAX_VALUE
                : Math.max(1, store.config().instances().maxLiveInstances() / 20 * 19);
    }

    private boolean blocked(SubstrateAddress target) {
        if (target != null) {
            return !socket.adapter().isWritable(target);
        }
        return store != null && (store.dataBacklog() >= backlogLimit || store.liveInstances() >= liveLimit);
    }

    /** @return nanoseconds waited; negative if it gave up after {@link #MAX_WAIT_NANOS} */
    long await() throws InterruptedException {
        Topology t = socket.topology();
        if (t.version() != version) {
            version = t.version();
            List<SubstrateAddress> list = new ArrayList<>();
            for (LogicalAddress child : t.children(t.self())) {
                SubstrateAddress a = t.substrateAddress(child);
                if (a != null) {
                    list.add(a);
                }
            }
            targets = list;
        }
        long start = 0;
        for (int i = -1; i < targets.size(); i++) {
            SubstrateAddress a = i < 0 ? null : targets.get(i); // null: the own store's backlog
            while (blocked(a)) {
                long now = System.nanoTime();
                if (start == 0) {
                    start = now;
                } else if (now - start > MAX_WAIT_NANOS) {
                    return -(now - start);
                }
                LockSupport.parkNanos(POLL_NANOS);
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
        }
        return start == 0 ? 0 : System.nanoTime() - start;
    }
}
