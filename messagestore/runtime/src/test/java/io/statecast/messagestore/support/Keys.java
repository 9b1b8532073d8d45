package io.statecast.messagestore.support;

import io.statecast.messagestore.instance.InstanceKey;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.TreeAddress;

/** Instance keys for tests that make instances directly. */
public final class Keys {

    /** The origin of {@link #message}'s messages: tree node 1. */
    public static final LogicalAddress ORIGIN = new TreeAddress(1);

    private Keys() {
    }

    /** The message-scope key of message {@code messageId} of tree node 1 ({@link #ORIGIN}). */
    public static InstanceKey message(int serviceId, long messageId) {
        return InstanceKey.ofMessage(serviceId, ORIGIN, messageId);
    }
}
