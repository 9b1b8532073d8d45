package io.statecast.messagestore.event;

import java.util.List;
import net.sf.saxon.om.Item;
import net.sf.saxon.om.SequenceIterator;
import net.sf.saxon.pattern.nodetest.NodePredicate;

/** Walks a list of history nodes forwards or backwards, yielding those a node test accepts. */
final class HistIterator implements SequenceIterator {

    private final List<? extends HistNode> nodes;
    private final int step;
    private final NodePredicate predicate;
    private int next;

    /**
     * @param nodes     the nodes, in document order
     * @param start     index of the first node to consider
     * @param step      1 (forwards) or -1 (backwards)
     * @param predicate the node test, or {@code null} for every node
     */
    HistIterator(List<? extends HistNode> nodes, int start, int step, NodePredicate predicate) {
        this.nodes = nodes;
        this.next = start;
        this.step = step;
        this.predicate = predicate;
    }

    @Override
    public Item next() {
        int n = nodes.size();
        while (next >= 0 && next < n) {
            HistNode node = nodes.get(next);
            next += step;
            if (predicate == null || predicate.test(node)) {
                return node;
            }
        }
        next = -1;
        return null;
    }
}
