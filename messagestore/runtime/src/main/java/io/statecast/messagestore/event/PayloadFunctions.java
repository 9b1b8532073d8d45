package io.statecast.messagestore.event;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.sf.saxon.om.NodeInfo;
import net.sf.saxon.s9api.ExtensionFunction;
import net.sf.saxon.s9api.ItemType;
import net.sf.saxon.s9api.OccurrenceIndicator;
import net.sf.saxon.s9api.Processor;
import net.sf.saxon.s9api.QName;
import net.sf.saxon.s9api.SaxonApiException;
import net.sf.saxon.s9api.SequenceType;
import net.sf.saxon.s9api.XdmAtomicValue;
import net.sf.saxon.s9api.XdmItem;
import net.sf.saxon.s9api.XdmNode;
import net.sf.saxon.s9api.XdmValue;
import net.sf.saxon.value.Base64BinaryValue;
import net.sf.saxon.value.BinaryValue;

/**
 * The {@code payload:} functions of spec expressions ({@link PayloadOps}), in namespace
 * {@value #NAMESPACE}, bound to the prefix {@value #PREFIX} in every XPath and XQuery of a spec.
 * Specs have no variables, so a computed payload reaches a message the way every value does:
 * through an action's {@code xpath}, e.g.
 * {@code field="Message/Payload" xpath="payload:xor(payload:parity(…/Payload), payload:parity(…/Payload))"}.
 *
 * <p>An argument is bytes: a {@code <Payload>} (or bytes field) of the history gives its bytes, an
 * {@code xs:base64Binary} (another function's result) its octets, anything else the UTF-8 of its
 * string value (as a literal payload); the empty sequence is no bytes. Results are
 * {@code xs:base64Binary}, which an action takes as bytes, or {@code xs:integer}.
 */
public final class PayloadFunctions {

    /** Namespace of the functions. */
    public static final String NAMESPACE = "http://statecast.io/ns/payload";
    /** The prefix every spec expression has bound to {@link #NAMESPACE}. */
    public static final String PREFIX = "payload";

    private static final SequenceType BYTES_ARG = SequenceType.makeSequenceType(ItemType.ANY_ITEM,
            OccurrenceIndicator.ZERO_OR_ONE);
    private static final SequenceType ITEMS_ARG = SequenceType.makeSequenceType(ItemType.ANY_ITEM,
            OccurrenceIndicator.ZERO_OR_MORE);
    private static final SequenceType BYTES_RESULT = SequenceType.makeSequenceType(ItemType.BASE64_BINARY,
            OccurrenceIndicator.ONE);
    private static final SequenceType INTEGER = SequenceType.makeSequenceType(ItemType.INTEGER, OccurrenceIndicator.ONE);

    private PayloadFunctions() {
    }

    /** Registers the functions with {@code processor}. */
    static void register(Processor processor) {
        for (ExtensionFunction f : List.of(
                function("xor", BYTES_RESULT, new SequenceType[] {BYTES_ARG, BYTES_ARG},
                        a -> binary(PayloadOps.xor(bytes(a[0]), bytes(a[1])))),
                function("xor-parity", BYTES_RESULT, new SequenceType[] {ITEMS_ARG}, a -> binary(PayloadOps.xorParity(each(a[0])))),
                function("parity", BYTES_RESULT, new SequenceType[] {BYTES_ARG}, a -> binary(PayloadOps.parity(bytes(a[0])))),
                function("recover", BYTES_RESULT, new SequenceType[] {BYTES_ARG}, a -> binary(PayloadOps.recover(bytes(a[0])))),
                function("length", INTEGER, new SequenceType[] {BYTES_ARG}, a -> new XdmAtomicValue(bytes(a[0]).length)),
                function("sha256", BYTES_RESULT, new SequenceType[] {BYTES_ARG, INTEGER},
                        a -> binary(PayloadOps.sha256(bytes(a[0]), digestLength(a[1])))))) {
            processor.registerExtensionFunction(f);
        }
    }

    private interface Body {
        XdmValue apply(XdmValue[] arguments) throws SaxonApiException;
    }

    private static ExtensionFunction function(String name, SequenceType result, SequenceType[] arguments, Body body) {
        QName qname = new QName(NAMESPACE, name);
        return new ExtensionFunction() {
            @Override
            public QName getName() {
                return qname;
            }

            @Override
            public SequenceType getResultType() {
                return result;
            }

            @Override
            public SequenceType[] getArgumentTypes() {
                return arguments.clone();
            }

            @Override
            public XdmValue call(XdmValue[] a) throws SaxonApiException {
                try {
                    return body.apply(a);
                } catch (IllegalArgumentException e) {
                    throw new SaxonApiException(PREFIX + ":" + name + "(): " + e.getMessage());
                }
            }
        };
    }

    private static XdmValue binary(byte[] b) {
        return new XdmAtomicValue(new Base64BinaryValue(b));
    }

    private static int digestLength(XdmValue v) throws SaxonApiException {
        long n = ((XdmAtomicValue) v.itemAt(0)).getLongValue();
        if (n < 1 || n > PayloadOps.SHA256_BYTES) {
            throw new IllegalArgumentException("digest length " + n + " outside 1.." + PayloadOps.SHA256_BYTES);
        }
        return (int) n;
    }

    /** The bytes of every item of {@code v} (at most {@link PayloadOps#MAX_XOR_ITEMS}). */
    private static List<byte[]> each(XdmValue v) {
        if (v.size() > PayloadOps.MAX_XOR_ITEMS) {
            throw new IllegalArgumentException(v.size() + " items > MAX_XOR_ITEMS=" + PayloadOps.MAX_XOR_ITEMS);
        }
        List<byte[]> out = new java.util.ArrayList<>(v.size());
        for (XdmItem item : v) {
            out.add(bytes(item));
        }
        return out;
    }

    /** An argument's bytes, as the class comment says. */
    static byte[] bytes(XdmValue v) {
        if (v.size() == 0) {
            return new byte[0];
        }
        XdmItem item = v.itemAt(0);
        if (item instanceof XdmNode node) {
            NodeInfo n = node.getUnderlyingNode();
            if (n instanceof HistLeaf leaf && leaf.bytes() != null) {
                return leaf.bytes();
            }
        } else if (item instanceof XdmAtomicValue a && a.getUnderlyingValue() instanceof BinaryValue b) {
            return b.getBinaryValue();
        }
        String s = item.getStringValue();
        if (s.length() > PayloadOps.MAX_BYTES) {
            throw new IllegalArgumentException("text of " + s.length() + " characters > MAX_BYTES=" + PayloadOps.MAX_BYTES);
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
