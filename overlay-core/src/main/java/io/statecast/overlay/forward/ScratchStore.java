package io.statecast.overlay.forward;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.OverlayMessage;
import java.util.List;

/**
 * A throw-away twin of a MessageStore, for warming the receive path before a node joins
 * ({@link MessageStorePort#scratch()}): the same services, but its own instances, counters,
 * queues and threads, so nothing it does shows in the real store. Whoever asked for it opens it on
 * a scratch {@link OverlayContext} (one that sends nothing and delivers nothing), feeds it, and
 * closes it.
 */
public interface ScratchStore extends MessageStorePort {

    /**
     * Messages like those the services receive: for every loaded service, one for each message
     * event of its spec, as they would arrive at {@code self} from its neighbour {@code peer}
     * (payloads and control messages). A message whose previous hop is {@code self} stands for the
     * local application's own send; the warm-up sends it as such, with {@code self} as its source.
     *
     * @param self         the scratch node's address
     * @param peer         the neighbour the messages come from
     * @param messageId    MessageID of the messages a spec does not pin (a new one per round
     *                     starts new instances)
     * @param payloadBytes size of the payloads
     */
    List<OverlayMessage> samples(LogicalAddress self, LogicalAddress peer, long messageId, int payloadBytes);

    /** Messages handed over and not yet taken by a shard. */
    int backlog();
}
