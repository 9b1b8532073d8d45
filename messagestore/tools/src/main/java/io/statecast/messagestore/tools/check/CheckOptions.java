package io.statecast.messagestore.tools.check;

import java.time.Duration;
import java.util.Objects;

/**
 * How far {@code spec check} explores.
 *
 * @param depth        most inputs on a path from the instance's start (default {@value #DEFAULT_DEPTH})
 * @param peers        abstract peers messages come from (default {@value #DEFAULT_PEERS}; see
 *                     {@link AbstractNode})
 * @param historyCap   how many identical inputs of one event the state abstraction tells apart
 *                     (default {@value #DEFAULT_HISTORY_CAP}; see {@link StateKey})
 * @param maxStates    the search stops after this many abstract states (default
 *                     {@value #DEFAULT_MAX_STATES}), so a hostile spec cannot exhaust memory
 * @param timeLimit    the search stops after this long (default 60 s)
 */
public record CheckOptions(int depth, int peers, int historyCap, int maxStates, Duration timeLimit) {

    /** Default depth. */
    public static final int DEFAULT_DEPTH = 8;
    /** Default number of peers. */
    public static final int DEFAULT_PEERS = 3;
    /** Default history cap. */
    public static final int DEFAULT_HISTORY_CAP = 1;
    /** Default state bound. */
    public static final int DEFAULT_MAX_STATES = 200_000;
    /** Largest depth accepted. */
    public static final int MAX_DEPTH = 64;

    /** Checks the ranges. */
    public CheckOptions {
        if (depth < 1 || depth > MAX_DEPTH) {
            throw new IllegalArgumentException("depth must be 1.." + MAX_DEPTH + ", got " + depth);
        }
        if (peers < 1 || peers > AbstractNode.MAX_PEERS) {
            throw new IllegalArgumentException("peers must be 1.." + AbstractNode.MAX_PEERS + ", got " + peers);
        }
        if (historyCap < 1 || historyCap > 16) {
            throw new IllegalArgumentException("history cap must be 1..16, got " + historyCap);
        }
        if (maxStates < 1) {
            throw new IllegalArgumentException("maxStates must be positive, got " + maxStates);
        }
        Objects.requireNonNull(timeLimit, "timeLimit");
        if (timeLimit.isNegative() || timeLimit.isZero()) {
            throw new IllegalArgumentException("time limit must be positive, got " + timeLimit);
        }
    }

    /** The defaults. */
    public static CheckOptions defaults() {
        return new CheckOptions(DEFAULT_DEPTH, DEFAULT_PEERS, DEFAULT_HISTORY_CAP, DEFAULT_MAX_STATES,
                DEFAULT_TIME_LIMIT);
    }

    /** These options with another depth. */
    public CheckOptions withDepth(int d) {
        return new CheckOptions(d, peers, historyCap, maxStates, timeLimit);
    }

    /** These options with another number of peers. */
    public CheckOptions withPeers(int k) {
        return new CheckOptions(depth, k, historyCap, maxStates, timeLimit);
    }

    /** These options with another history cap. */
    public CheckOptions withHistoryCap(int cap) {
        return new CheckOptions(depth, peers, cap, maxStates, timeLimit);
    }

    /** These options with another time limit. */
    public CheckOptions withTimeLimit(Duration limit) {
        return new CheckOptions(depth, peers, historyCap, maxStates, limit);
    }

    /** Default time limit. */
    public static final Duration DEFAULT_TIME_LIMIT = Duration.ofSeconds(60);

    /** These options with another state bound. */
    public CheckOptions withMaxStates(int n) {
        return new CheckOptions(depth, peers, historyCap, n, timeLimit);
    }
}
