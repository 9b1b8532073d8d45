/**
 * Flow control on the store's side: {@link io.statecast.messagestore.flow.SendWindow}, the one
 * component that holds the application's sends back (the send window, its AIMD congestion
 * response, room for instances), fed by the
 * store's per-service counts of its own messages in flight
 * ({@link io.statecast.messagestore.flow.InFlightCounter}). The socket reaches it only as an
 * {@link io.statecast.overlay.forward.FlowControl}.
 */
package io.statecast.messagestore.flow;
