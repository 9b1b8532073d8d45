/**
 * The public API: {@link io.statecast.overlay.socket.OverlaySocket} (create from a configuration,
 * join, send by multicast, unicast or flood, receive blocking or by callback, leave) and
 * {@link io.statecast.overlay.socket.OverlayConfig} (JSON or YAML, validated, every default
 * documented here and in {@code docs/config.md}).
 */
package io.statecast.overlay.socket;
