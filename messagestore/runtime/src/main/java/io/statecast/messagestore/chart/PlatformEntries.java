package io.statecast.messagestore.chart;

import java.util.ArrayList;
import java.util.List;
import net.sf.saxon.om.Item;
import net.sf.saxon.s9api.XdmAtomicValue;
import net.sf.saxon.s9api.XdmItem;
import net.sf.saxon.s9api.XdmMap;
import net.sf.saxon.s9api.XdmValue;
import net.sf.saxon.type.BuiltInAtomicType;
import net.sf.saxon.value.AtomicValue;
import net.sf.saxon.value.DoubleValue;
import net.sf.saxon.value.Int64Value;
import net.sf.saxon.value.StringValue;

/**
 * Reads entries of {@code $_x} (an XPath map, {@link ChartHost#platform}) as the compiled subset
 * takes them: {@link Long} ({@code xs:integer} within {@code long}), {@link Double}
 * ({@code xs:double}), {@link String} ({@code xs:string}), {@code null} for an absent key, and
 * {@link #NOT_ATOMIC} for anything else (a map, a sequence, a node, another type), which Saxon
 * evaluates. What {@link ChartHost}'s default lookups do; a host may answer faster, with the same
 * values.
 */
public final class PlatformEntries {

    /** An entry that is not one atomic value of the subset's types. */
    public static final Object NOT_ATOMIC = new Object() {
        @Override
        public String toString() {
            return "NOT_ATOMIC";
        }
    };

    private PlatformEntries() {
    }

    /** {@code $_x?key}. */
    public static Object entry(XdmValue platform, String key) {
        if (!(platform instanceof XdmMap m)) {
            return NOT_ATOMIC;
        }
        XdmValue v = m.get(key);
        return v == null ? null : atomic(v);
    }

    /** {@code $_x?map?(key)}, or {@link #NOT_ATOMIC} when {@code $_x?map} is not a map. */
    public static Object lookup(XdmValue platform, String map, String key) {
        XdmMap inner = map(platform, map);
        if (inner == null) {
            return NOT_ATOMIC;
        }
        XdmValue v = inner.get(key);
        return v == null ? null : atomic(v);
    }

    /** {@code $_x?map?*}, or {@code null} when {@code $_x?map} is not a map. */
    public static Object[] values(XdmValue platform, String map) {
        XdmMap inner = map(platform, map);
        if (inner == null) {
            return null;
        }
        List<Object> out = new ArrayList<>(inner.size());
        for (XdmValue v : inner.values()) {
            out.add(atomic(v));
        }
        return out.toArray();
    }

    private static XdmMap map(XdmValue platform, String map) {
        if (!(platform instanceof XdmMap m)) {
            return null;
        }
        XdmValue inner = m.get(map);
        return inner instanceof XdmMap im ? im : null;
    }

    private static Object atomic(XdmValue v) {
        if (v.size() != 1 || !(v.itemAt(0) instanceof XdmAtomicValue a)) {
            return NOT_ATOMIC;
        }
        Item u = ((XdmItem) a).getUnderlyingValue();
        if (u instanceof DoubleValue d) {
            return d.getDoubleValue();
        }
        if (u instanceof Int64Value i) {
            return i.longValue();
        }
        if (u instanceof StringValue s && ((AtomicValue) s).getPrimitiveType() == BuiltInAtomicType.STRING) {
            return s.getStringValue();
        }
        return NOT_ATOMIC;
    }
}
