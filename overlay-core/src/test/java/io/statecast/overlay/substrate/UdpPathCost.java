package io.statecast.overlay.substrate;

import com.sun.management.ThreadMXBean;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import io.statecast.overlay.address.SubstrateAddress;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Per-datagram cost of the UDP substrate path in thread CPU time and allocated bytes (ThreadMXBean),
 * which a loaded shared machine disturbs far less than wall-clock rates. Not a test: run by hand.
 *
 * <pre>
 * java -cp "overlay-core/target/test-classes:overlay-core/target/classes:$(cat cp.txt)" \
 *     io.statecast.overlay.substrate.UdpPathCost [burst [rounds]]
 * </pre>
 *
 * A producer thread (standing in for a MessageStore shard) sends bursts of {@code burst} 1 KiB
 * frames from interface A to interface B on 127.0.0.1 and waits until B has them all before the
 * next burst, so nothing is lost and every burst starts with idle event loops, as in a paced run.
 * Printed per round: CPU and allocation per datagram of A's event loop (sending), B's event loop
 * (receiving) and the producer thread. Attach {@code strace -c -p TID} to the printed thread ids
 * for syscall counts. The receiver calls every frame bulk, as the adapter does data frames
 * ({@code -Dcost.control=true}: control).
 */
public final class UdpPathCost {

    private static final int FRAME_BYTES = 1024;
    private static final int PER_ROUND = 50_000;

    private UdpPathCost() {
    }

    /** Runs the measurement; arguments: burst size (default 8), rounds (default 8). */
    public static void main(String[] args) throws Exception {
        int burst = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        boolean bulk = !Boolean.getBoolean("cost.control");
        ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        EventLoopGroup ga = NettyLoops.newGroup("cost-a");
        EventLoopGroup gb = NettyLoops.newGroup("cost-b");
        AtomicLong received = new AtomicLong();
        try (UdpInterface a = new UdpInterface(UdpConfig.defaults(), ga);
                UdpInterface b = new UdpInterface(UdpConfig.defaults(), gb)) {
            a.start((frame, from) -> frame.release());
            b.start(new FrameReceiver() { // as the adapter's: data frames are bulk
                @Override
                public void onFrame(ByteBuf frame, SubstrateAddress from) {
                    frame.release();
                    received.incrementAndGet();
                }

                @Override
                public boolean isBulk(ByteBuf frame) {
                    return bulk;
                }
            });
            long ta = ga.submit(() -> Thread.currentThread().getId()).get();
            long tb = gb.submit(() -> Thread.currentThread().getId()).get();
            long tp = Thread.currentThread().getId();
            System.out.printf(Locale.ROOT, "burst %d; tids: producer %s, sender loop %s, receiver loop %s (pid %d)%n",
                    burst, nativeTid("java"), nativeTid("cost-a"), nativeTid("cost-b"), ProcessHandle.current().pid());
            double[] sendCpu = new double[rounds];
            double[] recvCpu = new double[rounds];
            double[] prodCpu = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                long[] c0 = {mx.getThreadCpuTime(ta), mx.getThreadCpuTime(tb), mx.getThreadCpuTime(tp)};
                long[] m0 = {mx.getThreadAllocatedBytes(ta), mx.getThreadAllocatedBytes(tb), mx.getThreadAllocatedBytes(tp)};
                long sent = 0;
                long start = received.get();
                while (sent < PER_ROUND) {
                    for (int i = 0; i < burst; i++) {
                        ByteBuf f = PooledByteBufAllocator.DEFAULT.ioBuffer(FRAME_BYTES, FRAME_BYTES);
                        f.writerIndex(FRAME_BYTES);
                        if (!a.send(b.localAddress(), f)) {
                            throw new IllegalStateException("send refused: " + a.metrics());
                        }
                    }
                    sent += burst;
                    long want = start + sent;
                    long deadline = System.nanoTime() + 10_000_000_000L;
                    while (received.get() < want) {
                        if (System.nanoTime() > deadline) {
                            throw new IllegalStateException("lost datagrams: " + (want - received.get()) + " receiver " + b.metrics() + " sender " + a.metrics());
                        }
                        LockSupport.parkNanos(20_000);
                    }
                }
                long[] c1 = {mx.getThreadCpuTime(ta), mx.getThreadCpuTime(tb), mx.getThreadCpuTime(tp)};
                long[] m1 = {mx.getThreadAllocatedBytes(ta), mx.getThreadAllocatedBytes(tb), mx.getThreadAllocatedBytes(tp)};
                sendCpu[r] = (c1[0] - c0[0]) / 1e3 / sent;
                recvCpu[r] = (c1[1] - c0[1]) / 1e3 / sent;
                prodCpu[r] = (c1[2] - c0[2]) / 1e3 / sent;
                System.out.printf(Locale.ROOT,
                        "round %d: sender loop %.2f us %4.0f B | receiver loop %.2f us %4.0f B | producer %.2f us %4.0f B (per datagram, incl. waiting)%n",
                        r, sendCpu[r], (m1[0] - m0[0]) / (double) sent, recvCpu[r], (m1[1] - m0[1]) / (double) sent,
                        prodCpu[r], (m1[2] - m0[2]) / (double) sent);
            }
            System.out.printf(Locale.ROOT, "median of the last half: sender loop %.2f us, receiver loop %.2f us, producer %.2f us%n",
                    median(sendCpu), median(recvCpu), median(prodCpu));
            System.out.printf(Locale.ROOT, "minimum of the last half: sender loop %.2f us, receiver loop %.2f us, producer %.2f us%n",
                    min(sendCpu), min(recvCpu), min(prodCpu));
        } finally {
            NettyLoops.shutdown(ga);
            NettyLoops.shutdown(gb);
        }
    }

    private static String nativeTid(String namePrefix) {
        try (var tasks = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/task"))) {
            StringBuilder out = new StringBuilder();
            for (var t : (Iterable<java.nio.file.Path>) tasks::iterator) {
                String comm = java.nio.file.Files.readString(t.resolve("comm")).trim();
                if (comm.startsWith(namePrefix)) {
                    out.append(out.length() > 0 ? "," : "").append(t.getFileName());
                }
            }
            return out.toString();
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    private static double min(double[] v) {
        return Arrays.stream(Arrays.copyOfRange(v, v.length / 2, v.length)).min().orElse(Double.NaN);
    }

    private static double median(double[] v) {
        double[] last = Arrays.copyOfRange(v, v.length / 2, v.length);
        Arrays.sort(last);
        return last[last.length / 2];
    }
}
