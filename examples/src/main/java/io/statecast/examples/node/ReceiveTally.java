package io.statecast.examples.node;

import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts the checked payloads a node received, per source: how many, how many were corrupt, how
 * many repeated a sequence number already seen. Bounded: at most {@value #MAX_SOURCES} sources are
 * told apart (later ones are counted under {@value #OTHER_SOURCES}), and repeats are detected for
 * sequence numbers below {@value #MAX_TRACKED_SEQ}. Thread-safe.
 */
public final class ReceiveTally {

    /** Sources told apart. */
    public static final int MAX_SOURCES = 4096;
    /** Sequence numbers below this are remembered for duplicate detection (one bit each). */
    public static final long MAX_TRACKED_SEQ = 1L << 24;
    /** Key under which sources beyond {@link #MAX_SOURCES} are counted. */
    public static final String OTHER_SOURCES = "other";

    /** What a received payload was. */
    public enum Verdict {
        /** Intact, sequence number not seen before from this source (or beyond the tracked range). */
        OK,
        /** Intact, but this source's sequence number arrived before. */
        DUP,
        /** Missing, short or failing its digest. */
        BAD;

        /** The lower-case token used on the control protocol. */
        public String token() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Map<String, Source> sources = new HashMap<>();

    /** Records a payload from {@code source} whose {@link CheckedPayload#check} gave {@code seq}. */
    public synchronized Verdict record(String source, long seq) {
        Source s = sources.get(source);
        if (s == null) {
            s = sources.computeIfAbsent(sources.size() < MAX_SOURCES ? source : OTHER_SOURCES, k -> new Source());
        }
        s.messages++;
        if (seq < 0) {
            s.bad++;
            return Verdict.BAD;
        }
        if (seq < MAX_TRACKED_SEQ) {
            if (s.seen.get((int) seq)) {
                s.duplicates++;
                return Verdict.DUP;
            }
            s.seen.set((int) seq);
        }
        return Verdict.OK;
    }

    /** Per source (sorted): messages, distinct (intact, first copies), duplicates, bad. */
    public synchronized Map<String, Map<String, Long>> snapshot() {
        Map<String, Map<String, Long>> m = new TreeMap<>();
        sources.forEach((k, s) -> {
            Map<String, Long> c = new LinkedHashMap<>();
            c.put("messages", s.messages);
            c.put("distinct", s.messages - s.duplicates - s.bad);
            c.put("duplicates", s.duplicates);
            c.put("bad", s.bad);
            m.put(k, c);
        });
        return m;
    }

    private static final class Source {
        final BitSet seen = new BitSet();
        long messages;
        long duplicates;
        long bad;
    }
}
