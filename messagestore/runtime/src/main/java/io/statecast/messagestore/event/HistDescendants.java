package io.statecast.messagestore.event;

import java.util.ArrayDeque;
import java.util.List;
import net.sf.saxon.om.Item;
import net.sf.saxon.om.SequenceIterator;
import net.sf.saxon.pattern.nodetest.NodePredicate;

/**
 * The descendant (or descendant-or-self) axis of a history node, in document order, skipping
 * subtrees that cannot contain a match: {@code //Node[last()]} does not walk into events, and
 * {@code //Event[@name='ack']} does not walk into their messages (whose children are then never
 * built). Pruning applies only to element name tests ({@link HistoryNames#mayMatchAny}).
 */
final class HistDescendants implements SequenceIterator {

    private final NodePredicate predicate;
    // the last answer of HistoryNames.mayMatchAny: siblings share their name sets
    private HistoryNames.NameSet lastSet;
    private boolean lastAnswer;
    private final ArrayDeque<Frame> stack = new ArrayDeque<>(4);
    private HistNode self;

    private static final class Frame {
        final List<? extends HistNode> nodes;
        int next;

        Frame(List<? extends HistNode> nodes) {
            this.nodes = nodes;
        }
    }

    HistDescendants(HistNode origin, boolean includeSelf, NodePredicate predicate) {
        this.predicate = predicate;
        this.self = includeSelf ? origin : null;
        push(origin);
    }

    private void push(HistNode n) {
        if (mayContain(n)) {
            List<? extends HistNode> c = n.childList();
            if (!c.isEmpty()) {
                stack.push(new Frame(c));
            }
        }
    }

    private boolean mayContain(HistNode n) {
        if (!(n instanceof HistElement e) || predicate == null) {
            return true;
        }
        HistoryNames.NameSet below = e.namesBelow();
        if (below == null) {
            return true;
        }
        if (below != lastSet) {
            lastSet = below;
            lastAnswer = HistoryNames.mayMatchAny(predicate, below);
        }
        return lastAnswer;
    }

    @Override
    public Item next() {
        if (self != null) {
            HistNode s = self;
            self = null;
            if (predicate == null || predicate.test(s)) {
                return s;
            }
        }
        while (!stack.isEmpty()) {
            Frame f = stack.peek();
            if (f.next >= f.nodes.size()) {
                stack.pop();
                continue;
            }
            HistNode n = f.nodes.get(f.next++);
            push(n);
            if (predicate == null || predicate.test(n)) {
                return n;
            }
        }
        return null;
    }
}
