package io.statecast.messagestore.event;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import net.sf.saxon.s9api.QName;
import net.sf.saxon.s9api.XdmAtomicValue;

/**
 * The values of a spec's parameters as XPath/XQuery variables: durations and integers as
 * {@code xs:integer}, booleans as {@code xs:boolean}, strings as {@code xs:string}. Built once
 * per loaded spec; immutable.
 */
public final class QueryBindings {

    /** No parameters. */
    public static final QueryBindings NONE = new QueryBindings(Map.of(), Map.of());

    private final Map<QName, XdmAtomicValue> values;
    /** The same values as Java objects (Long, Boolean, String), by parameter name, for compiled expressions. */
    private final Map<String, Object> javaValues;
    /** Each of {@link #javaValues} as a sequence of one item, made once: an evaluation reading a parameter allocates nothing. */
    private final Map<String, List<Object>> javaSequences;

    private QueryBindings(Map<QName, XdmAtomicValue> values, Map<String, Object> javaValues) {
        this.values = values;
        this.javaValues = javaValues;
        Map<String, List<Object>> sequences = new LinkedHashMap<>();
        javaValues.forEach((name, value) -> sequences.put(name, List.of(value)));
        this.javaSequences = Map.copyOf(sequences);
    }

    /**
     * @param typed parameter name → value already converted (Long, Boolean or String)
     */
    public static QueryBindings of(Map<String, Object> typed) {
        Map<QName, XdmAtomicValue> v = new LinkedHashMap<>();
        Map<String, Object> java = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : typed.entrySet()) {
            Object o = Objects.requireNonNull(e.getValue(), e.getKey());
            XdmAtomicValue x;
            if (o instanceof Long l) {
                x = new XdmAtomicValue(l);
            } else if (o instanceof Boolean b) {
                x = new XdmAtomicValue(b);
            } else {
                x = new XdmAtomicValue(o.toString());
                o = o.toString();
            }
            java.put(e.getKey(), o);
            v.put(new QName(e.getKey()), x);
        }
        return new QueryBindings(Map.copyOf(v), Map.copyOf(java));
    }

    /** Every binding. */
    public Map<QName, XdmAtomicValue> values() {
        return values;
    }

    /** The value of parameter {@code name} as a Long, Boolean or String, or {@code null}. */
    public Object javaValue(String name) {
        return javaValues.get(name);
    }

    /** {@link #javaValue} as a sequence of one item, or {@code null}. */
    public List<Object> javaSequence(String name) {
        return javaSequences.get(name);
    }

    /** The value of parameter {@code name}, or {@code null}. */
    public XdmAtomicValue get(String name) {
        return values.get(new QName(name));
    }
}
