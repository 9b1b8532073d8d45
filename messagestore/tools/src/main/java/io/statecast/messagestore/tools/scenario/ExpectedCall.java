package io.statecast.messagestore.tools.scenario;

import java.util.Map;

/**
 * A primitive call a step expects. Only the parameters written are compared; an expectation
 * without {@code outcome} requires the call to have been executed.
 *
 * @param primitive the primitive's spec name ({@code sendControlMessage})
 * @param params    parameter name to expected value, normalised as {@link ActualCall} writes them
 * @param line      where it is written
 */
public record ExpectedCall(String primitive, Map<String, String> params, int line) {

    /** Copies the map, keeping its order. */
    public ExpectedCall {
        params = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(params));
    }

    /** {@code primitive(k=v, …)}. */
    @Override
    public String toString() {
        return ActualCall.format(primitive, params);
    }
}
