package io.statecast.messagestore.event;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import net.sf.saxon.expr.parser.Loc;
import net.sf.saxon.om.AttributeInfo;
import net.sf.saxon.om.AttributeMap;
import net.sf.saxon.om.EmptyAttributeMap;
import net.sf.saxon.om.NamespaceMap;
import net.sf.saxon.om.NamespaceUri;
import net.sf.saxon.om.NoNamespaceName;
import net.sf.saxon.om.SequenceIterator;
import net.sf.saxon.om.SmallAttributeMap;
import net.sf.saxon.pattern.nodetest.NodePredicate;
import net.sf.saxon.str.StringView;
import net.sf.saxon.str.EmptyUnicodeString;
import net.sf.saxon.str.UnicodeString;
import net.sf.saxon.tree.iter.EmptyIterator;
import net.sf.saxon.type.BuiltInAtomicType;
import net.sf.saxon.type.SchemaType;
import net.sf.saxon.type.Type;
import net.sf.saxon.type.Untyped;

/**
 * An element of a history document: a name, up to 14 attributes in no namespace, and children
 * given as a list (possibly live, for {@code <HistoryOfEvents>}) or built by a factory the
 * first time anything asks for them.
 */
class HistElement extends HistNode {

    /** Attributes take the sequence numbers just after their element's. */
    static final int MAX_ATTRIBUTES = 14;

    private final HistNode parent;
    private final String name;
    private final String[] attributeNames;
    private final String[] attributeValues;
    private final Object origin;
    private final HistoryNames.NameSet namesBelow;
    private final int fingerprint;
    private Function<HistElement, List<HistNode>> factory;
    private List<? extends HistNode> children;
    private HistAttribute[] attributeNodes;
    private AttributeMap attributeMap;

    /**
     * @param parent          parent node
     * @param seq             sequence number (document order)
     * @param name            local name
     * @param attributeNames  attribute names, or {@code null}
     * @param attributeValues attribute values, parallel to the names
     * @param origin          the Java object this element stands for (a message), or {@code null}
     * @param children        the children (kept, not copied), or {@code null} when {@code factory} builds them
     * @param factory         builds the children on first use, or {@code null}
     * @param namesBelow      the element names its subtree can hold ({@link HistoryNames}), or
     *                        {@code null} when any
     */
    HistElement(HistNode parent, long seq, String name, String[] attributeNames, String[] attributeValues,
            Object origin, List<? extends HistNode> children, Function<HistElement, List<HistNode>> factory,
            HistoryNames.NameSet namesBelow) {
        super(parent.tree, seq);
        if (attributeNames != null && attributeNames.length > MAX_ATTRIBUTES) {
            throw new IllegalArgumentException("at most " + MAX_ATTRIBUTES + " attributes");
        }
        this.parent = parent;
        this.name = name;
        this.attributeNames = attributeNames;
        this.attributeValues = attributeValues;
        this.origin = origin;
        this.children = children;
        this.factory = factory;
        this.namesBelow = namesBelow;
        this.fingerprint = tree.names().fingerprint(name);
    }

    @Override
    public int getFingerprint() {
        return fingerprint;
    }

    /** The element names its subtree can hold, or {@code null} when any. */
    HistoryNames.NameSet namesBelow() {
        return namesBelow;
    }

    @Override
    public boolean hasChildNodes() {
        // answered without building lazy children: a factory always builds some
        return (children == null && factory != null) || !childList().isEmpty();
    }

    /** The Java object this element was made from (an {@code OverlayMessage} for {@code <Message>}), or null. */
    Object origin() {
        return origin;
    }

    @Override
    HistNode parentNode() {
        return parent;
    }

    @Override
    List<? extends HistNode> childList() {
        List<? extends HistNode> c = children;
        if (c == null) {
            c = factory == null ? List.of() : factory.apply(this);
            children = c;
            factory = null;
        }
        return c;
    }

    @Override
    public int getNodeKind() {
        return Type.ELEMENT;
    }

    @Override
    public String getLocalPart() {
        return name;
    }

    @Override
    public UnicodeString getUnicodeStringValue() {
        List<? extends HistNode> c = childList();
        if (c.isEmpty()) {
            return EmptyUnicodeString.getInstance();
        }
        if (c.size() == 1) {
            return c.get(0).getUnicodeStringValue();
        }
        StringBuilder sb = new StringBuilder();
        for (HistNode n : c) {
            sb.append(n.getUnicodeStringValue());
        }
        return StringView.of(sb.toString());
    }

    @Override
    public SchemaType getSchemaType() {
        return Untyped.INSTANCE;
    }

    @Override
    public String getAttributeValue(NamespaceUri uri, String local) {
        if (attributeNames == null || !NamespaceUri.NULL.equals(uri)) {
            return null;
        }
        for (int i = 0; i < attributeNames.length; i++) {
            if (attributeNames[i].equals(local)) {
                return attributeValues[i];
            }
        }
        return null;
    }

    @Override
    public AttributeMap attributes() {
        if (attributeNames == null) {
            return EmptyAttributeMap.getInstance();
        }
        AttributeMap m = attributeMap;
        if (m == null) {
            List<AttributeInfo> list = new ArrayList<>(attributeNames.length);
            for (int i = 0; i < attributeNames.length; i++) {
                list.add(new AttributeInfo(new NoNamespaceName(attributeNames[i]), BuiltInAtomicType.UNTYPED_ATOMIC,
                        attributeValues[i], Loc.NONE, 0));
            }
            m = new SmallAttributeMap(list);
            attributeMap = m;
        }
        return m;
    }

    @Override
    public SequenceIterator iterateAttributeAxis(NodePredicate predicate) {
        if (attributeNames == null) {
            return EmptyIterator.getInstance();
        }
        HistAttribute[] nodes = attributeNodes;
        if (nodes == null) {
            nodes = new HistAttribute[attributeNames.length];
            for (int i = 0; i < nodes.length; i++) {
                nodes[i] = new HistAttribute(this, i, attributeNames[i], attributeValues[i]);
            }
            attributeNodes = nodes;
        }
        return new HistIterator(List.of(nodes), 0, 1, predicate);
    }

    @Override
    public NamespaceMap getAllNamespaces() {
        return NamespaceMap.emptyMap();
    }
}
