package io.statecast.overlay.message;

/**
 * Anything carried in one frame on a substrate: an application message (forwarded along overlay
 * trees, possibly marked for the MessageStore) or a protocol message of the overlay node.
 */
public sealed interface WireMessage permits OverlayMessage, ProtocolMessage {
}
