package io.statecast.examples.ttcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.forward.DropCause;
import io.statecast.overlay.forward.ForwardingStatistics;
import io.statecast.overlay.socket.OverlaySocket;
import io.statecast.overlay.socket.OverlayStatistics;
import io.statecast.overlay.substrate.SubstrateInterface;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Builds the parts of ttcp's JSON report that sender and receiver share, and writes it. */
public final class TtcpReport {

    /** The mapper every ttcp and demo report is written and read with. */
    public static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private TtcpReport() {
    }

    /** An empty JSON object of the reports. */
    public static ObjectNode object() {
        return JSON.createObjectNode();
    }

    /** {@code value} rounded to three decimals, or JSON null for NaN and infinities. */
    public static void putNumber(ObjectNode o, String key, double value) {
        if (Double.isFinite(value)) {
            o.put(key, Math.round(value * 1000.0) / 1000.0);
        } else {
            o.putNull(key);
        }
    }

    static ArrayNode longs(long[] values) {
        ArrayNode a = JSON.createArrayNode();
        for (long v : values) {
            a.add(v);
        }
        return a;
    }

    static ArrayNode doubles(double[] values) {
        ArrayNode a = JSON.createArrayNode();
        for (double v : values) {
            a.add(Double.isFinite(v) ? Math.round(v * 1000.0) / 1000.0 : 0);
        }
        return a;
    }

    /** The node: overlay address, substrate addresses, state and neighbours. */
    static ObjectNode node(OverlaySocket socket) {
        ObjectNode n = object();
        n.put("address", socket.localAddress().toString());
        ArrayNode subs = n.putArray("substrate");
        for (SubstrateAddress a : socket.substrateAddresses()) {
            subs.add(a.toString());
        }
        n.put("state", socket.state().name());
        n.put("neighbours", socket.neighbours().size());
        return n;
    }

    /** The store's {@link StoreProbe#activity()} as an object, or JSON null without a store. */
    static JsonNode activity(StoreProbe probe) {
        Map<String, Long> a = probe.activity();
        if (a == null) {
            return NullNode.getInstance();
        }
        ObjectNode o = object();
        a.forEach(o::put);
        return o;
    }

    /**
     * Drops by cause: the forwarding engine's (every cause, zeros included, so reports compare
     * key by key), the adapter's and each interface's non-zero drop counters, the MessageStore's
     * (every cause; null when {@code probe} reads nothing), and the kernel's UDP counters since
     * {@code kernelBefore} (namespace-wide; absent where /proc is unreadable).
     */
    public static ObjectNode drops(OverlaySocket socket, Map<String, Long> kernelBefore, StoreProbe probe) {
        ObjectNode d = object();
        OverlayStatistics stats = socket.statistics();
        ForwardingStatistics f = stats.forwarding();
        ObjectNode fwd = d.putObject("forwarding");
        long total = 0;
        for (DropCause c : DropCause.values()) {
            long v = f.drops(c);
            fwd.put(c.name().toLowerCase(Locale.ROOT), v);
            total += v;
        }
        ObjectNode adapter = d.putObject("adapter");
        for (Map.Entry<String, Long> e : socket.adapter().metrics().snapshot().entrySet()) {
            if (e.getKey().contains(".dropped.")) {
                adapter.put(e.getKey(), e.getValue());
                total += e.getValue();
            }
        }
        ObjectNode ifs = d.putObject("interfaces");
        for (SubstrateInterface i : socket.adapter().interfaces()) {
            ObjectNode one = ifs.putObject(i.localAddress().toString());
            for (Map.Entry<String, Long> e : i.metrics().snapshot().entrySet()) {
                if (e.getKey().contains(".dropped.")) {
                    one.put(e.getKey(), e.getValue());
                    total += e.getValue();
                }
            }
        }
        Map<String, Long> store = probe.drops();
        if (store == null) {
            d.putNull("messageStore");
        } else {
            ObjectNode ms = d.putObject("messageStore");
            for (Map.Entry<String, Long> e : store.entrySet()) {
                ms.put(e.getKey(), e.getValue());
                total += e.getValue();
            }
        }
        d.put("total", total);
        Map<String, Long> kernel = KernelUdp.delta(kernelBefore, KernelUdp.read());
        if (kernel.isEmpty()) {
            d.putNull("kernelUdp");
        } else {
            ObjectNode k = d.putObject("kernelUdp");
            kernel.forEach(k::put);
        }
        return d;
    }

    /** The kernel's UDP counters now, for {@link #drops}'s {@code kernelBefore} (empty where /proc is unreadable). */
    public static Map<String, Long> kernelUdp() {
        return KernelUdp.read();
    }

    /** What ran the node: the processor model, the CPUs this JVM sees, and the JVM's version. */
    public static ObjectNode machine() {
        ObjectNode o = object();
        o.put("cpuModel", HostCpu.model());
        o.put("availableProcessors", Runtime.getRuntime().availableProcessors());
        o.put("javaVersion", Runtime.version().toString());
        return o;
    }

    /** The socket's counters: forwarding totals and the node's protocol counters. */
    static ObjectNode statistics(OverlaySocket socket) {
        OverlayStatistics s = socket.statistics();
        ObjectNode o = object();
        ForwardingStatistics f = s.forwarding();
        o.put("received", f.received());
        o.put("originated", f.originated());
        o.put("delivered", f.delivered());
        o.put("transmissions", f.transmissions());
        o.put("toStore", f.toStore());
        o.put("appQueue", s.queued());
        ObjectNode node = o.putObject("node");
        s.node().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> node.put(e.getKey(), e.getValue()));
        ObjectNode adapter = o.putObject("adapter");
        socket.adapter().metrics().snapshot().forEach(adapter::put);
        return o;
    }

    /**
     * The samples over time as columns; MessageStore columns are null when the probe reads
     * nothing, with the reason.
     */
    static ObjectNode samples(List<Sampler.Sample> samples, long periodMs, long dropped, StoreProbe probe) {
        ObjectNode o = object();
        o.put("periodMs", periodMs);
        o.put("count", samples.size());
        o.put("notKept", dropped);
        int n = samples.size();
        long[] t = new long[n];
        long[] heap = new long[n];
        long[] committed = new long[n];
        long[] queue = new long[n];
        long[] progress = new long[n];
        long[] cpu = new long[n];
        long[] jit = new long[n];
        long[] gc = new long[n];
        long[] idle = new long[n];
        long[] steal = new long[n];
        long[] voluntary = new long[n];
        long[] involuntary = new long[n];
        long[] canary = new long[n];
        for (int i = 0; i < n; i++) {
            Sampler.Sample s = samples.get(i);
            t[i] = s.tMicros();
            heap[i] = s.heapUsedBytes();
            committed[i] = s.heapCommittedBytes();
            queue[i] = s.appQueue();
            progress[i] = s.progress();
            cpu[i] = s.cpuMicros();
            jit[i] = s.jitMillis();
            gc[i] = s.gcMillis();
            idle[i] = s.machine().idleMillis();
            steal[i] = s.machine().stealMillis();
            voluntary[i] = s.switches().voluntary();
            involuntary[i] = s.switches().involuntary();
            canary[i] = s.canaryNanos();
        }
        o.set("tMicros", longs(t));
        o.set("heapUsedBytes", longs(heap));
        o.set("heapCommittedBytes", longs(committed));
        o.set("appQueue", longs(queue));
        o.set("progress", longs(progress));
        o.set("cpuMicros", longs(cpu));
        o.set("jitMillis", longs(jit));
        o.set("gcMillis", longs(gc));
        o.set("idleMillis", longs(idle));
        o.set("stealMillis", longs(steal));
        o.set("voluntarySwitches", longs(voluntary));
        o.set("involuntarySwitches", longs(involuntary));
        o.set("canaryNanos", longs(canary));
        ObjectNode store = o.putObject("messageStore");
        store.put("available", probe.available());
        store.put("source", probe.reason());
        if (!probe.available()) {
            store.putNull("dataBacklog");
            store.putNull("controlBacklog");
            store.putNull("liveInstances");
            store.putNull("processed");
            store.putNull("tMsgMeanMicros");
            store.putNull("tMsgMaxMicros");
        } else {
            ArrayNode data = store.putArray("dataBacklog");
            ArrayNode control = store.putArray("controlBacklog");
            ArrayNode live = store.putArray("liveInstances");
            ArrayNode processed = store.putArray("processed");
            ArrayNode mean = store.putArray("tMsgMeanMicros");
            ArrayNode max = store.putArray("tMsgMaxMicros");
            for (Sampler.Sample s : samples) {
                StoreProbe.Snapshot st = s.store();
                addNullable(data, st == null ? null : st.dataBacklog());
                addNullable(control, st == null ? null : st.controlBacklog());
                addNullable(live, st == null ? null : st.liveInstances());
                addNullable(processed, st == null ? null : st.processed());
                addNullable(mean, st == null ? null : st.tMsgMeanMicros());
                addNullable(max, st == null ? null : st.tMsgMaxMicros());
            }
        }
        return o;
    }

    private static void addNullable(ArrayNode a, Number v) {
        if (v == null) {
            a.addNull();
        } else if (v instanceof Double d) {
            a.add(d);
        } else {
            a.add(v.longValue());
        }
    }

    /**
     * T_msg over the run: the processed-weighted mean of the store's per-interval means and the
     * largest maximum, or nulls and the probe's reason when the store reports no T_msg.
     */
    static ObjectNode tMsg(List<Sampler.Sample> samples, StoreProbe probe) {
        ObjectNode t = object();
        double max = Double.NaN;
        double weighted = 0;
        long weight = 0;
        Long prev = null;
        for (Sampler.Sample s : samples) {
            StoreProbe.Snapshot st = s.store();
            if (st == null || st.tMsgMeanMicros() == null) {
                continue;
            }
            long processed = st.processed() == null ? 1 : st.processed();
            long n = prev == null ? processed : processed - prev;
            prev = processed;
            if (n > 0) {
                weighted += st.tMsgMeanMicros() * n;
                weight += n;
            }
            if (st.tMsgMaxMicros() != null && !(st.tMsgMaxMicros() <= max)) {
                max = st.tMsgMaxMicros();
            }
        }
        if (weight == 0) {
            t.putNull("meanMicros");
            t.putNull("maxMicros");
            t.put("note", probe.available() ? "the MessageStore reported no T_msg" : probe.reason());
        } else {
            putNumber(t, "meanMicros", weighted / weight);
            putNumber(t, "maxMicros", max);
        }
        return t;
    }

    /** How long before a run the canary's readings show the processor's speed before it. */
    static final long CANARY_BEFORE_MICROS = 5_000_000;

    /**
     * Puts {@code canaryMicrosInRun} and {@code canaryMicrosBefore} into {@code summary}: the
     * medians of the {@link SpeedCanary}'s readings while the run's messages passed (the samples
     * after the last one before the first message, up to the first with them all) and over the
     * {@value #CANARY_BEFORE_MICROS} µs before; null where no reading falls there. Their ratio is how
     * much slower the processor ran this process's code under the run's load.
     */
    static void putCanary(ObjectNode summary, List<Sampler.Sample> samples) {
        long all = 0;
        for (Sampler.Sample s : samples) {
            all = Math.max(all, s.progress());
        }
        int first = -1;
        int end = -1;
        for (int i = 0; i < samples.size() && end < 0; i++) {
            long p = samples.get(i).progress();
            if (p > 0 && first < 0) {
                first = i;
            }
            if (all > 0 && p == all) {
                end = i;
            }
        }
        List<Long> inRun = new ArrayList<>();
        List<Long> before = new ArrayList<>();
        if (end >= 0) {
            int start = first - 1;
            for (int i = start + 1; i <= end; i++) {
                addReading(inRun, samples.get(i));
            }
            if (start >= 0) {
                long from = samples.get(start).tMicros() - CANARY_BEFORE_MICROS;
                for (int i = start; i >= 0 && samples.get(i).tMicros() >= from; i--) {
                    addReading(before, samples.get(i));
                }
            }
        }
        putNumber(summary, "canaryMicrosInRun", medianMicros(inRun));
        putNumber(summary, "canaryMicrosBefore", medianMicros(before));
    }

    private static void addReading(List<Long> readings, Sampler.Sample s) {
        if (s.canaryNanos() >= 0) {
            readings.add(s.canaryNanos());
        }
    }

    private static double medianMicros(List<Long> nanos) {
        if (nanos.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = nanos.stream().mapToDouble(n -> n / 1e3).sorted().toArray();
        return TtcpStats.percentile(sorted, 50);
    }

    /** Writes {@code report} to {@code file} atomically (a temporary file renamed over it). */
    public static void write(ObjectNode report, Path file) throws IOException {
        Path abs = file.toAbsolutePath();
        Path dir = abs.getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
        try {
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                JSON.writerWithDefaultPrettyPrinter().writeValue(w, report);
            }
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
