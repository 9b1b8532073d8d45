package io.statecast.overlay.substrate;

/** The seed of a test run: {@code -Dstatecast.seed=…} to replay, else fresh and printed on failure. */
final class Seeds {

    private Seeds() {
    }

    static long seed() {
        return Long.getLong("statecast.seed", System.nanoTime());
    }
}
