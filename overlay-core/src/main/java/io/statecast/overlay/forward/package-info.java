/**
 * The blueprint's <em>forwarding engine</em> ({@link io.statecast.overlay.forward.ForwardingEngine}):
 * multicast down the tree rooted at the source, unicast up the tree rooted at the destination,
 * flood with duplicate suppression ({@link io.statecast.overlay.forward.FloodId}), hop limits and
 * previous-hop checks, drops counted by {@link io.statecast.overlay.forward.DropCause}; and the
 * only contact between overlay-core and a MessageStore: the
 * {@link io.statecast.overlay.forward.MessageStorePort} the engine hands service-marked messages
 * to, and the {@link io.statecast.overlay.forward.OverlayContext} primitives the store acts through.
 */
package io.statecast.overlay.forward;
