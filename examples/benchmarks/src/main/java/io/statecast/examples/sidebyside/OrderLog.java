package io.statecast.examples.sidebyside;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statecast.examples.ttcp.TtcpReport;
import io.statecast.examples.ttcp.TtcpStats;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HexFormat;
import java.util.List;

/**
 * One member's delivery sequence of a total-order cell: the measured messages of every member in
 * the order this member delivered them, each as (member, sequence number), with its one-way delay.
 * Counts duplicates and, per sender, messages delivered after a later one of the same sender (both
 * total-order protocols keep each sender's order). Its {@link #hash()} — SHA-256 of the sequence —
 * is what members compare; {@link #write} keeps the whole sequence for a second look. Not
 * thread-safe: the caller synchronises.
 */
final class OrderLog {

    private final int members;
    private final int count;
    private final long[] order;
    private final double[] delayMs;
    private final BitSet[] seen;
    private final int[] highest;
    private int distinct;
    private long duplicates;
    private long outOfOrder;
    private long firstSentMicros = Long.MAX_VALUE;
    private long lastDeliveredMicros;

    /**
     * @param members members of the group (1..members)
     * @param count   measured messages each member sends
     */
    OrderLog(int members, int count) {
        this.members = members;
        this.count = count;
        this.order = new long[members * count];
        this.delayMs = new double[members * count];
        this.seen = new BitSet[members + 1];
        this.highest = new int[members + 1];
        for (int m = 1; m <= members; m++) {
            seen[m] = new BitSet(count);
            highest[m] = -1;
        }
    }

    /**
     * Records the delivery of member {@code member}'s message {@code seq}, sent at
     * {@code sentMicros} and delivered at {@code nowMicros}; ignores what no member of this cell sent.
     */
    void delivered(int member, int seq, long sentMicros, long nowMicros) {
        if (member < 1 || member > members || seq < 0 || seq >= count) {
            return;
        }
        if (seen[member].get(seq)) {
            duplicates++;
            return;
        }
        seen[member].set(seq);
        if (seq < highest[member]) {
            outOfOrder++;
        } else {
            highest[member] = seq;
        }
        order[distinct] = key(member, seq);
        delayMs[distinct] = (nowMicros - sentMicros) / 1000.0;
        distinct++;
        firstSentMicros = Math.min(firstSentMicros, sentMicros);
        lastDeliveredMicros = Math.max(lastDeliveredMicros, nowMicros);
    }

    static long key(int member, int seq) {
        return ((long) member << 32) | (seq & 0xFFFF_FFFFL);
    }

    /** Distinct measured messages delivered. */
    int distinct() {
        return distinct;
    }

    /** Whether every member's every measured message was delivered. */
    boolean complete() {
        return distinct == order.length;
    }

    /** SHA-256 of the sequence delivered so far (8 bytes per message, member then number), in hex. */
    String hash() {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            ByteBuffer b = ByteBuffer.allocate(8);
            for (int i = 0; i < distinct; i++) {
                b.clear();
                d.update(b.putLong(order[i]).array());
            }
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /**
     * The summary fields the side-by-side table reads: {@code received}, {@code missing},
     * {@code duplicates}, {@code outOfOrder}, {@code messagesPerSecond} (delivered over the time from
     * the first send of a delivered message to the last delivery), {@code delayMsP50},
     * {@code delayMsP99}, {@code orderHash}.
     */
    void summary(ObjectNode s) {
        s.put("received", distinct);
        s.put("missing", order.length - distinct);
        s.put("duplicates", duplicates);
        s.put("outOfOrder", outOfOrder);
        s.put("orderHash", hash());
        if (distinct > 0) {
            double[] sorted = TtcpStats.sorted(Arrays.copyOf(delayMs, distinct));
            double seconds = (lastDeliveredMicros - firstSentMicros) / 1e6;
            TtcpReport.putNumber(s, "messagesPerSecond", distinct / Math.max(seconds, 1e-6));
            TtcpReport.putNumber(s, "delayMsP50", TtcpStats.percentile(sorted, 50));
            TtcpReport.putNumber(s, "delayMsP99", TtcpStats.percentile(sorted, 99));
        }
    }

    /** Writes the sequence: a line "MEMBER SEQ" per delivered message, in delivery order. */
    void write(Path file) throws IOException {
        StringBuilder b = new StringBuilder(distinct * 8);
        for (int i = 0; i < distinct; i++) {
            b.append(order[i] >>> 32).append(' ').append((int) order[i]).append('\n');
        }
        Files.writeString(file, b);
    }

    /** A sequence {@link #write} wrote, one key per message; empty if the file is missing. */
    static List<Long> read(Path file) throws IOException {
        List<Long> keys = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return keys;
        }
        for (String line : Files.readAllLines(file)) {
            String[] w = line.trim().split(" ");
            if (w.length == 2) {
                keys.add(key(Integer.parseInt(w[0]), Integer.parseInt(w[1])));
            }
        }
        return keys;
    }

    /**
     * Whether the sequences are one order: each is a prefix of the longest (equal when every member
     * delivered everything; a member that stopped early may hold only the start of it). False if
     * there is none.
     */
    static boolean oneOrder(List<List<Long>> sequences) {
        List<Long> longest = sequences.stream().max((a, b) -> Integer.compare(a.size(), b.size())).orElse(null);
        if (longest == null) {
            return false;
        }
        for (List<Long> s : sequences) {
            if (!longest.subList(0, s.size()).equals(s)) {
                return false;
            }
        }
        return true;
    }
}
