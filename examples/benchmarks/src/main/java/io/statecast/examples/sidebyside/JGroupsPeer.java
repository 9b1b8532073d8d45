package io.statecast.examples.sidebyside;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statecast.examples.ttcp.CpuMeter;
import io.statecast.examples.ttcp.EpochClock;
import io.statecast.examples.ttcp.Pacer;
import io.statecast.examples.ttcp.TtcpReport;
import io.statecast.examples.ttcp.TtcpStats;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;

/**
 * One JGroups member of a side-by-side cell, the counterpart of a {@code ttcp} process: the sender
 * sends {@code count} messages of {@code size} bytes (after a warm-up that every receiver confirms)
 * to the one other member (unicast, UNICAST3) or to the group (multicast, NAKACK2); each receiver
 * records every message's one-way delay from the send time in its payload. Both write the ttcp
 * report's summary fields the side-by-side table reads: {@code messagesPerSecond} (received over
 * the time from the first send to the last arrival), {@code delayMsP50}, {@code delayMsP99},
 * {@code cpuMicrosPerMessage} (the whole process's CPU time per message, {@link CpuMeter}),
 * {@code received}, {@code missing}.
 *
 * <p>Payload: kind (1 byte), sequence number (4), count (4), send time in µs since the epoch (8),
 * filler; kinds {@link #WARMUP}, {@link #DATA} from the sender; {@link #WARMED} (sequence: the
 * warm-up messages held) and {@link #DONE} (sequence: received) back to it; {@link #FIN} from it.
 */
public final class JGroupsPeer {

    static final byte WARMUP = 1;
    static final byte DATA = 2;
    static final byte WARMED = 3;
    static final byte DONE = 4;
    static final byte FIN = 5;
    /** Header bytes of a payload; the smallest {@code size}. */
    static final int HEADER = 17;

    /**
     * What one member does.
     *
     * @param sender        whether this member sends
     * @param port          its UDP port on 127.0.0.1
     * @param ports         every member's port (the group has {@code ports.size()} members)
     * @param unicast       the sender sends to its one receiver instead of the group
     * @param count         measured messages
     * @param size          payload bytes
     * @param warmup        warm-up messages before them
     * @param rate          messages per second; infinite for as fast as flow control lets it
     * @param waitTimeoutMs longest wait for the group to form and for the warm-up to be confirmed
     * @param idleMs        a receiver gives up this long after the last message
     * @param lingerMs      the sender waits this long for every receiver's DONE, a receiver for FIN
     */
    public record Options(boolean sender, int port, List<Integer> ports, boolean unicast, int count, int size, int warmup,
                          double rate, long waitTimeoutMs, long idleMs, long lingerMs) {

        /** Checks ranges. */
        public Options {
            ports = List.copyOf(ports);
            if (!ports.contains(port)) {
                throw new IllegalArgumentException("--port " + port + " is not among --ports " + ports);
            }
            if (ports.size() < 2) {
                throw new IllegalArgumentException("a group needs at least 2 members, got " + ports.size());
            }
            if (unicast && ports.size() != 2) {
                throw new IllegalArgumentException("unicast runs between 2 members, got " + ports.size());
            }
            if (count < 1 || count > 10_000_000) {
                throw new IllegalArgumentException("count=" + count + " must be within 1..10000000");
            }
            if (size < HEADER || size > 60_000) {
                throw new IllegalArgumentException("size=" + size + " must be within " + HEADER + "..60000");
            }
            if (warmup < 0 || warmup > 10_000_000) {
                throw new IllegalArgumentException("warmup=" + warmup + " must be within 0..10000000");
            }
            if (!(rate > 0)) {
                throw new IllegalArgumentException("rate=" + rate + " must be > 0");
            }
        }
    }

    private final Options options;
    private final PrintWriter out;
    private final EpochClock clock = EpochClock.system();

    /**
     * @param options what to do
     * @param out     progress lines
     */
    public JGroupsPeer(Options options, PrintWriter out) {
        this.options = Objects.requireNonNull(options, "options");
        this.out = Objects.requireNonNull(out, "out");
    }

    /**
     * Joins the group, runs this member's side and leaves.
     *
     * @return the report ({@code outcome}, {@code summary})
     * @throws Exception if the channel cannot be created or joined
     */
    public ObjectNode run() throws Exception {
        byte[] stack = JGroupsStack.xml(options.port(), options.ports()).getBytes(StandardCharsets.UTF_8);
        try (JChannel channel = new JChannel(new ByteArrayInputStream(stack))) {
            channel.setDiscardOwnMessages(true);
            return options.sender() ? new Sending(channel).run() : new Receiving(channel).run();
        }
    }

    static byte[] payload(byte kind, int seq, int count, long micros, int size) {
        ByteBuffer b = ByteBuffer.allocate(size);
        b.put(kind).putInt(seq).putInt(count).putLong(micros);
        return b.array();
    }

    /** Waits until the view has every member, at most {@code waitTimeoutMs}. */
    private boolean awaitGroup(JChannel channel) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(options.waitTimeoutMs());
        while (System.nanoTime() < deadline) {
            View v = channel.getView();
            if (v != null && v.size() >= options.ports().size()) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    private ObjectNode report(String role, String outcome) {
        ObjectNode r = TtcpReport.object();
        r.put("role", role);
        r.put("system", "jgroups");
        r.put("outcome", outcome);
        return r;
    }

    /** The sender's side. */
    private final class Sending implements Receiver {
        private final JChannel channel;
        private final Map<Address, Integer> warmed = new ConcurrentHashMap<>();
        private final Map<Address, Integer> done = new ConcurrentHashMap<>();

        Sending(JChannel channel) {
            this.channel = channel;
        }

        @Override
        public void receive(Message msg) {
            byte[] a = msg.getArray();
            ByteBuffer b = ByteBuffer.wrap(a, msg.getOffset(), msg.getLength());
            byte kind = b.get();
            int n = b.getInt();
            if (kind == WARMED) {
                warmed.merge(msg.getSrc(), n, Math::max);
            } else if (kind == DONE) {
                done.put(msg.getSrc(), n);
            }
        }

        ObjectNode run() throws Exception {
            channel.setReceiver(this);
            channel.connect("statecast-sidebyside");
            out.printf("jgroups send: connected as %s%n", channel.getAddress());
            int receivers = options.ports().size() - 1;
            if (!awaitGroup(channel)) {
                out.printf("jgroups send: only %d of %d members after %d ms%n", channel.getView().size(), options.ports().size(),
                        options.waitTimeoutMs());
                return report("send", "receivers-not-ready");
            }
            Address to = null;
            if (options.unicast()) {
                for (Address m : channel.getView().getMembers()) {
                    if (!m.equals(channel.getAddress())) {
                        to = m;
                    }
                }
            }
            out.printf("jgroups send: group of %d; %d warm-up, %d measured messages of %d bytes, %s%n", options.ports().size(),
                    options.warmup(), options.count(), options.size(), options.unicast() ? "unicast to " + to : "multicast");
            Pacer pacer = Pacer.system(options.rate(), Pacer.defaultBurst(options.rate()), 1_000_000L);
            if (options.warmup() > 0) {
                send(to, WARMUP, options.warmup(), pacer, null);
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(options.waitTimeoutMs());
                while (System.nanoTime() < deadline && !allReached(warmed, receivers, options.warmup())) {
                    Thread.sleep(10);
                }
                System.gc(); // the warm-up's garbage is not the run's
                Thread.sleep(500);
            }
            pacer = Pacer.system(options.rate(), Pacer.defaultBurst(options.rate()), 1_000_000L);
            CpuMeter cpu = CpuMeter.process();
            long t0 = System.nanoTime();
            send(to, DATA, options.count(), pacer, cpu);
            double seconds = (System.nanoTime() - t0) / 1e9;
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(options.lingerMs());
            while (System.nanoTime() < deadline && done.size() < receivers) {
                Thread.sleep(10);
            }
            for (int i = 0; i < 3; i++) {
                channel.send(message(to, payload(FIN, 0, options.count(), clock.nowMicros(), HEADER)));
            }
            ObjectNode r = report("send", done.size() == receivers ? "complete" : "receivers-incomplete");
            ObjectNode s = r.putObject("summary");
            s.put("sent", options.count());
            s.put("receiversDone", done.size());
            TtcpReport.putNumber(s, "messagesPerSecond", options.count() / Math.max(seconds, 1e-6));
            TtcpReport.putNumber(s, "cpuMicrosPerMessage", cpu.microsPerMessage());
            out.printf("jgroups send: sent %d in %.2f s; %d of %d receivers done%n", options.count(), seconds, done.size(), receivers);
            return r;
        }

        private void send(Address to, byte kind, int n, Pacer pacer, CpuMeter cpu) throws Exception {
            if (cpu != null) {
                cpu.start(0);
            }
            for (int seq = 0; seq < n; seq++) {
                pacer.acquire();
                channel.send(message(to, payload(kind, seq, n, clock.nowMicros(), options.size())));
                if (cpu != null) {
                    cpu.passed(seq + 1);
                }
            }
            if (cpu != null) {
                cpu.last(n);
            }
        }

        private Message message(Address to, byte[] payload) {
            Message m = new BytesMessage(to, payload);
            return to == null ? m.setFlag(Message.TransientFlag.DONT_LOOPBACK) : m;
        }
    }

    private static boolean allReached(Map<Address, Integer> counts, int members, int n) {
        return counts.size() >= members && counts.values().stream().allMatch(c -> c >= n);
    }

    /** A receiver's side. */
    private final class Receiving implements Receiver {
        private final JChannel channel;
        /** Replies leave from here, not from JGroups' delivery thread. */
        private final ExecutorService replies = Executors.newSingleThreadExecutor();
        private final BitSet warm = new BitSet();
        private BitSet seen;
        private double[] delayMs;
        private int distinct;
        private long duplicates;
        /** First copies that arrived after a higher sequence number (out of the send order). */
        private long outOfOrder;
        private int highest = -1;
        private long firstSentMicros = Long.MAX_VALUE;
        private long lastReceivedMicros;
        private volatile long lastDataNanos;
        private volatile boolean fin;
        private volatile Address sender;
        private final CpuMeter cpu = CpuMeter.process();

        Receiving(JChannel channel) {
            this.channel = channel;
        }

        @Override
        public void receive(Message msg) {
            long now = clock.nowMicros();
            ByteBuffer b = ByteBuffer.wrap(msg.getArray(), msg.getOffset(), msg.getLength());
            byte kind = b.get();
            int seq = b.getInt();
            int count = b.getInt();
            long sent = b.getLong();
            sender = msg.getSrc();
            if (kind == DATA) {
                data(seq, count, sent, now);
            } else if (kind == WARMUP) {
                boolean complete;
                synchronized (this) {
                    warm.set(seq);
                    complete = warm.cardinality() == count;
                }
                if (complete) {
                    reply(WARMED, count);
                }
            } else if (kind == FIN) {
                fin = true;
            }
        }

        private synchronized void data(int seq, int count, long sent, long now) {
            if (seq < 0 || seq >= count || count != options.count()) {
                return;
            }
            if (seen == null) {
                seen = new BitSet(count);
                delayMs = new double[count];
                cpu.start(0);
            }
            if (seen.get(seq)) {
                duplicates++;
                return;
            }
            seen.set(seq);
            if (seq < highest) {
                outOfOrder++;
            } else {
                highest = seq;
            }
            delayMs[distinct++] = (now - sent) / 1000.0;
            firstSentMicros = Math.min(firstSentMicros, sent);
            lastReceivedMicros = Math.max(lastReceivedMicros, now);
            lastDataNanos = System.nanoTime();
            cpu.passed(distinct);
        }

        private void reply(byte kind, int n) {
            Address to = sender;
            replies.execute(() -> {
                try {
                    channel.send(new BytesMessage(to, payload(kind, n, options.count(), clock.nowMicros(), HEADER)));
                } catch (Exception e) {
                    out.printf("jgroups recv: reply %d not sent: %s%n", kind, e.getMessage());
                }
            });
        }

        ObjectNode run() throws Exception {
            try {
                channel.setReceiver(this);
                channel.connect("statecast-sidebyside");
                out.printf("jgroups recv: connected as %s%n", channel.getAddress());
                if (!awaitGroup(channel)) {
                    return report("recv", "group-not-formed");
                }
                out.printf("jgroups recv: joined a group of %d%n", channel.getView().size());
                long started = System.nanoTime();
                long startTimeout = TimeUnit.MILLISECONDS.toNanos(options.waitTimeoutMs() * 2 + options.idleMs());
                String outcome;
                while (true) {
                    Thread.sleep(10);
                    int got;
                    synchronized (this) {
                        got = distinct;
                    }
                    if (got == options.count()) {
                        outcome = "complete";
                        break;
                    }
                    if (fin) {
                        outcome = "fin";
                        break;
                    }
                    long now = System.nanoTime();
                    if (got > 0 && now - lastDataNanos > TimeUnit.MILLISECONDS.toNanos(options.idleMs())) {
                        outcome = "idle";
                        break;
                    }
                    if (got == 0 && now - started > startTimeout) {
                        outcome = "start-timeout";
                        break;
                    }
                }
                ObjectNode r = report("recv", outcome);
                ObjectNode s = r.putObject("summary");
                synchronized (this) {
                    cpu.last(distinct);
                    s.put("received", distinct);
                    s.put("missing", options.count() - distinct);
                    s.put("duplicates", duplicates);
                    s.put("outOfOrder", outOfOrder);
                    if (distinct > 0) {
                        double[] sorted = TtcpStats.sorted(Arrays.copyOf(delayMs, distinct));
                        double seconds = (lastReceivedMicros - firstSentMicros) / 1e6;
                        TtcpReport.putNumber(s, "messagesPerSecond", distinct / Math.max(seconds, 1e-6));
                        TtcpReport.putNumber(s, "delayMsP50", TtcpStats.percentile(sorted, 50));
                        TtcpReport.putNumber(s, "delayMsP99", TtcpStats.percentile(sorted, 99));
                    }
                    TtcpReport.putNumber(s, "cpuMicrosPerMessage", cpu.microsPerMessage());
                }
                out.printf("jgroups recv: %s: %s%n", outcome, s);
                reply(DONE, s.get("received").asInt());
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(options.lingerMs());
                while (!fin && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                return r;
            } finally {
                replies.shutdown();
                replies.awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }
}
