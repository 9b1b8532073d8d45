package io.statecast.messagestore.tools.scenario;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A primitive call an instance made during a step, with its parameters as text: addresses as in
 * specs ({@code 5}, {@code 3,4}), delivery modes by name, MessageType unsigned, payload as UTF-8
 * text (or {@code base64:…} when it is not printable text), times in milliseconds of the
 * scenario's virtual clock ({@code at}). {@code outcome} is {@code executed}, {@code failed},
 * {@code over_service_budget} or {@code discarded}; {@code detail} says why.
 *
 * @param primitive the primitive's spec name
 * @param params    parameter name to value, in a fixed order per primitive
 */
public record ActualCall(String primitive, Map<String, String> params) {

    /** Copies the map, keeping its order. */
    public ActualCall {
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
    }

    /** Whether every parameter {@code expected} names has the value it gives. */
    boolean matches(ExpectedCall expected) {
        if (!primitive.equals(expected.primitive())) {
            return false;
        }
        for (Map.Entry<String, String> e : expected.params().entrySet()) {
            if (!e.getValue().equals(params.get(e.getKey()))) {
                return false;
            }
        }
        return expected.params().containsKey("outcome") || "executed".equals(params.get("outcome"));
    }

    /** {@code primitive(k=v, …)}, leaving out {@code outcome=executed}. */
    @Override
    public String toString() {
        Map<String, String> shown = new LinkedHashMap<>(params);
        if ("executed".equals(shown.get("outcome"))) {
            shown.remove("outcome");
        }
        return format(primitive, shown);
    }

    static String format(String primitive, Map<String, String> params) {
        StringBuilder b = new StringBuilder(primitive).append('(');
        boolean first = true;
        for (Map.Entry<String, String> e : params.entrySet()) {
            if (!first) {
                b.append(", ");
            }
            first = false;
            b.append(e.getKey()).append('=').append(e.getValue());
        }
        return b.append(')').toString();
    }
}
