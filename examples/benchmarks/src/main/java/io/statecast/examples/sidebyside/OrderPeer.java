package io.statecast.examples.sidebyside;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statecast.examples.ttcp.CpuMeter;
import io.statecast.examples.ttcp.EpochClock;
import io.statecast.examples.ttcp.TtcpReport;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One member of a total-order cell, whatever the system ({@link JGroupsOrderPeer},
 * {@link StatecastOrderPeer}): once the group has every member and every member's HELLO came
 * through the order, each member sends
 * {@code warmup} messages and waits until it delivered every member's (or nothing came for
 * {@code idleMs}), then sends {@code count}
 * measured messages of {@code size} bytes, at most {@code window} of its own undelivered at a time
 * (both systems alike), and records every member's messages in the order it delivers them
 * ({@link OrderLog}). Then it sends DONE through the same order and waits for every member's DONE,
 * so that no member leaves while others still need it. The report's summary has the fields of
 * {@link OrderLog#summary} and {@code cpuMicrosPerMessage}: the process's CPU time from its first
 * measured send to its last delivery, per message delivered.
 *
 * <p>Payload: kind (1 byte), member (4), sequence number (4), count (4), send time in µs since the
 * epoch (8), filler.
 */
abstract class OrderPeer {

    static final byte WARMUP = 1;
    static final byte DATA = 2;
    static final byte DONE = 3;
    static final byte HELLO = 4;
    /** Header bytes of a payload; the smallest {@code size}. */
    static final int HEADER = 21;

    /**
     * What one member does.
     *
     * @param member        this member's number, 1..members
     * @param members       members of the group
     * @param count         measured messages this member sends
     * @param size          payload bytes
     * @param warmup        warm-up messages this member sends first
     * @param window        own messages sent and not yet delivered back, at most
     * @param waitTimeoutMs longest wait for the group to form and for the warm-up
     * @param idleMs        give up this long after the last delivery (or own send waiting for room)
     * @param lingerMs      wait this long at most for every member's DONE
     */
    record Options(int member, int members, int count, int size, int warmup, int window, long waitTimeoutMs, long idleMs,
                   long lingerMs) {

        /** Checks ranges. */
        Options {
            if (members < 2 || members > 64) {
                throw new IllegalArgumentException("members=" + members + " must be within 2..64");
            }
            if (member < 1 || member > members) {
                throw new IllegalArgumentException("member=" + member + " must be within 1.." + members);
            }
            if (count < 1 || count > 1_000_000 || (long) count * members > 10_000_000) {
                throw new IllegalArgumentException("count=" + count + " must be within 1..1000000 and count·members ≤ 10000000");
            }
            if (size < HEADER || size > 60_000) {
                throw new IllegalArgumentException("size=" + size + " must be within " + HEADER + "..60000");
            }
            if (warmup < 0 || warmup > 1_000_000) {
                throw new IllegalArgumentException("warmup=" + warmup + " must be within 0..1000000");
            }
            if (window < 1) {
                throw new IllegalArgumentException("window=" + window + " must be at least 1");
            }
        }
    }

    protected final Options options;
    protected final PrintWriter out;
    private final EpochClock clock = EpochClock.system();
    private final OrderLog log;
    private final String name;
    /** Guards the fields below and the log; notified at each delivery. */
    private final Object lock = new Object();
    private long ownDelivered;
    private int warmDelivered;
    private final boolean[] done;
    private int doneCount;
    private final boolean[] hello;
    private int helloCount;
    private long lastDeliveryNanos;

    OrderPeer(Options options, PrintWriter out, String name) {
        this.options = Objects.requireNonNull(options, "options");
        this.out = Objects.requireNonNull(out, "out");
        this.name = name;
        this.log = new OrderLog(options.members(), options.count());
        this.done = new boolean[options.members() + 1];
        this.hello = new boolean[options.members() + 1];
    }

    /** Joins the group (or the overlay); returns what to print after "joined as". */
    protected abstract String open() throws Exception;

    /** Whether the group has every member now. */
    protected abstract boolean groupFormed();

    /** Sends {@code payload} to every member, itself included, in the system's total order. */
    protected abstract void send(byte[] payload) throws Exception;

    /** Adds what the system counted (drops, for one) to the report; nothing by default. */
    protected void describe(ObjectNode report) {
    }

    /**
     * Runs this member's side.
     *
     * @param orderFile where the delivery sequence goes
     * @return the report ({@code outcome}, {@code summary})
     */
    final ObjectNode run(Path orderFile) throws Exception {
        out.printf("%s: member %d of %d joined as %s%n", name, options.member(), options.members(), open());
        out.flush();
        long formDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(options.waitTimeoutMs());
        while (!groupFormed()) {
            if (System.nanoTime() > formDeadline) {
                return report("group-not-formed", orderFile, null);
            }
            Thread.sleep(20);
        }
        // a group can be there before every member is (a ring is made of the configured members,
        // started or not): every member's HELLO, delivered in the order, says they all run, and
        // lets them start sending at about the same time
        send(payload(HELLO, 0));
        if (!await(() -> helloCount == options.members(),
                TimeUnit.NANOSECONDS.toMillis(Math.max(0, formDeadline - System.nanoTime())))) {
            return report("members-not-ready", orderFile, null);
        }
        out.printf("%s: group of %d formed; %d warm-up, %d measured messages of %d bytes, window %d%n", name,
                options.members(), options.warmup(), options.count(), options.size(), options.window());
        out.flush();
        long sent = 0;
        if (options.warmup() > 0) {
            synchronized (lock) {
                lastDeliveryNanos = System.nanoTime();
            }
            sent = sendAll(WARMUP, options.warmup(), sent);
            if (sent < 0 || !awaitProgress(() -> warmDelivered >= options.members() * options.warmup())) {
                return report("warmup-incomplete", orderFile, null);
            }
        }
        System.gc(); // the warm-up's garbage is not the run's
        CpuMeter cpu = CpuMeter.process();
        cpu.start(0);
        synchronized (lock) {
            lastDeliveryNanos = System.nanoTime(); // idleness counts from the first measured send
        }
        sent = sendAll(DATA, options.count(), sent);
        awaitProgress(log::complete);
        int delivered;
        synchronized (lock) {
            delivered = log.distinct();
        }
        cpu.last(delivered);
        send(payload(DONE, 0));
        await(() -> doneCount == options.members(), options.lingerMs());
        String outcome = sent < 0 ? "stalled" : delivered == options.members() * options.count() ? "complete" : "incomplete";
        return report(outcome, orderFile, cpu);
    }

    /** Sends {@code n} messages of {@code kind}, each once the window has room; -1 if it stayed full for idleMs. */
    private long sendAll(byte kind, int n, long sent) throws Exception {
        for (int seq = 0; seq < n; seq++) {
            long s = sent;
            if (!await(() -> s - ownDelivered < options.window(), options.idleMs())) {
                out.printf("%s: own message %d not delivered back within %d ms; stopped sending%n", name, s - options.window(),
                        options.idleMs());
                return -1;
            }
            send(payload(kind, seq));
            sent++;
        }
        return sent;
    }

    private interface Condition {
        boolean holds();
    }

    /** Waits until {@code c} holds (read under the lock) or nothing was delivered for idleMs; whether it holds. */
    private boolean awaitProgress(Condition c) throws InterruptedException {
        long idle = TimeUnit.MILLISECONDS.toNanos(options.idleMs());
        synchronized (lock) {
            while (!c.holds()) {
                if (System.nanoTime() - lastDeliveryNanos > idle) {
                    return false;
                }
                lock.wait(50);
            }
            return true;
        }
    }

    /** Waits until {@code c} holds (read under the lock), at most {@code ms}. */
    private boolean await(Condition c, long ms) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        synchronized (lock) {
            while (!c.holds()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(lock, Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
            }
            return true;
        }
    }

    private byte[] payload(byte kind, int seq) {
        ByteBuffer b = ByteBuffer.allocate(kind == DATA || kind == WARMUP ? options.size() : HEADER);
        b.put(kind).putInt(options.member()).putInt(seq).putInt(options.count()).putLong(clock.nowMicros());
        return b.array();
    }

    /** Called by the system's delivery thread for every message delivered, in the delivery order. */
    protected final void delivered(byte[] a, int offset, int length) {
        long now = clock.nowMicros();
        if (length < HEADER) {
            return;
        }
        ByteBuffer b = ByteBuffer.wrap(a, offset, length);
        byte kind = b.get();
        int member = b.getInt();
        int seq = b.getInt();
        b.getInt();
        long sentMicros = b.getLong();
        synchronized (lock) {
            if (kind == DATA) {
                log.delivered(member, seq, sentMicros, now);
                lastDeliveryNanos = System.nanoTime();
            } else if (kind == WARMUP) {
                warmDelivered++;
                lastDeliveryNanos = System.nanoTime();
            } else if (kind == DONE && member >= 1 && member <= options.members() && !done[member]) {
                done[member] = true;
                doneCount++;
            } else if (kind == HELLO && member >= 1 && member <= options.members() && !hello[member]) {
                hello[member] = true;
                helloCount++;
            }
            if (member == options.member() && (kind == DATA || kind == WARMUP)) {
                ownDelivered++;
            }
            lock.notifyAll();
        }
    }

    private ObjectNode report(String outcome, Path orderFile, CpuMeter cpu) throws java.io.IOException {
        ObjectNode r = TtcpReport.object();
        r.put("role", "member");
        r.put("member", options.member());
        r.put("outcome", outcome);
        ObjectNode s = r.putObject("summary");
        synchronized (lock) {
            log.summary(s);
            log.write(orderFile);
        }
        if (cpu != null) {
            TtcpReport.putNumber(s, "cpuMicrosPerMessage", cpu.microsPerMessage());
        }
        describe(r);
        out.printf("%s: %s: %s%n", name, outcome, s);
        out.flush();
        return r;
    }
}
