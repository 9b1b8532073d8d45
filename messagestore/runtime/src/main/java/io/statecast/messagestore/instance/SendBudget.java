package io.statecast.messagestore.instance;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.statecast.overlay.socket.ConfigValueException;

/**
 * The node-wide bound on what one service sends, over all its instances on every shard: a token
 * bucket per service, beside each instance's own primitive rate ({@link InstanceLimits}). The
 * per-instance bound alone let many instances add up: 200 instances each looping on a 2 ms timer
 * sent 1.95 million messages in 33 s without one being throttled. A send over the budget
 * ({@code sendDataMessage}, {@code sendControlMessage}, {@code forwardMessage}) is dropped and
 * counted as the action outcome {@code OVER_SERVICE_BUDGET}, and logged at most once per 10 s
 * per service.
 *
 * @param perSecond sustained messages per second one service may send from this node. Default
 *                  {@value #DEFAULT_PER_SECOND}: above what legitimate traffic was seen to need
 *                  (a burst of 20,000 h2h-ack messages between two nodes on loopback sends more
 *                  than 50,000/s), within reach of the runtime (about 73,000 relayed messages
 *                  per second per core). Lower it to a service's expected rate for a tighter
 *                  bound on a runaway spec
 * @param burst     messages a service may send at once above the rate (bucket size). Default
 *                  {@value #DEFAULT_BURST}: a tenth of a second's budget
 */
public record SendBudget(double perSecond, int burst) {

    /** Default of {@link #perSecond}. */
    public static final double DEFAULT_PER_SECOND = 200_000;
    /** Default of {@link #burst}. */
    public static final int DEFAULT_BURST = 20_000;
    /** The defaults. */
    public static final SendBudget DEFAULTS = new SendBudget(DEFAULT_PER_SECOND, DEFAULT_BURST);
    /** No bound worth the name, for benchmarks that measure the runtime alone. */
    public static final SendBudget UNBOUNDED = new SendBudget(1e12, Integer.MAX_VALUE);

    /** Checks ranges; the message names the field and the value. */
    public SendBudget {
        if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
            throw new IllegalArgumentException("perSecond must be > 0, got " + perSecond);
        }
        if (burst < 1) {
            throw new IllegalArgumentException("burst must be >= 1, got " + burst);
        }
    }

    /** The {@code sendBudget} section of a node's configuration: defaults for absent fields, the file's ranges. */
    @JsonCreator
    static SendBudget fromJson(@JsonProperty("perSecond") Double perSecond, @JsonProperty("burst") Long burst) {
        return new SendBudget(ConfigValueException.within("perSecond", perSecond, DEFAULT_PER_SECOND, 0.001, 1e9),
                ConfigValueException.within("burst", burst, DEFAULT_BURST, 1, 100_000_000));
    }
}
