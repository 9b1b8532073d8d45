package io.statecast.messagestore.event;

import io.statecast.overlay.address.LogicalAddress;
import java.util.List;
import java.util.Objects;

/**
 * What {@code updateNodeInfo} records (blueprint §4.2.3.1): the node's logical address, its
 * parent and children in the tree of the message's root, and its neighbours.
 *
 * @param self       this node's logical address
 * @param root       the root of the tree the parent and children belong to
 * @param parent     the parent toward {@code root}, or {@code null} (this node is the root, or
 *                   the root is unreachable)
 * @param children   the children in that tree
 * @param neighbours the current neighbours
 */
public record NodeSnapshot(LogicalAddress self, LogicalAddress root, LogicalAddress parent,
        List<LogicalAddress> children, List<LogicalAddress> neighbours) {

    /** Copies the lists. */
    public NodeSnapshot {
        Objects.requireNonNull(self, "self");
        Objects.requireNonNull(root, "root");
        children = List.copyOf(children);
        neighbours = List.copyOf(neighbours);
    }

    /**
     * Written out: every {@code updateNodeInfo} compares its snapshot with the last one recorded
     * (to share equal ones), and the record's generated equality went through method handles and
     * list iterators each time.
     */
    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        return o instanceof NodeSnapshot n && self.equals(n.self) && root.equals(n.root)
                && Objects.equals(parent, n.parent) && sameAddresses(children, n.children)
                && sameAddresses(neighbours, n.neighbours);
    }

    @Override
    public int hashCode() {
        return Objects.hash(self, root, parent, children, neighbours);
    }

    private static boolean sameAddresses(List<LogicalAddress> a, List<LogicalAddress> b) {
        if (a == b) {
            return true;
        }
        int n = a.size();
        if (b.size() != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (!a.get(i).equals(b.get(i))) {
                return false;
            }
        }
        return true;
    }
}
