package io.statecast.examples.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statecast.examples.ttcp.StoreProbe;
import io.statecast.examples.ttcp.TtcpReport;
import io.statecast.overlay.substrate.FaultStats;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The demo's JSON report and its table: per node what its application received (from the ttcp
 * receiver's summary), what its MessageStore holds at the end, and what its input lost.
 */
final class DemoReport {

    private DemoReport() {
    }

    /**
     * What one node ended with.
     *
     * @param index         1-based; node 1 sends
     * @param address       its logical (DT) address
     * @param substrate     its UDP address
     * @param ttcp          its ttcp report (sender's or receiver's)
     * @param store         its MessageStore at the end, or {@code null} without a store
     * @param storeDrops    its MessageStore's drops by cause, or {@code null}
     * @param input         the loss injected at its input
     * @param serviceLoaded whether its store holds the service at the end, or {@code null} for none
     */
    record NodeOutcome(int index, String address, String substrate, JsonNode ttcp, StoreProbe.Snapshot store,
            Map<String, Long> storeDrops, FaultStats input, String serviceLoaded) {

        boolean sender() {
            return index == 1;
        }
    }

    /** The report: options, totals and one entry per node. */
    static ObjectNode build(DemoOptions o, DemoService service, String specServer, long formMs, long distributeMs, long runMs,
            long elapsedMs, List<NodeOutcome> nodes, JsonNode senderReport) {
        ObjectNode r = TtcpReport.JSON.createObjectNode();
        r.put("service", service.serviceId() == null ? "none" : service.label());
        if (service.serviceId() == null) {
            r.putNull("serviceId");
        } else {
            r.put("serviceId", service.serviceId());
        }
        r.put("serviceName", service.name());
        r.put("promisesEveryMessage", service.promises().contains(DemoService.EVERY_MESSAGE));
        service.promises().forEach(r.putArray("promises")::add);
        r.put("messages", o.messages());
        r.put("size", o.size());
        r.put("lossRate", o.loss());
        r.put("rate", o.rate());
        r.put("seed", o.seed());
        r.put("nodeCount", o.nodes());
        r.put("specServer", specServer);
        r.put("formMs", formMs);
        r.put("serviceDistributionMs", distributeMs);
        r.put("runMs", runMs);
        r.put("elapsedMs", elapsedMs);
        JsonNode ss = senderReport.get("summary");
        ObjectNode sender = r.putObject("sender");
        sender.put("sent", ss.get("sent").asInt());
        sender.set("messagesPerSecond", ss.get("messagesPerSecond"));
        sender.set("throughputMbps", ss.get("throughputMbps"));
        sender.set("backpressureWaitMs", ss.get("backpressureWaitMs"));
        sender.set("outcome", senderReport.get("outcome"));

        ArrayNode list = r.putArray("nodes");
        long received = 0;
        long missing = 0;
        long duplicates = 0;
        long corrupt = 0;
        for (NodeOutcome n : nodes) {
            ObjectNode e = list.addObject();
            e.put("node", n.index());
            e.put("role", n.sender() ? "sender" : "receiver");
            e.put("address", n.address());
            e.put("substrate", n.substrate());
            JsonNode s = n.ttcp().get("summary");
            if (n.sender()) {
                for (String k : List.of("received", "duplicates", "missing", "corrupt", "delayMsP50", "delayMsP99", "delayMsMax")) {
                    e.putNull(k);
                }
                e.set("sent", s.get("sent"));
                e.set("throughputMbps", s.get("throughputMbps"));
            } else {
                for (String k : List.of("received", "duplicates", "missing", "corrupt", "delayMsP50", "delayMsP99", "delayMsMax",
                        "throughputMbps", "messagesPerSecond", "firstDataAfterJoinMs")) {
                    e.set(k, s.get(k) == null ? e.nullNode() : s.get(k));
                }
                received += s.get("received").asLong();
                missing += s.get("missing").asLong();
                duplicates += s.get("duplicates").asLong();
                corrupt += s.get("corrupt").asLong();
                e.set("outcome", n.ttcp().get("outcome"));
                JsonNode ranges = n.ttcp().get("missingRanges");
                e.set("missingRanges", ranges == null ? e.arrayNode() : ranges);
            }
            StoreProbe.Snapshot st = n.store();
            putLong(e, "dataBacklog", st == null ? null : st.dataBacklog());
            putLong(e, "controlBacklog", st == null ? null : st.controlBacklog());
            putLong(e, "liveInstances", st == null ? null : st.liveInstances());
            putLong(e, "liveInstancesPeak", peak(n.ttcp()));
            putLong(e, "storeProcessed", st == null ? null : st.processed());
            if (n.ttcp().get("tMsg") != null) {
                e.set("tMsgMeanMicros", n.ttcp().get("tMsg").get("meanMicros"));
            }
            if (n.storeDrops() == null) {
                e.putNull("storeDrops");
            } else {
                ObjectNode d = e.putObject("storeDrops");
                n.storeDrops().forEach((k, v) -> {
                    if (v > 0) {
                        d.put(k, v);
                    }
                });
            }
            e.put("service", n.serviceLoaded());
            // what went wrong below the service, if anything did: non-zero forwarding drops, the node's protocol counters
            ObjectNode fwd = e.putObject("forwardingDrops");
            n.ttcp().path("drops").path("forwarding").fields().forEachRemaining(f -> {
                if (f.getValue().asLong() > 0) {
                    fwd.set(f.getKey(), f.getValue());
                }
            });
            e.set("overlayCounters", n.ttcp().path("statistics").path("node"));
            ObjectNode in = e.putObject("inputLoss");
            in.put("frames", n.input().seen());
            in.put("dropped", n.input().lost());
        }
        ObjectNode t = r.putObject("totals");
        t.put("receivers", nodes.size() - 1);
        t.put("expected", (long) o.messages() * (nodes.size() - 1));
        t.put("received", received);
        t.put("missing", missing);
        t.put("duplicates", duplicates);
        t.put("corrupt", corrupt);
        return r;
    }

    private static void putLong(ObjectNode o, String k, Long v) {
        if (v == null) {
            o.putNull(k);
        } else {
            o.put(k, v);
        }
    }

    /** The most live instances any sample of the ttcp report saw, or {@code null} without a store. */
    private static Long peak(JsonNode ttcp) {
        JsonNode live = ttcp.path("samples").path("messageStore").path("liveInstances");
        if (!live.isArray()) {
            return null;
        }
        long max = 0;
        for (JsonNode v : live) {
            max = Math.max(max, v.asLong());
        }
        return max;
    }

    /** The table, one row per node. */
    static void printTable(PrintWriter out, JsonNode report) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"node", "address", "role", "received", "dup", "missing", "delay p50", "p99", "max",
            "Mbit/s", "backlog", "live", "input lost"});
        for (JsonNode n : report.get("nodes")) {
            boolean sender = "sender".equals(n.get("role").asText());
            rows.add(new String[] {
                n.get("node").asText(),
                n.get("address").asText(),
                sender ? "sent " + String.format(Locale.ROOT, "%,d", n.get("sent").asLong()) : "receiver",
                count(n.get("received")),
                count(n.get("duplicates")),
                count(n.get("missing")),
                ms(n.get("delayMsP50")),
                ms(n.get("delayMsP99")),
                ms(n.get("delayMsMax")),
                decimal(n.get("throughputMbps")),
                n.get("dataBacklog").isNull() ? "-" : n.get("dataBacklog").asLong() + "+" + n.get("controlBacklog").asLong(),
                count(n.get("liveInstances")),
                String.format(Locale.ROOT, "%,d/%,d", n.get("inputLoss").get("dropped").asLong(),
                        n.get("inputLoss").get("frames").asLong())
            });
        }
        int[] width = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        out.println();
        for (int r = 0; r < rows.size(); r++) {
            StringBuilder line = new StringBuilder();
            String[] row = rows.get(r);
            for (int i = 0; i < row.length; i++) {
                String cell = row[i];
                boolean left = i == 1 || i == 2;
                line.append(left ? pad(cell, width[i], true) : pad(cell, width[i], false)).append(i + 1 < row.length ? "  " : "");
            }
            out.println(line.toString().stripTrailing());
            if (r == 0) {
                out.println("-".repeat(line.toString().stripTrailing().length()));
            }
        }
        JsonNode t = report.get("totals");
        out.printf(Locale.ROOT, "%ntotal: %,d of %,d deliveries, %,d missing, %,d duplicates; delay in ms, backlog = data+control "
                + "messages queued in the MessageStore, live = service instances held at the end%n%n",
                t.get("received").asLong(), t.get("expected").asLong(), t.get("missing").asLong(), t.get("duplicates").asLong());
        out.flush();
    }

    private static String pad(String s, int w, boolean left) {
        String fill = " ".repeat(Math.max(0, w - s.length()));
        return left ? s + fill : fill + s;
    }

    private static String count(JsonNode v) {
        return v == null || v.isNull() ? "-" : String.format(Locale.ROOT, "%,d", v.asLong());
    }

    private static String ms(JsonNode v) {
        return v == null || v.isNull() ? "-" : String.format(Locale.ROOT, "%.1f", v.asDouble());
    }

    private static String decimal(JsonNode v) {
        return v == null || v.isNull() ? "-" : String.format(Locale.ROOT, "%.2f", v.asDouble());
    }
}
