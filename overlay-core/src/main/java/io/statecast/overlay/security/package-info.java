/**
 * Frame authentication for the overlay ({@code overlay.security}, {@code docs/security.md}).
 *
 * <ul>
 *   <li>{@link io.statecast.overlay.security.OverlayKeys}: the one or two keys of an overlay key
 *       file, its format and its parser; {@link io.statecast.overlay.security.OverlayKey} one key.</li>
 *   <li>{@link io.statecast.overlay.security.FrameAuthenticator}: appends the MAC trailer to every
 *       frame the adapter sends, and verifies every frame it receives (MAC, key id, replay window)
 *       before the codec sees it.</li>
 * </ul>
 * The adapter ({@link io.statecast.overlay.substrate.Adapter}) applies it; the socket re-reads the
 * key file when it changes, so keys rotate without a restart.
 */
package io.statecast.overlay.security;
