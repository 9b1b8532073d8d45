package io.statecast.specserver;

/**
 * Fired through the whole pipeline (from its head) when a response has been written, so the
 * handlers that track one request at a time can reset: the timeout re-arms for the next request,
 * the gate admits the next request head.
 */
enum ResponseSent {
    /** The only value. */
    INSTANCE
}
