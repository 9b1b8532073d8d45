package io.statecast.examples.bench;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;

/**
 * The {@link MessageStoreBenchmark} operations measured in thread CPU time and allocated bytes
 * per operation (ThreadMXBean), for a shared machine whose load makes JMH's wall-clock averages
 * say more about the neighbours than about the code. CPU time excludes waiting for a core but
 * still includes cache and hypervisor effects, so read it as an estimate of an idle machine.
 *
 * <pre>
 * java -cp "examples/target/statecast.jar:examples/target/lib/*" \
 *     io.statecast.examples.bench.MessageStoreCpuTime [SPEC.scxml...] [relayedMessage event newInstance relayedThroughStores]
 * </pre>
 *
 * SPEC is one of the benchmark's specs ({@code h2h-ack.scxml}, the default, {@code blueprint-h2h.scxml}, or
 * {@code h2h-ack-variant.scxml}: h2h-ack respelled by {@link SpecVariant}).
 *
 * Each operation runs 10 rounds of 20,000 (the first rounds warm the JIT); each round prints one
 * line, and the last line per operation is the median of the last five rounds.
 */
public final class MessageStoreCpuTime {

    private MessageStoreCpuTime() {
    }

    /** Runs the named operations (all when none is named) on the named specs (h2h-ack when none is named). */
    public static void main(String[] args) throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        List<String> specs = java.util.Arrays.stream(args).filter(a -> a.endsWith(".scxml")).toList();
        List<String> named = java.util.Arrays.stream(args).filter(a -> !a.endsWith(".scxml")).toList();
        List<String> ops = !named.isEmpty() ? named
                : List.of("relayedMessage", "event", "newInstance", "relayedThroughStores");
        for (String spec : specs.isEmpty() ? List.of("h2h-ack.scxml") : specs) {
            System.out.println("spec " + spec);
            run(mx, spec, ops);
        }
    }

    private static void run(com.sun.management.ThreadMXBean mx, String spec, List<String> ops) throws Exception {
        MessageStoreBenchmark b = new MessageStoreBenchmark();
        b.spec = spec;
        b.setUp();
        long tid = Thread.currentThread().getId();
        Object sink = null;
        try {
            for (String op : ops) {
                double[] cpu = new double[10];
                double[] bytes = new double[10];
                for (int round = 0; round < 10; round++) {
                    int n = 20_000;
                    long a0 = mx.getThreadAllocatedBytes(tid);
                    long c0 = mx.getCurrentThreadCpuTime();
                    for (int i = 0; i < n; i++) {
                        sink = switch (op) {
                            case "relayedMessage" -> b.relayedMessage();
                            case "event" -> b.event();
                            case "newInstance" -> b.newInstance();
                            case "relayedThroughStores" -> b.relayedThroughStores();
                            default -> throw new IllegalArgumentException("unknown operation " + op);
                        };
                    }
                    cpu[round] = (mx.getCurrentThreadCpuTime() - c0) / 1e3 / n;
                    bytes[round] = (mx.getThreadAllocatedBytes(tid) - a0) / (double) n;
                    System.out.printf(Locale.ROOT, "%s round %d: %.2f us CPU/op, %.0f B/op%n", op, round, cpu[round],
                            bytes[round]);
                }
                System.out.printf(Locale.ROOT, "%s: median of the last 5 rounds %.2f us CPU/op, %.0f B/op%n", op,
                        median(cpu), median(bytes));
            }
        } finally {
            b.tearDown();
        }
        if (sink == null) {
            System.out.println();
        }
    }

    private static double median(double[] v) {
        double[] last = java.util.Arrays.copyOfRange(v, v.length - 5, v.length);
        java.util.Arrays.sort(last);
        return last[2];
    }
}
