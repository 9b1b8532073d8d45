package io.statecast.examples.cli;

import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.MessageCodec;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.message.ProtocolMessage;
import io.statecast.overlay.substrate.Adapter;
import io.statecast.overlay.substrate.AdapterListener;
import io.statecast.overlay.substrate.FaultConfig;
import io.statecast.overlay.substrate.FaultModel;
import io.statecast.overlay.substrate.FaultyInterface;
import io.statecast.overlay.substrate.MemNetwork;
import io.statecast.overlay.substrate.RealTimerService;
import io.statecast.overlay.substrate.SubstrateInterface;
import io.statecast.overlay.substrate.TcpConfig;
import io.statecast.overlay.substrate.TcpInterface;
import io.statecast.overlay.substrate.UdpConfig;
import io.statecast.overlay.substrate.UdpInterface;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code statecast exchange}: two adapters on loopback (ephemeral ports) or in memory exchange
 * numbered, checksummed messages; the command reports what arrived. Exit status 0 when nothing
 * arrived corrupt or twice and, on TCP and in memory without injected loss, nothing was lost
 * (UDP loss on loopback is reported, not failed); 1 otherwise; 2 for bad arguments.
 */
@Command(
        name = "exchange",
        mixinStandardHelpOptions = true,
        description = {
            "Exchange messages between two adapters over a substrate and report counts.",
            "Each message is a unicast application message whose payload carries a sequence number and a CRC-32.",
            "UDP is paced by a window of messages in flight so that loopback loss stays rare; it is reported, not hidden."
        })
final class ExchangeCommand implements Callable<Integer> {

    /** Substrates the command can run on. */
    enum Substrate { udp, tcp, mem }

    private static final int OVERLAY_HASH = 0x0e8c_4a11;
    private static final int MIN_SIZE = 12;
    /** Longest wait without progress before the remaining messages count as lost. */
    private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(1);

    @Spec
    private CommandSpec spec;

    @Option(names = "--substrate", defaultValue = "udp", description = "udp, tcp or mem (default: ${DEFAULT-VALUE})")
    private Substrate substrate;

    @Option(names = "--messages", defaultValue = "100000", description = "messages to send, 1..100000000 (default: ${DEFAULT-VALUE})")
    private int messages;

    @Option(names = "--size", defaultValue = "256", description = "payload bytes per message, 12..60000 (default: ${DEFAULT-VALUE})")
    private int size;

    @Option(names = "--loss", defaultValue = "0", description = "loss probability injected at the receiver's input, 0..1 (default: ${DEFAULT-VALUE})")
    private double loss;

    @Option(names = "--seed", description = "seed of payloads and injected loss (default: time-based, printed)")
    private Long seed;

    @Option(names = "--window", defaultValue = "256", description = "UDP only: messages in flight at most, 1..1000000 (default: ${DEFAULT-VALUE})")
    private int window;

    @Override
    public Integer call() throws IOException {
        validate();
        long s = seed != null ? seed : System.nanoTime();
        PrintWriter out = spec.commandLine().getOut();
        MessageCodec codec = new MessageCodec(OVERLAY_HASH, MessageCodec.DEFAULT_MAX_MESSAGE_BYTES);
        Receiver receiver = new Receiver(messages);
        try (RealTimerService timers = new RealTimerService("statecast-exchange-timer")) {
            FaultModel faults = new FaultModel(s, FaultConfig.loss(loss));
            List<SubstrateInterface> pair = interfaces(timers, faults, s);
            try (Adapter a = new Adapter(codec, timers, List.of(pair.get(0)));
                    Adapter b = new Adapter(codec, timers, List.of(pair.get(1)))) {
                a.start(new Receiver(0));
                b.start(receiver);
                SubstrateAddress to = b.localAddresses().get(0);
                out.printf("exchange: %d messages of %d payload bytes over %s, %s -> %s, loss %.4f, seed %d%n",
                        messages, size, substrate, a.localAddresses().get(0), to, loss, s);
                out.flush();
                long start = System.nanoTime();
                long sent = send(a, to, receiver, new SplittableRandom(s));
                awaitQuiet(() -> receiver.distinct() >= sent, receiver::received);
                long elapsed = System.nanoTime() - start;
                return report(out, sent, receiver, elapsed, a, b);
            }
        } catch (UnsupportedOperationException e) {
            spec.commandLine().getErr().println("exchange: this build's MessageCodec is not implemented yet (" + e.getMessage() + ")");
            return 1;
        }
    }

    private void validate() {
        if (messages < 1 || messages > 100_000_000) {
            throw new ParameterException(spec.commandLine(), "--messages=" + messages + " must be within 1..100000000");
        }
        if (size < MIN_SIZE || size > 60_000) {
            throw new ParameterException(spec.commandLine(), "--size=" + size + " must be within " + MIN_SIZE + "..60000");
        }
        if (!(loss >= 0 && loss <= 1)) {
            throw new ParameterException(spec.commandLine(), "--loss=" + loss + " must be within 0..1");
        }
        if (window < 1 || window > 1_000_000) {
            throw new ParameterException(spec.commandLine(), "--window=" + window + " must be within 1..1000000");
        }
    }

    private List<SubstrateInterface> interfaces(RealTimerService timers, FaultModel faults, long s) {
        switch (substrate) {
            case mem -> {
                MemNetwork network = new MemNetwork(timers, s);
                network.faults().configure(FaultConfig.loss(loss));
                return List.of(network.newInterface("a"), network.newInterface("b"));
            }
            case tcp -> {
                return List.of(new TcpInterface(TcpConfig.defaults()), lossy(new TcpInterface(TcpConfig.defaults()), timers, faults));
            }
            default -> {
                return List.of(new UdpInterface(UdpConfig.defaults()), lossy(new UdpInterface(UdpConfig.defaults()), timers, faults));
            }
        }
    }

    private SubstrateInterface lossy(SubstrateInterface i, RealTimerService timers, FaultModel faults) {
        return loss > 0 ? FaultyInterface.atInput(i, timers, faults) : i;
    }

    /**
     * Sends every message. On UDP at most {@code window} go beyond the highest received (a full
     * socket buffer would otherwise drop them); TCP and the in-memory network push back by
     * themselves ({@link Adapter#isWritable}).
     */
    private long send(Adapter a, SubstrateAddress to, Receiver receiver, SplittableRandom random) {
        long refused = 0;
        boolean windowed = substrate == Substrate.udp;
        for (long seq = 0; seq < messages; seq++) {
            long s = seq;
            if (windowed && seq - receiver.highest() > window) {
                await(() -> s - receiver.highest() <= window, TimeUnit.MILLISECONDS.toNanos(200));
            }
            if (!a.isWritable(to)) {
                await(() -> a.isWritable(to), TimeUnit.SECONDS.toNanos(10));
            }
            OverlayMessage m = new OverlayMessage(DeliveryMode.UNICAST, 16, new TreeAddress(1), new TreeAddress(2),
                    new TreeAddress(1), null, List.of(new PayloadExtension(payload(seq, size, random))));
            if (!a.send(to, m)) {
                refused++;
            }
        }
        return messages - refused;
    }

    private int report(PrintWriter out, long sent, Receiver r, long elapsedNanos, Adapter a, Adapter b) {
        long lost = messages - r.distinct();
        double seconds = elapsedNanos / 1e9;
        out.printf("sent       %d (refused by the sender: %d)%n", sent, messages - sent);
        out.printf("received   %d distinct of %d%n", r.distinct(), messages);
        out.printf("lost       %d (%.3f%%)%n", lost, 100.0 * lost / messages);
        out.printf("corrupt    %d%n", r.corrupt());
        out.printf("duplicates %d%n", r.duplicates());
        out.printf("reordered  %d%n", r.outOfOrder());
        out.printf("time       %.3f s, %.0f msgs/s received%n", seconds, r.distinct() / Math.max(seconds, 1e-9));
        out.printf("sender     %s%n", a.metrics());
        out.printf("receiver   %s%n", b.metrics());
        boolean lossless = substrate != Substrate.udp && loss == 0;
        boolean ok = r.corrupt() == 0 && r.duplicates() == 0 && (!lossless || lost == 0);
        out.println(ok ? "OK" : "FAILED" + (lossless && lost > 0 ? ": messages lost on a lossless substrate" : ": corrupt or duplicate messages"));
        out.flush();
        return ok ? 0 : 1;
    }

    /** Payload: sequence number (8 bytes), seeded filler, CRC-32 of the preceding bytes (4). */
    static byte[] payload(long seq, int size, SplittableRandom random) {
        byte[] b = new byte[size];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (seq >>> (56 - 8 * i));
        }
        for (int i = 8; i < size - 4; i++) {
            b[i] = (byte) random.nextInt(256);
        }
        CRC32 crc = new CRC32();
        crc.update(b, 0, size - 4);
        int c = (int) crc.getValue();
        for (int i = 0; i < 4; i++) {
            b[size - 4 + i] = (byte) (c >>> (24 - 8 * i));
        }
        return b;
    }

    /** The sequence number of an intact payload, or -1. */
    static long check(byte[] b) {
        if (b == null || b.length < MIN_SIZE) {
            return -1;
        }
        CRC32 crc = new CRC32();
        crc.update(b, 0, b.length - 4);
        int c = (int) crc.getValue();
        int got = 0;
        for (int i = 0; i < 4; i++) {
            got = (got << 8) | (b[b.length - 4 + i] & 0xff);
        }
        if (c != got) {
            return -1;
        }
        long seq = 0;
        for (int i = 0; i < 8; i++) {
            seq = (seq << 8) | (b[i] & 0xff);
        }
        return seq;
    }

    private static void await(BooleanSupplier condition, long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        while (!condition.getAsBoolean() && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(50_000);
        }
    }

    /** Waits until {@code done} holds or {@code progress} has not moved for a second. */
    private static void awaitQuiet(BooleanSupplier done, java.util.function.LongSupplier progress) {
        long last = progress.getAsLong();
        long lastChange = System.nanoTime();
        while (!done.getAsBoolean()) {
            long p = progress.getAsLong();
            long now = System.nanoTime();
            if (p != last) {
                last = p;
                lastChange = now;
            } else if (now - lastChange > QUIET_NANOS) {
                return;
            }
            LockSupport.parkNanos(200_000);
        }
    }

    /** Checks and counts application messages; called on the receiving adapter's I/O thread. */
    private static final class Receiver implements AdapterListener {
        private final BitSet seen;
        private final int expected;
        private long received;
        private long corrupt;
        private long duplicates;
        private long outOfOrder;
        private volatile long highest = -1;

        Receiver(int expected) {
            this.expected = expected;
            this.seen = new BitSet(expected);
        }

        @Override
        public void onProtocolMessage(ProtocolMessage message, SubstrateAddress from) {
            // the exchange sends none
        }

        @Override
        public synchronized void onApplicationMessage(OverlayMessage message, SubstrateAddress from) {
            received++;
            long seq = check(message.payload());
            if (seq < 0 || seq >= expected) {
                corrupt++;
            } else if (seen.get((int) seq)) {
                duplicates++;
            } else {
                seen.set((int) seq);
                if (seq < highest) {
                    outOfOrder++;
                } else {
                    highest = seq;
                }
            }
        }

        long highest() {
            return highest;
        }

        synchronized long received() {
            return received;
        }

        synchronized long distinct() {
            return seen.cardinality();
        }

        synchronized long corrupt() {
            return corrupt;
        }

        synchronized long duplicates() {
            return duplicates;
        }

        synchronized long outOfOrder() {
            return outOfOrder;
        }
    }
}
