package io.statecast.messagestore.tools.check;

import io.statecast.messagestore.event.AttributeTest;
import io.statecast.messagestore.event.FilterPins;
import io.statecast.messagestore.event.MessageAttribute;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.tools.check.AbstractNode.Peer;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.OverlayMessage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The messages the checker feeds an instance, made from the spec's message filters: for each
 * message event, one concrete message per origin that satisfies every test of its filter.
 *
 * <ul>
 *   <li>Origin: a filter with {@code SourceAddress=local} describes a message of the node's own
 *       application (source and previous hop this node; a unicast goes to each peer in turn, so a
 *       query comparing an acknowledgement's source with the destination can become true);
 *       otherwise the message comes from each abstract peer (previous hop the peer; source the peer
 *       in message scope, one remote node for every message in flow scope, since a flow-scope
 *       instance only sees one source).</li>
 *   <li>A unicast from a peer is addressed to this node unless the filter names a destination.
 *       When the service processes intermediate unicasts (the metaop, default true) and some
 *       filter tests the destination (so a relayed unicast can fire other events than one for
 *       this node), the unicast from the parent addressed to a node beyond this one
 *       ({@code far}) is an input too: one peer only, to keep the alphabet small.</li>
 *   <li>Delivery mode: the filter's; else, for a payload message, each mode the service
 *       declares; for a control message (acknowledgements, requests: usually hop to hop) unicast
 *       if declared, else the first declared mode.</li>
 *   <li>Type and payload: the filter's type; {@code MessageKind=data} or no type at all gives a
 *       payload message (type 0x80); a control kind without a type gets type 1.</li>
 *   <li>MessageID: the filter's; else, in message scope, one identifier shared by every message
 *       (one instance); in flow scope, where one instance sees every message of its source,
 *       {@value #FLOW_IDS} consecutive identifiers from the flow's first ({@link #MESSAGE_ID},
 *       {@code +1}, {@code +2}): enough for a query to see a successor, a hole and a duplicate,
 *       so ordering and counting logic can fire. The state abstraction tells them apart only
 *       where a query reads the MessageIdentifier ({@link StateKey}).</li>
 * </ul>
 * A message then fires whatever {@link ServiceSpec#matchMessage} says (possibly several events,
 * as at run time). Identical messages are kept once.
 */
final class Alphabet {

    /** The MessageID of the checked instance. */
    static final long MESSAGE_ID = 4242;
    /** How many distinct MessageIDs a flow-scope instance is fed: a successor and a hole need three. */
    static final int FLOW_IDS = 3;
    private static final byte[] PAYLOAD = "statecast-check".getBytes(StandardCharsets.US_ASCII);

    private Alphabet() {
    }

    /** The arrivals for {@code spec} on {@code node}, in spec order of the events that made them. */
    static List<Input.Arrival> of(ServiceSpec spec, AbstractNode node) {
        Map<OverlayMessage, String> messages = new LinkedHashMap<>();
        for (MessageEventDefinition d : spec.messageEvents()) {
            for (Map.Entry<String, OverlayMessage> e : instantiate(spec, node, d).entrySet()) {
                messages.putIfAbsent(e.getValue(), e.getKey());
            }
        }
        List<Input.Arrival> out = new ArrayList<>();
        for (Map.Entry<OverlayMessage, String> e : messages.entrySet()) {
            List<MessageEventDefinition> fires = spec.matchMessage(e.getKey(), node.self());
            if (!fires.isEmpty()) {
                out.add(new Input.Arrival(out.size(), e.getValue(), e.getKey(), fires));
            }
        }
        return List.copyOf(out);
    }

    /** The address family of the filters' literal addresses (tree when they name none). */
    static LogicalAddress.Family family(ServiceSpec spec) {
        for (MessageEventDefinition d : spec.messageEvents()) {
            for (AttributeTest t : d.filter().tests()) {
                if (t instanceof AttributeTest.AddressIs a && a.address() != null) {
                    return a.address().family();
                }
            }
        }
        return LogicalAddress.Family.TREE;
    }

    private static Map<String, OverlayMessage> instantiate(ServiceSpec spec, AbstractNode node,
            MessageEventDefinition d) {
        FilterPins c = FilterPins.of(d.filter(), node.self());
        List<DeliveryMode> modes = new ArrayList<>();
        TreeSet<DeliveryMode> declared = new TreeSet<>(spec.service().deliveryModes());
        if (c.mode() != null) {
            modes.add(c.mode());
        } else if (c.carriesPayload()) {
            modes.addAll(declared);
        } else {
            modes.add(declared.contains(DeliveryMode.UNICAST) ? DeliveryMode.UNICAST : declared.first());
        }
        Map<String, OverlayMessage> out = new LinkedHashMap<>();
        int ids = c.messageId() == null && !spec.service().scope().perMessage() ? FLOW_IDS : 1;
        for (int k = 0; k < ids; k++) {
            long id = c.messageId() != null ? c.messageId() : MESSAGE_ID + k;
            String suffix = k == 0 ? "" : " (id first+" + k + ")";
            instantiate(spec, node, c, modes, id, suffix, out);
        }
        return out;
    }

    private static void instantiate(ServiceSpec spec, AbstractNode node, FilterPins c, List<DeliveryMode> modes,
            long id, String suffix, Map<String, OverlayMessage> out) {
        boolean local = node.self().equals(c.source());
        boolean transit = spec.metaops().processIntermediateUnicastMessage() && testsDestination(spec);
        for (DeliveryMode mode : modes) {
            String how = (modes.size() > 1 ? " (" + mode.name().toLowerCase(Locale.ROOT) + ")" : "") + suffix;
            if (local) {
                if (mode == DeliveryMode.UNICAST && c.destination() == null) {
                    for (Peer p : node.peers()) {
                        put(out, "local to " + p.name() + how, build(c, spec, id, mode, node.self(), p.address(),
                                node.self()));
                    }
                } else {
                    put(out, "local" + how, build(c, spec, id, mode, node.self(), c.destination(), node.self()));
                }
                continue;
            }
            for (Peer p : node.peers()) {
                LogicalAddress source = c.source() != null ? c.source()
                        : !spec.service().scope().perMessage() ? node.remote() : p.address();
                if (mode != DeliveryMode.UNICAST || c.destination() != null) {
                    put(out, p.name() + how, build(c, spec, id, mode, source, c.destination(), p.address()));
                    continue;
                }
                put(out, p.name() + how, build(c, spec, id, mode, source, node.self(), p.address()));
                if (transit && p == node.peers().get(0)) { // a unicast this node relays: addressed beyond it
                    put(out, p.name() + " to far" + how, build(c, spec, id, mode, source, node.far(), p.address()));
                }
            }
        }
    }

    /** Whether some filter tests the destination (so a relayed unicast may fire other events). */
    private static boolean testsDestination(ServiceSpec spec) {
        for (MessageEventDefinition d : spec.messageEvents()) {
            for (AttributeTest t : d.filter().tests()) {
                if (t instanceof AttributeTest.AddressIs a && a.attribute() == MessageAttribute.DESTINATION_ADDRESS) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void put(Map<String, OverlayMessage> out, String origin, OverlayMessage m) {
        if (m != null) {
            out.putIfAbsent(origin, m);
        }
    }

    /** A message meeting the filter, or {@code null} when it cannot be met with these addresses. */
    private static OverlayMessage build(FilterPins c, ServiceSpec spec, long mid, DeliveryMode m, LogicalAddress src,
            LogicalAddress dst, LogicalAddress prev) {
        LogicalAddress destination = m == DeliveryMode.UNICAST ? dst : null;
        if (m == DeliveryMode.UNICAST && destination == null) {
            return null;
        }
        try {
            return new OverlayMessage(m, c.hopLimit() != null ? c.hopLimit() : 16, src, destination,
                    c.previousHop() != null ? c.previousHop() : prev, c.root(),
                    c.extensions(spec.service().serviceId(), mid, PAYLOAD.clone()));
        } catch (IllegalArgumentException e) {
            return null; // addresses of two families: no such message exists
        }
    }
}
