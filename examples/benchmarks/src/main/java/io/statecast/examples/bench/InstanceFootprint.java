package io.statecast.examples.bench;

import io.statecast.messagestore.MessageStore;
import io.statecast.messagestore.MessageStoreConfig;
import io.statecast.messagestore.deploy.ServiceLoadException;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.metrics.CountersSnapshot;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecLimits;
import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;

/**
 * Retained heap per live service instance (issue #8's "at most 2 KB plus payload per live
 * instance"). Two whole {@link MessageStore}s on one virtual clock, wired like
 * {@link MessageStoreBenchmark}'s {@code relayedThroughStores} but with the spec's default
 * parameters and a clock that never moves: every relayed message leaves one instance at the
 * source and one at its child, acknowledged and finished (h2h-ack: both in {@code done}, waiting
 * for TimeoutMsg), with their timers queued — the steady state of a node that keeps
 * {@code TimeoutMsg × rate} instances. Each node gets its own copy of the payload, as a decoded
 * datagram would be.
 *
 * <pre>
 * java -Xmx2g -cp "examples/target/statecast.jar:examples/target/lib/*" \
 *     io.statecast.examples.bench.InstanceFootprint [--count 100000] [--size 1024] [--histogram 25] [spec ...]
 * </pre>
 *
 * Specs are class-path resources ({@code services/h2h-ack.scxml}, the default together with
 * {@code services/e2e-ack.scxml}). Reports the used heap after {@code System.gc()} (three times)
 * before and after creating the instances, per instance with and without the payload array, and
 * the top of the class histogram of the live heap (the diagnostic command behind
 * {@code jcmd PID GC.class_histogram}).
 */
public final class InstanceFootprint {

    private static final LogicalAddress SOURCE = new TreeAddress(1);
    private static final LogicalAddress CHILD = new TreeAddress(2);

    private InstanceFootprint() {
    }

    /** Measures each spec named (both shipped acknowledgement services when none is). */
    public static void main(String[] args) throws Exception {
        int count = 100_000;
        int size = 1024;
        int histogram = 25;
        List<String> specs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--count" -> count = Integer.parseInt(args[++i]);
                case "--size" -> size = Integer.parseInt(args[++i]);
                case "--histogram" -> histogram = Integer.parseInt(args[++i]);
                default -> specs.add(args[i]);
            }
        }
        if (specs.isEmpty()) {
            specs = List.of("services/h2h-ack.scxml", "services/e2e-ack.scxml");
        }
        SpecLimits d = SpecLimits.DEFAULTS;
        try (SpecLoader loader = new SpecLoader(new SpecLimits(d.maxBytes(), d.maxElements(), d.maxDepth(),
                Duration.ofMinutes(2), d.queries()))) {
            for (String spec : specs) {
                measure(loader.load(MessageStoreBenchmark.resource("/" + spec), spec), count, size, histogram);
            }
        }
    }

    private static void measure(ServiceSpec spec, int count, int size, int histogram) throws Exception {
        int service = spec.service().serviceId();
        Pair warm = new Pair(spec, 1000);
        for (int i = 0; i < 1000; i++) {
            warm.relay(service, -1 - i, size);
        }
        warm.close();
        Pair pair = new Pair(spec, count + 1000);
        long before = usedAfterGc();
        for (long id = 0; id < count; id++) {
            pair.relay(service, id, size);
        }
        long after = usedAfterGc();
        CountersSnapshot src = pair.atSource.metrics().service(service).counters();
        CountersSnapshot dst = pair.atChild.metrics().service(service).counters();
        int live = src.liveInstances() + dst.liveInstances();
        double perInstance = (after - before) / (double) live;
        long payloadArray = (16 + size + 7) / 8 * 8;
        System.out.printf(Locale.ROOT, "%s: %d relayed messages, %d live instances (source %d, child %d; "
                + "composites fired %d, finished %d, terminated %d), %d timers queued%n",
                spec.service().name(), count, live, src.liveInstances(), dst.liveInstances(), src.compositesFired(),
                src.finished() + dst.finished(), src.terminated() + dst.terminated(), pair.clock.pendingTasks());
        System.out.printf(Locale.ROOT, "%s: retained %.1f MB, %.0f B per live instance, %.0f B without its "
                + "%d B payload array%n", spec.service().name(), (after - before) / 1e6, perInstance,
                perInstance - payloadArray, payloadArray);
        if (histogram > 0) {
            printHistogram(histogram);
        }
        pair.close();
    }

    private static long usedAfterGc() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100); // lets G1's concurrent work after the full collection settle
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private static void printHistogram(int lines) throws Exception {
        String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {new String[0]}, new String[] {String[].class.getName()});
        String[] rows = text.split("\n");
        for (int i = 0; i < Math.min(rows.length, lines + 2); i++) {
            System.out.println(rows[i]);
        }
    }

    /** A source and its child, each a whole store, on one virtual clock. */
    private static final class Pair {
        final VirtualTimerService clock = new VirtualTimerService();
        final MessageStore atSource;
        final MessageStore atChild;

        Pair(ServiceSpec spec, int maxLive) throws ServiceLoadException {
            InstanceLimits limits = InstanceLimits.DEFAULTS.withMaxLiveInstances(maxLive)
                    .withPrimitiveRate(1_000_000, 1e12);
            MessageStoreConfig config = MessageStoreConfig.defaults().withShards(1)
                    .withThreading(MessageStoreConfig.Threading.CLOCK).withInstances(limits);
            atSource = new MessageStore(config);
            atChild = new MessageStore(config);
            atSource.open(new MessageStoreBenchmark.BenchOverlay(SOURCE,
                    MessageStoreBenchmark.sourceTopology(SOURCE, CHILD), clock, null));
            atChild.open(new MessageStoreBenchmark.BenchOverlay(CHILD,
                    MessageStoreBenchmark.childTopology(CHILD, SOURCE), clock, atSource));
            atSource.install(spec);
            atChild.install(spec);
        }

        void relay(int service, long id, int size) {
            atSource.receiveMessage(payload(service, id, size), Arrival.FROM_APPLICATION);
            atChild.receiveMessage(payload(service, id, size).forwardedBy(SOURCE), Arrival.DELIVERED);
            clock.advanceBy(0, TimeUnit.MILLISECONDS);
        }

        private static OverlayMessage payload(int service, long id, int size) {
            byte[] bytes = new byte[size];
            bytes[0] = (byte) id;
            return new OverlayMessage(DeliveryMode.MULTICAST, 255, SOURCE, null, SOURCE, null,
                    List.of(new FsmExtension(service, FsmExtension.PAYLOAD_TYPE, id), new PayloadExtension(bytes)));
        }

        void close() {
            atSource.close();
            atChild.close();
        }
    }
}
