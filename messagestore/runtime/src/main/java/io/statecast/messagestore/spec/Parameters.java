package io.statecast.messagestore.spec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A spec's declared parameters and their effective values (defaults, possibly overridden by
 * the deployment). Immutable.
 */
public final class Parameters {

    /** No parameters. */
    public static final Parameters NONE = new Parameters(Map.of(), Map.of());

    private final Map<String, Parameter> declared;
    private final Map<String, String> values;

    private Parameters(Map<String, Parameter> declared, Map<String, String> values) {
        this.declared = declared;
        this.values = values;
    }

    /** Parameters at their defaults, in declaration order. */
    public static Parameters of(List<Parameter> parameters) {
        Map<String, Parameter> d = new LinkedHashMap<>();
        Map<String, String> v = new LinkedHashMap<>();
        for (Parameter p : parameters) {
            d.put(p.name(), p);
            v.put(p.name(), p.defaultValue());
        }
        return new Parameters(Collections.unmodifiableMap(d), Collections.unmodifiableMap(v));
    }

    /** The declarations, in spec order. */
    public List<Parameter> declared() {
        return List.copyOf(declared.values());
    }

    /** Whether a parameter of this name is declared. */
    public boolean contains(String name) {
        return declared.containsKey(name);
    }

    /** The declaration, or {@code null}. */
    public Parameter get(String name) {
        return declared.get(name);
    }

    /** The names, in spec order. */
    public List<String> names() {
        return List.copyOf(declared.keySet());
    }

    /**
     * The effective value.
     *
     * @throws IllegalArgumentException when no such parameter is declared
     */
    public String value(String name) {
        String v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("no parameter " + name + " (declared: " + declared.keySet() + ")");
        }
        return v;
    }

    /** The effective value of a duration or integer parameter. */
    public long longValue(String name) {
        return Long.parseLong(value(name));
    }

    /** The effective value of a boolean parameter. */
    public boolean booleanValue(String name) {
        return Boolean.parseBoolean(value(name));
    }

    /**
     * These parameters with some values replaced.
     *
     * @param overrides name → value; every name must be declared and every value valid
     * @param problems  receives one problem per bad override (unknown name, invalid value)
     * @return the new parameters; unchanged entries keep their values
     */
    public Parameters withOverrides(Map<String, String> overrides, List<Problem> problems) {
        Map<String, String> v = new LinkedHashMap<>(values);
        List<Problem> found = new ArrayList<>();
        for (Map.Entry<String, String> o : overrides.entrySet()) {
            Parameter p = declared.get(o.getKey());
            if (p == null) {
                found.add(Problem.error(0, 0, "override of undeclared parameter '" + o.getKey() + "' (declared: "
                        + declared.keySet() + ")"));
                continue;
            }
            try {
                v.put(p.name(), p.type().check(o.getValue()));
            } catch (IllegalArgumentException e) {
                found.add(Problem.error(0, 0, "override of parameter " + p.name() + ": " + e.getMessage()));
            }
        }
        problems.addAll(found);
        return new Parameters(declared, Collections.unmodifiableMap(v));
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
