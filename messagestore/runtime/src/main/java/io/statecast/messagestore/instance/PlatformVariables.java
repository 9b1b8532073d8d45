package io.statecast.messagestore.instance;

import io.statecast.messagestore.chart.PlatformEntries;
import io.statecast.messagestore.event.AttributeValues;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.node.RttEstimate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.sf.saxon.s9api.XdmAtomicValue;
import net.sf.saxon.s9api.XdmEmptySequence;
import net.sf.saxon.s9api.XdmMap;
import net.sf.saxon.s9api.XdmNode;
import net.sf.saxon.s9api.XdmValue;

/**
 * The value of {@code $_x}, the datamodel's read-only view of the instance and its node (one
 * XPath map, built when an expression that names {@code $_x} runs):
 * <ul>
 *   <li>{@code history}: the instance's history document (empty if it keeps none);</li>
 *   <li>{@code address}: the node's logical address as {@code xs:string};</li>
 *   <li>{@code time}: the node's clock in milliseconds ({@code xs:long});</li>
 *   <li>{@code neighbours}: the neighbours' addresses, one {@code xs:string} each;</li>
 *   <li>{@code rtt}: a map from neighbour address to its smoothed round-trip time in milliseconds
 *       ({@code xs:double}), as the overlay measures it from heartbeat timestamps
 *       ({@link OverlayContext#neighbourRtt}); only neighbours with a sample appear;</li>
 *   <li>{@code rttvar}: likewise, the round-trip time's variation in milliseconds;</li>
 *   <li>{@code rto}: likewise, RFC 6298's retransmission timeout {@code SRTT + max(G, 4 RTTVAR)},
 *       G = 1 ms, without the RFC's 1 s floor ({@link RttEstimate#rtoMillis()}).</li>
 * </ul>
 * Addresses are written as in specs and in the history ({@link AttributeValues#text}):
 * {@code x,y} for a Delaunay node, the id for a tree node, so {@code $_x?rtt?($_x?neighbours[1])}
 * and {@code $_x?rtt?(string(Message/SourceAddress))} find what they name.
 */
final class PlatformVariables {

    private PlatformVariables() {
    }

    /**
     * @param history    the history document, or {@code null} if the instance keeps none
     * @param overlay    the node's context
     * @param nowMillis  the instance's clock
     */
    /**
     * {@code $_x?key} as the compiled subset reads it ({@code ChartHost#platformEntry}), without
     * building the map: the same values as {@link #of}.
     */
    static Object entry(OverlayContext overlay, long nowMillis, String key) {
        return switch (key) {
            case "address" -> AttributeValues.text(overlay.localAddress());
            case "time" -> nowMillis;
            case "history", "neighbours", "rtt", "rttvar", "rto" -> PlatformEntries.NOT_ATOMIC;
            default -> null;
        };
    }

    /** {@code $_x?map?(key)} as the subset reads it: the same values as {@link #of}. */
    static Object lookup(OverlayContext overlay, String map, String key) {
        if (!isTimingMap(map)) {
            return PlatformEntries.NOT_ATOMIC;
        }
        for (LogicalAddress n : overlay.topology().neighbours()) {
            if (AttributeValues.text(n).equals(key)) {
                Optional<RttEstimate> e = overlay.neighbourRtt(n);
                return e.isPresent() ? timing(e.get(), map) : null;
            }
        }
        return null;
    }

    /** {@code $_x?map?*} as the subset reads it; {@code null} when not a map. */
    static Object[] values(OverlayContext overlay, String map) {
        if (!isTimingMap(map)) {
            return null;
        }
        Set<LogicalAddress> around = overlay.topology().neighbours();
        List<Object> out = new ArrayList<>(around.size());
        for (LogicalAddress n : around) {
            Optional<RttEstimate> e = overlay.neighbourRtt(n);
            if (e.isPresent()) {
                out.add(timing(e.get(), map));
            }
        }
        return out.toArray();
    }

    private static boolean isTimingMap(String map) {
        return map.equals("rtt") || map.equals("rttvar") || map.equals("rto");
    }

    private static Double timing(RttEstimate e, String map) {
        return switch (map) {
            case "rtt" -> e.srttMillis();
            case "rttvar" -> e.rttvarMillis();
            default -> e.rtoMillis();
        };
    }

    static XdmValue of(XdmNode history, OverlayContext overlay, long nowMillis) {
        Map<String, XdmValue> m = new LinkedHashMap<>();
        m.put("history", history == null ? XdmEmptySequence.getInstance() : history);
        m.put("address", new XdmAtomicValue(AttributeValues.text(overlay.localAddress())));
        m.put("time", new XdmAtomicValue(nowMillis));
        Set<LogicalAddress> around = overlay.topology().neighbours();
        List<XdmAtomicValue> neighbours = new ArrayList<>(around.size());
        Map<String, XdmValue> rtt = new LinkedHashMap<>();
        Map<String, XdmValue> rttvar = new LinkedHashMap<>();
        Map<String, XdmValue> rto = new LinkedHashMap<>();
        for (LogicalAddress n : around) {
            String key = AttributeValues.text(n);
            neighbours.add(new XdmAtomicValue(key));
            Optional<RttEstimate> e = overlay.neighbourRtt(n);
            if (e.isPresent()) {
                rtt.put(key, new XdmAtomicValue(e.get().srttMillis()));
                rttvar.put(key, new XdmAtomicValue(e.get().rttvarMillis()));
                rto.put(key, new XdmAtomicValue(e.get().rtoMillis()));
            }
        }
        m.put("neighbours", new XdmValue(neighbours));
        m.put("rtt", XdmMap.makeMap(rtt));
        m.put("rttvar", XdmMap.makeMap(rttvar));
        m.put("rto", XdmMap.makeMap(rto));
        return XdmMap.makeMap(m);
    }
}
