package io.statecast.examples.ttcp;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statecast.overlay.address.LogicalAddress;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The receivers as the sender knows them: who said HELLO (and when), how much of the warm-up
 * each has (WARMED), who said DONE (and with which counts). Updated from the socket's delivery thread, read and awaited by the sending
 * thread.
 */
final class ReceiverRoster {

    /** A receiver: when it said HELLO, its warm-up so far, and its DONE once it came. */
    private static final class Peer {
        final long helloMicros;
        /** Distinct warm-up messages it reported having; -1 before its first WARMED. */
        int warmedUp = -1;
        TtcpPayload.Done done;

        Peer(long helloMicros) {
            this.helloMicros = helloMicros;
        }
    }

    /** How a wait for the receivers' warm-up ended ({@link #awaitWarmedUp}). */
    enum WarmUp {
        /** Every receiver has every warm-up message. */
        COMPLETE,
        /** No receiver gained a warm-up message for the quiet period: what is missing is not coming. */
        STALLED,
        /** The deadline passed while receivers still gained messages. */
        TIMED_OUT;

        /** The report's name for it. */
        String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private final Map<LogicalAddress, Peer> peers = new LinkedHashMap<>();
    private long foreign;
    /** When a receiver last reported more of the warm-up than before ({@link System#nanoTime()}). */
    private long warmupProgressNanos = System.nanoTime();

    /** Records a HELLO; returns the number of receivers if {@code from} is new, else 0. */
    synchronized int hello(LogicalAddress from, long nowMicros) {
        if (peers.containsKey(from)) {
            return 0;
        }
        peers.put(from, new Peer(nowMicros));
        notifyAll();
        return peers.size();
    }

    /** Records a DONE of run {@code run}; returns true if it is the first from a known receiver. */
    synchronized boolean done(LogicalAddress from, TtcpPayload.Done d, long run) {
        Peer p = peers.get(from);
        if (p == null || d.run() != run) {
            foreign++;
            return false;
        }
        if (p.done != null) {
            return false;
        }
        p.done = d;
        notifyAll();
        return true;
    }

    /**
     * Records a receiver's warm-up progress; a WARMED from a receiver that never said HELLO is
     * foreign (it joined after the warm-up began, and nothing waits for it).
     */
    synchronized void warmed(LogicalAddress from, TtcpPayload.Warmed w) {
        Peer p = peers.get(from);
        if (p == null) {
            foreign++;
            return;
        }
        // a late, reordered report never takes progress back
        if (w.received() > p.warmedUp) {
            p.warmedUp = w.received();
            warmupProgressNanos = System.nanoTime();
            notifyAll();
        }
    }

    /** Receivers that reported at least {@code atLeast} warm-up messages. */
    synchronized int warmedUp(int atLeast) {
        return (int) peers.values().stream().filter(p -> p.warmedUp >= atLeast).count();
    }

    /**
     * Waits until every known receiver reported at least {@code atLeast} warm-up messages, or
     * until no receiver reported a gain for {@code quietMs} (counted from the call at the
     * earliest), or at most {@code timeoutMs}.
     */
    synchronized WarmUp awaitWarmedUp(int atLeast, long quietMs, long timeoutMs) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        long quiet = TimeUnit.MILLISECONDS.toNanos(quietMs);
        while (peers.values().stream().anyMatch(p -> p.warmedUp < atLeast)) {
            long now = System.nanoTime();
            long stalledAt = (warmupProgressNanos - start > 0 ? warmupProgressNanos : start) + quiet;
            if (deadline - now <= 0) {
                return WarmUp.TIMED_OUT;
            }
            if (stalledAt - now <= 0) {
                return WarmUp.STALLED;
            }
            TimeUnit.NANOSECONDS.timedWait(this, Math.min(deadline, stalledAt) - now);
        }
        return WarmUp.COMPLETE;
    }

    /** Counts a control message that belongs to no receiver of this run. */
    synchronized void foreign() {
        foreign++;
    }

    synchronized long foreignCount() {
        return foreign;
    }

    synchronized int ready() {
        return peers.size();
    }

    synchronized int done() {
        return (int) peers.values().stream().filter(p -> p.done != null).count();
    }

    /** Receivers whose DONE reported nothing missing. */
    synchronized int complete() {
        return (int) peers.values().stream().filter(p -> p.done != null && p.done.missing() == 0).count();
    }

    /** Waits until at least {@code n} receivers said HELLO; false if {@code timeoutMs} passed first. */
    synchronized boolean awaitReady(int n, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (peers.size() < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** Waits until every known receiver said DONE; false if {@code timeoutMs} passed first. */
    synchronized boolean awaitAllDone(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (peers.values().stream().anyMatch(p -> p.done == null)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** Every receiver with its DONE counts (null until it reported). */
    synchronized ArrayNode toJson() {
        ArrayNode a = TtcpReport.JSON.createArrayNode();
        peers.forEach((addr, p) -> {
            ObjectNode r = a.addObject();
            r.put("address", addr.toString());
            r.put("helloMicros", p.helloMicros);
            if (p.warmedUp < 0) {
                r.putNull("warmupReceived");
            } else {
                r.put("warmupReceived", p.warmedUp);
            }
            if (p.done == null) {
                r.putNull("received");
                r.putNull("missing");
                r.putNull("duplicates");
            } else {
                r.put("received", p.done.received());
                r.put("missing", p.done.missing());
                r.put("duplicates", p.done.duplicates());
            }
        });
        return a;
    }
}
