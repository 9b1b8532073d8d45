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
    static final NameSet BELOW_EVENT = new NameSet(belowEvent());
    /** Element names that can occur below a {@code <Message>}. */
    static final NameSet BELOW_MESSAGE = new NameSet(belowMessage());
    /** Element names that can occur below a {@code <Timer>}. */
    static final NameSet BELOW_TIMER = new NameSet(Set.of(HistoryVocabulary.TIMER_IDENTIFIER));
    /** Element names that can occur below a {@code <Node>}. */
    static final NameSet BELOW_NODE = new NameSet(Set.of("LogicalAddress", "Parent", "Children", "Neighbours"));
    /** Element names that can occur below {@code <Parent>}, {@code <Children>}, {@code <Neighbours>}. */
    static final NameSet BELOW_GROUP = new NameSet(Set.of("LogicalAddress"));
    /** Element names that can occur below a message's {@code <Fields>}. */
    static final NameSet BELOW_FIELDS = new NameSet(Set.of(History.FIELD));
    /** No element below (a leaf holds text only). */
    static final NameSet NONE = new NameSet(Set.of());

    /** A set of element names in no namespace, as the qualified names name tests match. */
    static final class NameSet {
        private final StructuredQName[] names;

        NameSet(Set<String> names) {
            this.names = names.stream().sorted().map(n -> new StructuredQName("", NamespaceUri.NULL, n))
                    .toArray(StructuredQName[]::new);
        }
    }

    private final Configuration configuration;
    private final Map<String, Integer> fingerprints;

    private HistoryNames(Configuration configuration) {
        this.configuration = configuration;
        NamePool pool = configuration.getNamePool();
        Map<String, Integer> f = new HashMap<>();
        for (String n : all()) {
            f.put(n, pool.allocateFingerprint(NamespaceUri.NULL, n));
        }
        this.fingerprints = Map.copyOf(f);
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
    static boolean mayMatchAny(NodePredicate predicate, NameSet names) {
        if (!(predicate instanceof NodeTest t) || !UType.ELEMENT.subsumes(t.getUType())) {
            return true;
        }
        QNameTest q = t.getQNameTest();
        if (q == null) {
            return true;
        }
        for (StructuredQName n : names.names) {
            if (q.matches(n)) {
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
        s.add(History.FIELDS);
        s.add(History.FIELD);
        return Set.copyOf(s);
    }

    private static Set<String> all() {
        java.util.HashSet<String> s = new java.util.HashSet<>(belowEvent());
        s.addAll(Set.of("LogicalAddress", "Parent", "Children", "Neighbours"));
        s.add(HistoryVocabulary.HISTORY);
        s.add(HistoryVocabulary.EVENT);
        s.add(HistoryVocabulary.NODE);
        s.add(HistoryVocabulary.NAME_ATTRIBUTE);
        s.add("time");
        s.add(History.TYPE_ATTRIBUTE);
        return s;
    }
}
