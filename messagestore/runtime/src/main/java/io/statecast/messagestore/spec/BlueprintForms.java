package io.statecast.messagestore.spec;

import io.statecast.messagestore.event.AttributeValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Reads the forms the blueprint's printed listings use (thesis §5.1.2) as today's forms, before
 * the spec is validated: each mapped form gives exactly one warning (file:line) naming the old
 * form and the new one, and the validator then checks the spec as if it had been written in the
 * new form. What cannot be mapped without guessing is refused with an error.
 *
 * <table>
 *   <caption>The mapping (docs/spec-format.md, "Listings as printed")</caption>
 *   <tr><th>As printed</th><th>Read as</th></tr>
 *   <tr><td>{@code action:create/set/execute name="sendMessage"}</td>
 *       <td>{@code sendDataMessage} or {@code sendControlMessage}, by {@link #kindOf the rule below}</td></tr>
 *   <tr><td>{@code DeliveryMode} 1 / 3 (an {@code action:set value}, a filter, the service section)</td>
 *       <td>{@code multicast} / {@code unicast}: the blueprint's own numbering (Example Action 4:
 *       "delivery mode of 1 indicates multicast"; Examples 2 and 3 and §5.1.4.4: 3 is unicast),
 *       not our wire codes (unicast 1, multicast 2, flood 3). Any other number is refused: the
 *       blueprint numbers no other mode.</td></tr>
 *   <tr><td>no {@code <data name="service">}</td>
 *       <td>a derived section: see {@link #deriveService}</td></tr>
 * </table>
 *
 * <p>The DOM is rewritten in place; elements keep their identity and positions, so every later
 * problem still points at the listing's text. Not thread-safe; one call per parsed document.
 */
final class BlueprintForms {

    /** The blueprint's sendMessage (§4.2.3.1, §5.1.2.4), split by its Table 5.2. */
    static final String SEND_MESSAGE = "sendMessage";

    /**
     * Derived ServiceIDs lie in {@code [DERIVED_SERVICE_ID_BASE, 2^31-1]}: the top 2^24 ids, which
     * deployments should keep free so a derived id never takes a real service's.
     */
    static final int DERIVED_SERVICE_ID_BASE = 0x7F00_0000;

    /** User data on an {@code action:create} whose sendMessage was refused here: the validator says nothing more. */
    static final String REFUSED_KEY = "statecast.blueprint.refused";

    private static final Pattern EVENT_NAME = Pattern.compile("@name\\s*=\\s*(?:'([^']*)'|\"([^\"]*)\")");
    private static final Pattern NUMBER = Pattern.compile("[+-]?[0-9]+");
    private static final Pattern SERVICE_NAME_CHAR = Pattern.compile("[^A-Za-z0-9_.\\-]");
    private static final int MAX_SERVICE_NAME = 64;

    /** What a message is: the rule that splits sendMessage needs it. */
    enum Kind {
        DATA, CONTROL
    }

    private final Document document;
    private final String source;
    private final List<Problem> problems;

    private BlueprintForms(Document document, String source, List<Problem> problems) {
        this.document = document;
        this.source = source;
        this.problems = problems;
    }

    /**
     * Rewrites the listings' forms of a parsed spec into today's, adding one warning per form
     * mapped and an error per form refused.
     *
     * @param document the parsed spec, changed in place
     * @param source   the spec's file name or URI (names a derived service)
     * @param problems receives the warnings and errors
     */
    static void apply(Document document, String source, List<Problem> problems) {
        Element root = document.getDocumentElement();
        if (root == null || !isScxml(root, "scxml")) {
            return; // the validator refuses it
        }
        BlueprintForms forms = new BlueprintForms(document, source, problems);
        forms.deliveryModes(root);
        forms.sendMessages(root);
        forms.deriveService(root);
    }

    // ------------------------------------------------------------------ delivery modes

    /** Numeric DeliveryMode in the datamodel sections and in action:set values. */
    private void deliveryModes(Element root) {
        for (Element e : descendants(root)) {
            if (isScxml(e, "DeliveryMode") && insideDatamodel(e)) {
                String text = e.getTextContent().strip();
                String mode = numericMode(e, text, "<DeliveryMode>" + text + "</DeliveryMode>");
                if (mode != null) {
                    e.setTextContent(mode);
                }
            } else if (isAction(e, "set") && ActionField.DELIVERY_MODE.path().equals(attr(e, "field"))
                    && attr(e, "value") != null) {
                String text = attr(e, "value").strip();
                String mode = numericMode(e, text, "value=\"" + text + "\"");
                if (mode != null) {
                    e.setAttribute("value", mode);
                }
            }
        }
    }

    /** The name for the blueprint's code, with its warning; {@code null} if not a number (or refused). */
    private String numericMode(Element at, String text, String printed) {
        if (!NUMBER.matcher(text).matches()) {
            return null;
        }
        String mode = switch (text.replace("+", "")) {
            case "1" -> "multicast";
            case "3" -> "unicast";
            default -> null;
        };
        if (mode == null) {
            return null; // left as written: the schema or ActionField refuses it, once
        }
        warning(at, "DeliveryMode " + printed + " is the blueprint's numbering (1 = multicast, 3 = unicast), read as "
                + mode + "; write " + mode);
        return mode;
    }

    private static boolean insideDatamodel(Element e) {
        for (Node n = e.getParentNode(); n instanceof Element p; n = p.getParentNode()) {
            if (isScxml(p, "datamodel")) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ sendMessage

    /**
     * Every {@code action:create name="sendMessage"}, with the sets that follow it in the same
     * block up to its {@code action:execute} (or the next create of that name), becomes one group
     * renamed together. A set or execute of sendMessage without a create before it in its block is
     * left alone: the validator refuses it with the hint it always gave.
     */
    private void sendMessages(Element root) {
        Map<String, Kind> eventKinds = messageEventKinds(root);
        for (Element e : descendants(root)) {
            if (!isAction(e, "create") || !SEND_MESSAGE.equals(attr(e, "name"))) {
                continue;
            }
            List<Element> group = new ArrayList<>();
            group.add(e);
            for (Node n = e.getNextSibling(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element s && SpecNamespaces.ACTION.equals(s.getNamespaceURI())
                        && SEND_MESSAGE.equals(attr(s, "name"))) {
                    if (s.getLocalName().equals("create")) {
                        break;
                    }
                    group.add(s);
                    if (s.getLocalName().equals("execute")) {
                        break;
                    }
                }
            }
            mapSendMessage(group, eventKinds);
        }
    }

    private void mapSendMessage(List<Element> group, Map<String, Kind> eventKinds) {
        Element create = group.get(0);
        Element payload = null;
        Element type = null;
        Element copy = null;
        for (Element s : group) {
            if (!s.getLocalName().equals("set")) {
                continue;
            }
            String field = attr(s, "field");
            if (ActionField.PAYLOAD.path().equals(field)) {
                payload = s;
            } else if (ActionField.MESSAGE_TYPE.path().equals(field)) {
                type = s;
            } else if (ActionField.MESSAGE.path().equals(field)) {
                copy = s;
            }
        }
        Decision d = kindOf(payload, type, copy, eventKinds);
        if (d.refusal != null) {
            create.setUserData(REFUSED_KEY, Boolean.TRUE, null);
            error(d.at == null ? create : d.at, d.refusal);
            return;
        }
        String name = d.kind == Kind.DATA ? Primitive.SEND_DATA_MESSAGE.specName()
                : Primitive.SEND_CONTROL_MESSAGE.specName();
        for (Element s : group) {
            s.setAttribute("name", name);
        }
        if (d.kind == Kind.DATA && type != null) {
            // MessageType 0x80 is what sendDataMessage always sends; it takes no such field.
            type.getParentNode().removeChild(type);
        }
        warning(create, "sendMessage (the blueprint's listings) read as " + name + " because " + d.reason
                + " (its Table 5.2 splits sendMessage into sendDataMessage and sendControlMessage); write " + name);
    }

    /** The outcome of the rule: a kind and why, or a refusal and where. */
    private record Decision(Kind kind, String reason, String refusal, Element at) {
    }

    /**
     * The rule, first match wins:
     * <ol>
     *   <li>a {@code Message/Payload} set and a {@code Message/MessageType} other than the payload
     *       type: refused (a control message carries no payload, a data message is always 0x80);</li>
     *   <li>a {@code Message/Payload} set, or a MessageType literal of the payload type
     *       (-128, 128, 0x80): data;</li>
     *   <li>any other {@code Message/MessageType} (a literal, a parameter or an XPath): control;</li>
     *   <li>a {@code Message} copied from the history: the kind of the messages it copies, read from
     *       the filters of the events its XPath names ({@code @name='…'}): all carry a payload
     *       (MessageType of the payload type, or MessageKind data): data; none does (another
     *       MessageType, or MessageKind control): control; otherwise refused, since a wrong guess
     *       would silently drop a payload or send a control message as data;</li>
     *   <li>nothing of the above: control (no payload to carry).</li>
     * </ol>
     */
    private static Decision kindOf(Element payload, Element type, Element copy, Map<String, Kind> eventKinds) {
        boolean payloadType = false;
        if (type != null) {
            String v = attr(type, "value");
            payloadType = v != null && isPayloadType(v);
            if (payload != null && !payloadType) {
                return new Decision(null, null, "sendMessage sets Message/Payload (line " + SourcePosition.of(payload)
                        .line() + ") and a MessageType other than 0x80: a control message carries no payload and a "
                        + "data message is always MessageType 0x80 (Table 5.2), so it is neither; write "
                        + "sendControlMessage without the payload or sendDataMessage without the type", type);
            }
        }
        if (payload != null) {
            return new Decision(Kind.DATA, "it sets Message/Payload", null, null);
        }
        if (payloadType) {
            return new Decision(Kind.DATA, "it sets the payload MessageType " + attr(type, "value").strip(), null, null);
        }
        if (type != null) {
            String v = attr(type, "value");
            return new Decision(Kind.CONTROL, v != null ? "it sets MessageType " + v.strip()
                    : "it sets Message/MessageType", null, null);
        }
        if (copy != null) {
            String xpath = attr(copy, "xpath");
            Set<String> names = new LinkedHashSet<>();
            if (xpath != null) {
                Matcher m = EVENT_NAME.matcher(xpath);
                while (m.find()) {
                    names.add(m.group(1) != null ? m.group(1) : m.group(2));
                }
            }
            Set<Kind> kinds = new LinkedHashSet<>();
            List<String> unknown = new ArrayList<>();
            for (String n : names) {
                Kind k = eventKinds.get(n);
                if (k == null) {
                    unknown.add(n);
                } else {
                    kinds.add(k);
                }
            }
            if (names.isEmpty() || !unknown.isEmpty() || kinds.size() != 1) {
                String why = names.isEmpty() ? "its Message XPath names no event (Event[@name='…'])"
                        : !unknown.isEmpty() ? "the filter of event " + String.join(", ", unknown)
                        + " fixes neither a MessageType nor a MessageKind"
                        : "it copies both data and control messages (events " + String.join(", ", names) + ")";
                return new Decision(null, null, "cannot tell whether sendMessage sends a data or a control message: "
                        + why + "; write sendDataMessage or sendControlMessage", copy);
            }
            Kind k = kinds.iterator().next();
            return new Decision(k, "the message it copies (event " + String.join(", ", names) + ") "
                    + (k == Kind.DATA ? "carries a payload" : "is a control message"), null, null);
        }
        return new Decision(Kind.CONTROL, "it sets no payload and copies no message", null, null);
    }

    private static boolean isPayloadType(String literal) {
        try {
            return AttributeValues.byteValue(literal) == (byte) 0x80;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The kind of each basic message event whose filter fixes it. */
    private static Map<String, Kind> messageEventKinds(Element root) {
        Map<String, Kind> kinds = new TreeMap<>();
        for (Element e : descendants(root)) {
            if (!isScxml(e, "Event") || !(e.getParentNode() instanceof Element basic) || !isScxml(basic, "Basic")) {
                continue;
            }
            String name = attr(e, "name");
            for (Element message : children(e)) {
                if (!isScxml(message, "Message") || name == null) {
                    continue;
                }
                for (Element test : children(message)) {
                    String text = test.getTextContent().strip();
                    if (isScxml(test, "MessageType")) {
                        try {
                            kinds.put(name, AttributeValues.byteValue(text) == (byte) 0x80 ? Kind.DATA : Kind.CONTROL);
                        } catch (IllegalArgumentException ex) {
                            // the validator reports the value
                        }
                    } else if (isScxml(test, "MessageKind")) {
                        String k = text.toLowerCase(Locale.ROOT);
                        if (k.equals("data") || k.equals("control")) {
                            kinds.put(name, k.equals("data") ? Kind.DATA : Kind.CONTROL);
                        }
                    }
                }
            }
        }
        return kinds;
    }

    // ------------------------------------------------------------------ service section

    /**
     * A spec without a service section (the blueprint's listing of it was lost in extraction)
     * gets one derived from what it says, with a warning naming each assumption:
     * <ul>
     *   <li>ServiceName: {@code <scxml name>}, else the file name without directory and extension,
     *       each character other than letters, digits, {@code _ . -} replaced by {@code _}, at most
     *       64 characters;</li>
     *   <li>ServiceID: {@link #DERIVED_SERVICE_ID_BASE} plus the low 24 bits of the CRC-32 of the
     *       name's UTF-8: stable for a name, and apart from the ids real services use. It is a
     *       placeholder; a deployment must give the spec a service section with a real one;</li>
     *   <li>DeliveryMode: those its message filters and {@code action:set} literals name, in the
     *       order unicast, multicast, flood; all three if it names none;</li>
     *   <li>Scope: {@code message}, the blueprint's one instance per message.</li>
     * </ul>
     */
    private void deriveService(Element root) {
        Element datamodel = null;
        for (Element c : children(root)) {
            if (isScxml(c, "datamodel")) {
                datamodel = c;
                for (Element d : children(c)) {
                    if (isScxml(d, "data") && (SpecValidator.SERVICE.equals(attr(d, "name"))
                            || (attr(d, "name") == null && SpecValidator.SERVICE.equals(attr(d, "id"))))) {
                        return;
                    }
                }
                break;
            }
        }
        String given = attr(root, "name");
        String origin = given != null && !given.isBlank() ? "<scxml name>" : "the file name";
        String name = serviceName(given != null && !given.isBlank() ? given : fileStem(source));
        CRC32 crc = new CRC32();
        crc.update(name.getBytes(StandardCharsets.UTF_8));
        int id = DERIVED_SERVICE_ID_BASE + (int) (crc.getValue() & 0xFF_FFFF);
        List<String> modes = usedModes(root);
        boolean assumedModes = modes.isEmpty();
        if (assumedModes) {
            modes = List.of("unicast", "multicast", "flood");
        }

        String ns = SpecNamespaces.SCXML;
        Element service = document.createElementNS(ns, "data");
        service.setAttribute("name", SpecValidator.SERVICE);
        append(service, "ServiceName", name);
        append(service, "ServiceID", Integer.toString(id));
        for (String m : modes) {
            append(service, "DeliveryMode", m);
        }
        append(service, "Scope", "message");
        if (datamodel == null) {
            datamodel = document.createElementNS(ns, "datamodel");
            copyPosition(root, datamodel);
            root.insertBefore(datamodel, root.getFirstChild());
        }
        datamodel.insertBefore(service, datamodel.getFirstChild());
        copyPositions(root, service);
        warning(root, "no <data name=\"service\"> section (the blueprint's listings print none): assumed "
                + "ServiceName " + name + " (from " + origin + "), ServiceID " + id + " (derived from the name, a "
                + "placeholder: a deployment must set a real one), DeliveryMode " + String.join(" ", modes)
                + (assumedModes ? " (the spec names none)" : " (as its events and actions use)")
                + ", Scope message; write the section");
    }

    private static String serviceName(String raw) {
        String n = SERVICE_NAME_CHAR.matcher(raw.strip()).replaceAll("_");
        if (n.length() > MAX_SERVICE_NAME) {
            n = n.substring(0, MAX_SERVICE_NAME);
        }
        return n.isEmpty() ? "service" : n;
    }

    private static String fileStem(String source) {
        String s = source == null ? "" : source;
        int slash = Math.max(s.lastIndexOf('/'), s.lastIndexOf('\\'));
        s = s.substring(slash + 1);
        int dot = s.lastIndexOf('.');
        return dot > 0 ? s.substring(0, dot) : s;
    }

    /** The delivery modes named (after the numeric ones were read) by filters and action:set literals. */
    private static List<String> usedModes(Element root) {
        Set<String> used = new LinkedHashSet<>();
        for (Element e : descendants(root)) {
            String text = null;
            if (isScxml(e, "DeliveryMode") && insideDatamodel(e)) {
                text = e.getTextContent();
            } else if (isAction(e, "set") && ActionField.DELIVERY_MODE.path().equals(attr(e, "field"))) {
                text = attr(e, "value");
            }
            if (text != null) {
                try {
                    used.add(AttributeValues.name(AttributeValues.deliveryMode(text)));
                } catch (IllegalArgumentException ex) {
                    // reported by the validator
                }
            }
        }
        List<String> ordered = new ArrayList<>();
        for (String m : List.of("unicast", "multicast", "flood")) {
            if (used.contains(m)) {
                ordered.add(m);
            }
        }
        return ordered;
    }

    private void append(Element parent, String local, String text) {
        Element c = document.createElementNS(SpecNamespaces.SCXML, local);
        c.setTextContent(text);
        parent.appendChild(c);
    }

    /** New elements point at the element they were derived for, so a later problem has a line. */
    private static void copyPositions(Element from, Element to) {
        copyPosition(from, to);
        for (Element c : children(to)) {
            copyPositions(from, c);
        }
    }

    private static void copyPosition(Element from, Element to) {
        to.setUserData(SourcePosition.START_KEY, SourcePosition.of(from), null);
        to.setUserData(SourcePosition.CONTENT_KEY, SourcePosition.contentOf(from), null);
    }

    // ------------------------------------------------------------------ helpers

    private void warning(Element at, String message) {
        SourcePosition p = SourcePosition.of(at);
        problems.add(Problem.warning(p.line(), p.column(), message));
    }

    private void error(Element at, String message) {
        SourcePosition p = SourcePosition.of(at);
        problems.add(Problem.error(p.line(), p.column(), message));
    }

    private static boolean isScxml(Element e, String local) {
        return SpecNamespaces.SCXML.equals(e.getNamespaceURI()) && local.equals(e.getLocalName());
    }

    private static boolean isAction(Element e, String local) {
        return SpecNamespaces.ACTION.equals(e.getNamespaceURI()) && local.equals(e.getLocalName());
    }

    private static String attr(Element e, String name) {
        return e.hasAttributeNS(null, name) ? e.getAttributeNS(null, name) : null;
    }

    private static List<Element> children(Element parent) {
        return SpecValidator.elements(parent);
    }

    /** All elements below {@code root} in document order (a snapshot: safe to change while iterating). */
    private static List<Element> descendants(Element root) {
        List<Element> out = new ArrayList<>();
        collect(root, out);
        return out;
    }

    private static void collect(Element e, List<Element> out) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c) {
                out.add(c);
                collect(c, out);
            }
        }
    }
}
