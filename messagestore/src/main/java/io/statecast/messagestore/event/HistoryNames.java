package io.statecast.messagestore.event;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import net.sf.saxon.Configuration;
import net.sf.saxon.om.NamePool;
import net.sf.saxon.om.NamespaceUri;
import net.sf.saxon.om.StructuredQName;
import net.sf.saxon.pattern.nodetest.NodePredicate;
import net.sf.saxon.pattern.nodetest.NodeTest;
import net.sf.saxon.pattern.qname.QNameTest;
import net.sf.saxon.type.UType;

/**
 * The names of the history vocabulary, registered once per Saxon configuration, so that history
 * nodes carry fingerprints (Saxon then matches name tests by comparing integers instead of
 * strings) and a descendant walk can skip subtrees that cannot contain the element it looks for.
 * Immutable; one per loaded spec.
 */
public final class HistoryNames {

    /** Element names that can occur below an {@code <Event>}. */
    static final Set<String> BELOW_EVENT = belowEvent();
    /** Element names that can occur below a {@code <Message>}. */
    static final Set<String> BELOW_MESSAGE = belowMessage();
    /** Element names that can occur below a {@code <Timer>}. */
    static final Set<String> BELOW_TIMER = Set.of(HistoryVocabulary.TIMER_IDENTIFIER);
    /** Element names that can occur below a {@code <Node>}. */
    static final Set<String> BELOW_NODE = Set.of("LogicalAddress", "Parent", "Children", "Neighbours");
    /** Element names that can occur below {@code <Parent>}, {@code <Children>}, {@code <Neighbours>}. */
    static final Set<String> BELOW_GROUP = Set.of("LogicalAddress");

    private final Configuration configuration;
    private final Map<String, Integer> fingerprints;
    private final Map<String, StructuredQName> qnames;

    private HistoryNames(Configuration configuration) {
        this.configuration = configuration;
        NamePool pool = configuration.getNamePool();
        Map<String, Integer> f = new HashMap<>();
        Map<String, StructuredQName> q = new HashMap<>();
        for (String n : all()) {
            f.put(n, pool.allocateFingerprint(NamespaceUri.NULL, n));
            q.put(n, new StructuredQName("", NamespaceUri.NULL, n));
        }
        this.fingerprints = Map.copyOf(f);
        this.qnames = Map.copyOf(q);
    }

    /** The names registered in {@code configuration}'s name pool. */
    public static HistoryNames of(Configuration configuration) {
        return new HistoryNames(Objects.requireNonNull(configuration, "configuration"));
    }

    /** The Saxon configuration. */
    public Configuration configuration() {
        return configuration;
    }

    /** The fingerprint of a vocabulary name, or -1 for any other. */
    int fingerprint(String name) {
        Integer f = fingerprints.get(name);
        return f == null ? -1 : f;
    }

    /**
     * Whether a node matching {@code predicate} could be among elements named {@code names}:
     * false only when the predicate is an element name test that accepts none of them.
     */
    boolean mayMatchAny(NodePredicate predicate, Set<String> names) {
        if (!(predicate instanceof NodeTest t) || !UType.ELEMENT.subsumes(t.getUType())) {
            return true;
        }
        QNameTest q = t.getQNameTest();
        if (q == null) {
            return true;
        }
        for (String n : names) {
            if (q.matches(qnames.get(n))) {
                return true;
            }
        }
        return false;
    }

    private static Set<String> belowEvent() {
        java.util.HashSet<String> s = new java.util.HashSet<>(belowMessage());
        s.add(HistoryVocabulary.MESSAGE);
        s.add(HistoryVocabulary.TIMER);
        s.add(HistoryVocabulary.TIMER_IDENTIFIER);
        return Set.copyOf(s);
    }

    private static Set<String> belowMessage() {
        java.util.HashSet<String> s = new java.util.HashSet<>();
        for (MessageAttribute a : MessageAttribute.values()) {
            s.add(a.elementName());
        }
        s.add(History.PAYLOAD);
        return Set.copyOf(s);
    }

    private static Set<String> all() {
        java.util.HashSet<String> s = new java.util.HashSet<>(BELOW_EVENT);
        s.addAll(BELOW_NODE);
        s.add(HistoryVocabulary.HISTORY);
        s.add(HistoryVocabulary.EVENT);
        s.add(HistoryVocabulary.NODE);
        s.add(HistoryVocabulary.NAME_ATTRIBUTE);
        s.add("time");
        return s;
    }
}
