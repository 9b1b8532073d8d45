package io.statecast.messagestore.instance;

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
 *   <li>{@code rttvar}: likewise, the round-trip time's variation in milliseconds.</li>
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
    static XdmValue of(XdmNode history, OverlayContext overlay, long nowMillis) {
        Map<String, XdmValue> m = new LinkedHashMap<>();
        m.put("history", history == null ? XdmEmptySequence.getInstance() : history);
        m.put("address", new XdmAtomicValue(AttributeValues.text(overlay.localAddress())));
        m.put("time", new XdmAtomicValue(nowMillis));
        Set<LogicalAddress> around = overlay.topology().neighbours();
        List<XdmAtomicValue> neighbours = new ArrayList<>(around.size());
        Map<String, XdmValue> rtt = new LinkedHashMap<>();
        Map<String, XdmValue> rttvar = new LinkedHashMap<>();
        for (LogicalAddress n : around) {
            String key = AttributeValues.text(n);
            neighbours.add(new XdmAtomicValue(key));
            Optional<RttEstimate> e = overlay.neighbourRtt(n);
            if (e.isPresent()) {
                rtt.put(key, new XdmAtomicValue(e.get().srttMillis()));
                rttvar.put(key, new XdmAtomicValue(e.get().rttvarMillis()));
            }
        }
        m.put("neighbours", new XdmValue(neighbours));
        m.put("rtt", XdmMap.makeMap(rtt));
        m.put("rttvar", XdmMap.makeMap(rttvar));
        return XdmMap.makeMap(m);
    }
}
