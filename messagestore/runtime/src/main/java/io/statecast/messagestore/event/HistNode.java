package io.statecast.messagestore.event;

import java.util.List;
import net.sf.saxon.om.AtomicSequence;
import net.sf.saxon.om.GNode;
import net.sf.saxon.om.Genre;
import net.sf.saxon.om.NamespaceBinding;
import net.sf.saxon.om.NamespaceMap;
import net.sf.saxon.om.NamespaceUri;
import net.sf.saxon.om.NodeInfo;
import net.sf.saxon.om.SequenceIterator;
import net.sf.saxon.om.TreeInfo;
import net.sf.saxon.pattern.nodetest.NodePredicate;
import net.sf.saxon.s9api.Location;
import net.sf.saxon.tree.iter.EmptyIterator;
import net.sf.saxon.value.StringValue;

/**
 * A node of an instance's history document, implemented directly on Saxon's {@link NodeInfo}
 * so the document can grow by appending events without being rebuilt.
 *
 * <p>Why not a Saxon tree: Saxon's own trees (TinyTree, linked tree) are built once by a
 * builder; appending to one means copying. These nodes are plain objects: an event's subtree is
 * made once when the event is recorded, its children only when a query first walks into it,
 * and the document's root element simply lists the event subtrees the history holds.
 *
 * <p>Document order is a sequence number: every history entry gets a block of numbers when it
 * is appended (later entries, larger numbers), and each node of the entry's subtree a number
 * inside the block in pre-order (an element, then its attributes, then its children). Nodes are
 * created at most once each and cached, so identity is node identity.
 *
 * <p>Confined to the thread that owns the instance, like the rest of the instance.
 */
abstract class HistNode implements NodeInfo {

    final HistTree tree;
    final long seq;

    HistNode(HistTree tree, long seq) {
        this.tree = tree;
        this.seq = seq;
    }

    /** The parent, or {@code null} for the document node and nodes of evicted entries. */
    abstract HistNode parentNode();

    /** Children in document order (elements and text; never attributes). */
    List<? extends HistNode> childList() {
        return List.of();
    }

    @Override
    public final TreeInfo getTreeInfo() {
        return tree;
    }

    @Override
    public final boolean equals(Object other) {
        return this == other;
    }

    @Override
    public final int hashCode() {
        return Long.hashCode(seq) * 31 + System.identityHashCode(tree);
    }

    @Override
    public String getSystemId() {
        return null;
    }

    @Override
    public String getPublicId() {
        return null;
    }

    @Override
    public String getBaseURI() {
        return null;
    }

    @Override
    public void setSystemId(String systemId) {
        // history documents have no system identifier
    }

    @Override
    public int getLineNumber() {
        return -1;
    }

    @Override
    public int getColumnNumber() {
        return -1;
    }

    @Override
    public Location saveLocation() {
        return this;
    }

    @Override
    public final int compareOrder(GNode other) {
        if (other instanceof HistNode h && h.tree == tree) {
            return Long.compare(seq, h.seq);
        }
        long mine = tree.getDocumentNumber();
        long theirs = ((NodeInfo) other).getTreeInfo().getDocumentNumber();
        return Long.compare(mine, theirs);
    }

    @Override
    public final boolean hasFingerprint() {
        return true;
    }

    /** The name's fingerprint in the configuration's name pool; -1 for unnamed nodes. */
    @Override
    public int getFingerprint() {
        return -1;
    }

    @Override
    public SequenceIterator iterateDescendantAxis(NodePredicate predicate) {
        return new HistDescendants(this, false, predicate);
    }

    @Override
    public SequenceIterator iterateDescendantOrSelfAxis(NodePredicate predicate) {
        return new HistDescendants(this, true, predicate);
    }

    @Override
    public String getLocalPart() {
        return "";
    }

    @Override
    public final NamespaceUri getNamespaceUri() {
        return NamespaceUri.NULL;
    }

    @Override
    public final String getDisplayName() {
        return getLocalPart();
    }

    @Override
    public final String getPrefix() {
        return "";
    }

    @Override
    public AtomicSequence atomize() {
        return StringValue.makeUntypedAtomic(getUnicodeStringValue());
    }

    @Override
    public final GNode getParent() {
        return parentNode();
    }

    @Override
    public String getAttributeValue(NamespaceUri uri, String local) {
        return null;
    }

    @Override
    public final NodeInfo getRoot() {
        HistNode n = this;
        HistNode p;
        while ((p = n.parentNode()) != null) {
            n = p;
        }
        return n;
    }

    @Override
    public boolean hasChildNodes() {
        return !childList().isEmpty();
    }

    @Override
    public NamespaceBinding[] getDeclaredNamespaces(NamespaceBinding[] buffer) {
        return NamespaceBinding.EMPTY_ARRAY;
    }

    @Override
    public NamespaceMap getAllNamespaces() {
        return null;
    }

    @Override
    public SequenceIterator iterateChildAxis(NodePredicate predicate) {
        List<? extends HistNode> children = childList();
        if (children.isEmpty()) {
            return EmptyIterator.getInstance();
        }
        return new HistIterator(children, 0, 1, predicate);
    }

    @Override
    public SequenceIterator iterateFollowingSiblingAxis(NodePredicate predicate) {
        HistNode parent = parentNode();
        if (parent == null) {
            return EmptyIterator.getInstance();
        }
        List<? extends HistNode> siblings = parent.childList();
        int i = indexIn(siblings);
        return i < 0 ? EmptyIterator.getInstance() : new HistIterator(siblings, i + 1, 1, predicate);
    }

    @Override
    public SequenceIterator iteratePrecedingSiblingAxis(NodePredicate predicate) {
        HistNode parent = parentNode();
        if (parent == null) {
            return EmptyIterator.getInstance();
        }
        List<? extends HistNode> siblings = parent.childList();
        int i = indexIn(siblings);
        return i < 0 ? EmptyIterator.getInstance() : new HistIterator(siblings, i - 1, -1, predicate);
    }

    /** Position of this node among {@code siblings} (sorted by sequence number), or -1. */
    private int indexIn(List<? extends HistNode> siblings) {
        int lo = 0;
        int hi = siblings.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long s = siblings.get(mid).seq;
            if (s < seq) {
                lo = mid + 1;
            } else if (s > seq) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    @Override
    public final void generateId(StringBuilder buffer) {
        buffer.append('h').append(tree.getDocumentNumber()).append('n').append(seq);
    }

    @Override
    public final Genre getGenre() {
        return Genre.XNODE;
    }

    @Override
    public String toString() {
        return toShortString();
    }
}
