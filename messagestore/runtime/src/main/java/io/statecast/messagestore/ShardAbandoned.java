package io.statecast.messagestore;

/**
 * Thrown on a shard thread the watchdog gave up on, when its overlong query finally returns: the
 * shard has a new thread, so this one must unwind without touching the shard's state. An
 * {@link Error} so that no handler of ordinary failures on the way catches it.
 */
final class ShardAbandoned extends Error {

    private static final long serialVersionUID = 1L;

    ShardAbandoned() {
        super("this shard thread was replaced while it evaluated an overlong query", null, false, false);
    }
}
