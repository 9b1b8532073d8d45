package io.statecast.examples.sidebyside;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statecast.examples.ttcp.HostCpu;
import io.statecast.examples.ttcp.ShippedService;
import io.statecast.examples.ttcp.TtcpReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code statecast sidebyside}: JGroups and Statecast's delivery services in the same shapes, in
 * one run, as separate JVM processes on one loopback: two processes (unicast) and one sender with
 * N receivers (multicast), at each datagram loss rate, with the same message count and size. The
 * Statecast side runs {@code ttcp send|recv} nodes with the service loaded; the JGroups side
 * {@link JGroupsPeer}s on the stack of {@link JGroupsStack}. A third shape, total-order, has N
 * members that all send and all deliver everyone's messages in one order ({@link OrderPeer}):
 * JGroups' SEQUENCER against the total-order service; it also compares the members' orders. Loss needs a network namespace
 * ({@link LossyNamespace}, root); {@code --no-netns} runs lossless cells on the machine's own
 * loopback. Prints one Markdown table ({@link SideBySideTable}).
 */
@Command(name = "sidebyside", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "JGroups (UDP, NAKACK2, UNICAST3, FD_ALL3) and Statecast services side by side, in one run: 2 processes",
            "(unicast) and 1 sender + N receivers (multicast), separate JVMs on the loopback of a network namespace",
            "whose nftables rule drops --loss %% of the UDP datagrams. Prints msgs/s, delay p50/p99 and CPU per",
            "message of each, and their ratios to JGroups. total-order: --members processes all sending, JGroups with",
            "SEQUENCER against the total-order service; says whether every member delivered one order.",
            "Needs root, iproute2 and nftables (or --no-netns, lossless).",
            "Exit status: 0 every cell ran, 1 a cell failed to deliver or report, 2 bad arguments."
        })
public final class SideBySideCommand implements Callable<Integer> {

    /** The shapes of a cell. */
    enum Shape {
        unicast, multicast, total_order;

        /** The name on the command line and in the table. */
        String label() {
            return name().replace('_', '-');
        }
    }

    /** Reads a shape by its {@link Shape#label()}. */
    static final class ShapeConverter implements CommandLine.ITypeConverter<Shape> {
        @Override
        public Shape convert(String value) {
            for (Shape s : Shape.values()) {
                if (s.label().equalsIgnoreCase(value.trim())) {
                    return s;
                }
            }
            throw new CommandLine.TypeConversionException("shape '" + value + "' is not unicast, multicast or total-order");
        }
    }

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--shapes", split = ",", defaultValue = "unicast,multicast", paramLabel = "SHAPE",
            converter = ShapeConverter.class,
            description = {"unicast (2 processes), multicast (1 sender + --receivers) and/or total-order (--members, all",
                "sending; JGroups with SEQUENCER) (default: ${DEFAULT-VALUE})"})
    private List<Shape> shapes;

    @Option(names = "--loss", split = ",", defaultValue = "0,1,5,10,20", paramLabel = "PERCENT",
            description = "datagram loss rates, per cent (default: ${DEFAULT-VALUE})")
    private List<Integer> losses;

    @Option(names = "--unicast-services", split = ",", defaultValue = "reliable-unicast,h2h-ack", paramLabel = "NAME",
            description = "Statecast services of the unicast shape, by shipped name; empty for none (default: ${DEFAULT-VALUE})")
    private List<String> unicastServices;

    @Option(names = "--multicast-services", split = ",", defaultValue = "h2h-ack,e2e-ack", paramLabel = "NAME",
            description = "Statecast services of the multicast shape, e.g. add nak-multicast; empty for none (default: ${DEFAULT-VALUE})")
    private List<String> multicastServices;

    @Option(names = "--order-services", split = ",", defaultValue = "total-order", paramLabel = "NAME",
            description = "Statecast services of the total-order shape (loaded with Group: the members) (default: ${DEFAULT-VALUE})")
    private List<String> orderServices;

    @Option(names = "--order-parameters", split = ",", paramLabel = "NAME=VALUE",
            description = "total-order: the service's parameters beside Group, over this command's (TokenRetransmit=100, MaxResends=100, TokenLoss=10000, StartDelay=1000, Interval=1000)")
    private Map<String, String> orderParameterOverrides = new LinkedHashMap<>();

    @Option(names = "--members", defaultValue = "5", paramLabel = "N",
            description = "members of the total-order shape, every one sending (default: ${DEFAULT-VALUE})")
    private int members;

    @Option(names = "--order-count", defaultValue = "1000", paramLabel = "N",
            description = "total-order: measured messages per member; each member delivers --members times as many (default: ${DEFAULT-VALUE})")
    private int orderCount;

    @Option(names = "--order-warmup", defaultValue = "100", paramLabel = "N",
            description = "total-order: warm-up messages per member (default: ${DEFAULT-VALUE})")
    private int orderWarmup;

    @Option(names = "--order-window", defaultValue = "50", paramLabel = "N",
            description = "total-order: a member's own messages sent and not yet delivered back, at most; both systems (default: ${DEFAULT-VALUE})")
    private int orderWindow;

    @Option(names = "--order-idle", defaultValue = "40", paramLabel = "S",
            description = {"total-order: a member gives up this long after its last delivery (default: ${DEFAULT-VALUE}; the ring",
                "has paused for over 10 s on a loaded machine and then gone on)"})
    private int orderIdle;

    @Option(names = "--no-jgroups", description = "run the Statecast cells only")
    private boolean noJGroups;

    @Option(names = "--receivers", defaultValue = "5", paramLabel = "N",
            description = "receivers of the multicast shape (default: ${DEFAULT-VALUE})")
    private int receivers;

    @Option(names = "--count", defaultValue = "20000", paramLabel = "N", description = "measured messages per cell (default: ${DEFAULT-VALUE})")
    private int count;

    @Option(names = "--size", defaultValue = "1024", paramLabel = "BYTES", description = "payload bytes (default: ${DEFAULT-VALUE})")
    private int size;

    @Option(names = "--rate", paramLabel = "MSGS_PER_S",
            description = "send rate; default: as fast as each system's flow control lets the sender")
    private Double rate;

    @Option(names = "--warmup", defaultValue = "2000", paramLabel = "N",
            description = "warm-up messages before each cell's measured ones (default: ${DEFAULT-VALUE})")
    private int warmup;

    @Option(names = "--cell-timeout", defaultValue = "180", paramLabel = "S",
            description = "longest a cell may take; its processes are stopped then (default: ${DEFAULT-VALUE})")
    private int cellTimeout;

    @Option(names = "--idle", defaultValue = "10", paramLabel = "S",
            description = "a receiver gives up this long after its last message (default: ${DEFAULT-VALUE})")
    private int idle;

    @Option(names = "--jvm-opts", defaultValue = "-Xms256m -Xmx1g", paramLabel = "OPTS",
            description = "JVM options of every peer process, both systems (default: ${DEFAULT-VALUE})")
    private String jvmOpts;

    @Option(names = "--threading", defaultValue = "dedicated", paramLabel = "MODE",
            description = "the Statecast nodes' messageStore.threading: dedicated, clock or io (default: ${DEFAULT-VALUE}, the store's own)")
    private String threading;

    @Option(names = "--no-netns", description = "run on this machine's loopback, without a namespace (no root; loss must be 0)")
    private boolean noNetns;

    @Option(names = "--out", paramLabel = "DIR", description = "the cells' configurations, logs and reports (default: sidebyside-DATE-TIME)")
    private Path outDir;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON")
    private Path json;

    /** Longest wait for one process to start (a loaded two-core machine took a minute). */
    static final int START_SECONDS = 120;

    /** Peer processes running now, so a shutdown hook can stop them. */
    private final Set<Process> live = ConcurrentHashMap.newKeySet();

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        List<ShippedService> uni = services(unicastServices);
        List<ShippedService> multi = services(multicastServices);
        List<ShippedService> order = services(orderServices);
        check();
        Path dir = outDir != null ? outDir
                : Path.of("sidebyside-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)));
        Files.createDirectories(dir);
        boolean oneSender = shapes.contains(Shape.unicast) || shapes.contains(Shape.multicast);
        out.printf(Locale.ROOT, "sidebyside: %s%d bytes per message, %s; loss %s %%; %s; output in %s%n",
                oneSender ? String.format(Locale.ROOT, "unicast/multicast: %d messages per cell (+%d warm-up); ", count, warmup) : "",
                size, rate == null ? "as fast as flow control allows" : rate + " msgs/s (unicast/multicast)", losses,
                noNetns ? "this machine's loopback" : "a network namespace's loopback", dir);
        if (shapes.contains(Shape.total_order)) {
            out.printf(Locale.ROOT, "sidebyside: total-order: %d members, each sending %d messages (+%d warm-up), at most %d of its own undelivered%n",
                    members, orderCount, orderWarmup, orderWindow);
        }
        out.printf(Locale.ROOT, "sidebyside: machine: %s, %d processors, Java %s%n", HostCpu.model(),
                Runtime.getRuntime().availableProcessors(), Runtime.version());
        out.flush();
        List<CellResult> results = new ArrayList<>();
        LossyNamespace ns = noNetns ? null : LossyNamespace.create("sc-sbs-" + ProcessHandle.current().pid() % 100_000);
        Thread hook = new Thread(() -> {
            live.forEach(SideBySideCommand::stop);
            if (ns != null) {
                ns.close();
            }
        }, "sidebyside-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            for (Shape shape : shapes) {
                List<ShippedService> services = shape == Shape.unicast ? uni : shape == Shape.multicast ? multi : order;
                int n = shape == Shape.unicast ? 1 : receivers;
                for (int loss : losses) {
                    if (ns != null) {
                        ns.loss(loss);
                    }
                    List<String> prefix = ns == null ? List.of() : ns.exec();
                    if (shape == Shape.total_order) {
                        if (!noJGroups) {
                            results.add(report(out, orderCell(dir, prefix, loss, null)));
                        }
                        for (ShippedService s : services) {
                            results.add(report(out, orderCell(dir, prefix, loss, s)));
                        }
                        continue;
                    }
                    if (!noJGroups) {
                        results.add(report(out, jgroupsCell(dir, prefix, shape, n, loss)));
                    }
                    for (ShippedService s : services) {
                        results.add(report(out, statecastCell(dir, prefix, shape, n, loss, s)));
                    }
                }
            }
        } finally {
            live.forEach(SideBySideCommand::stop);
            if (ns != null) {
                ns.close();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
        out.println();
        out.print(SideBySideTable.markdown(results));
        out.flush();
        if (json != null) {
            TtcpReport.write(toJson(results), json);
        }
        return results.stream().allMatch(r -> r.note().isEmpty()) ? 0 : 1;
    }

    private List<ShippedService> services(List<String> names) {
        List<ShippedService> list = new ArrayList<>();
        for (String name : names) {
            if (name.isBlank()) {
                continue; // "--multicast-services=" runs none
            }
            try {
                list.add(ShippedService.byName(name));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        return list;
    }

    private void check() {
        CommandLine cl = spec.commandLine();
        for (int loss : losses) {
            if (loss < 0 || loss > 99) {
                throw new CommandLine.ParameterException(cl, "--loss=" + loss + " must be within 0..99");
            }
            if (loss > 0 && noNetns) {
                throw new CommandLine.ParameterException(cl, "--loss=" + loss + " needs a network namespace: drop --no-netns (and run as root)");
            }
        }
        if (members < 2 || members > 16) {
            throw new CommandLine.ParameterException(cl, "--members=" + members + " must be within 2..16");
        }
        if (orderCount < 1 || orderCount > 100_000 || orderWarmup < 0 || orderWarmup > 100_000) {
            throw new CommandLine.ParameterException(cl, "--order-count must be within 1..100000 and --order-warmup within 0..100000");
        }
        if (orderWindow < 1 || orderWindow > 10_000) {
            throw new CommandLine.ParameterException(cl, "--order-window=" + orderWindow + " must be within 1..10000");
        }
        if (receivers < 1 || receivers > 50) {
            throw new CommandLine.ParameterException(cl, "--receivers=" + receivers + " must be within 1..50");
        }
        if (count < 1 || count > 1_000_000) {
            throw new CommandLine.ParameterException(cl, "--count=" + count + " must be within 1..1000000");
        }
        if (size < 64 || size > 8192) {
            throw new CommandLine.ParameterException(cl, "--size=" + size + " must be within 64..8192");
        }
        if (warmup < 0 || warmup > 1_000_000) {
            throw new CommandLine.ParameterException(cl, "--warmup=" + warmup + " must be within 0..1000000");
        }
        if (rate != null && !(rate > 0 && rate <= 10_000_000)) {
            throw new CommandLine.ParameterException(cl, "--rate=" + rate + " must be within 0..10000000 (exclusive of 0)");
        }
        if (cellTimeout < 10 || cellTimeout > 86_400 || idle < 1 || idle > 3_600 || orderIdle < 1 || orderIdle > 3_600) {
            throw new CommandLine.ParameterException(cl, "--cell-timeout must be within 10..86400, --idle and --order-idle within 1..3600 seconds");
        }
        if (!threading.matches("dedicated|clock|io")) {
            throw new CommandLine.ParameterException(cl, "--threading=" + threading + " must be dedicated, clock or io");
        }
        if (!noNetns && ProcessHandle.current().info().user().map(u -> !u.equals("root")).orElse(false)) {
            throw new CommandLine.ParameterException(cl, "network namespaces need root: run as root, or with --no-netns (lossless only)");
        }
    }

    private CellResult report(PrintWriter out, CellResult r) {
        out.printf(Locale.ROOT, "sidebyside: %s, loss %d %%, %s: %s msgs/s, delay p50 %s ms, p99 %s ms, CPU %s µs/msg, delivered %d/%d, duplicates %s, out of order %s%s%s%n",
                r.shape(), r.lossPercent(), r.system(), SideBySideTable.format(r.messagesPerSecond(), 0),
                SideBySideTable.format(r.delayMsP50(), 2), SideBySideTable.format(r.delayMsP99(), 2),
                SideBySideTable.format(r.cpuMicrosPerMessage(), 1), r.delivered(), r.expected(),
                SideBySideTable.count(r.duplicates()), SideBySideTable.count(r.outOfOrder()),
                r.sameOrder() == null ? "" : r.sameOrder() ? ", one order" : ", MEMBERS DELIVERED DIFFERENT ORDERS",
                r.note().isEmpty() ? "" : " (" + r.note() + ")");
        out.flush();
        return r;
    }

    private CellResult jgroupsCell(Path dir, List<String> prefix, Shape shape, int n, int loss) throws IOException, InterruptedException {
        Path cell = Files.createDirectories(dir.resolve(shape.label() + "-loss" + loss + "-jgroups"));
        List<Integer> ports = freePorts(n + 1);
        String portList = ports.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElseThrow();
        List<String> common = new ArrayList<>(List.of("--ports", portList, "--count", String.valueOf(count), "--size", String.valueOf(size),
                "--warmup", String.valueOf(warmup), "--idle-ms", String.valueOf(idle * 1000L),
                "--wait-ms", String.valueOf((n + 1) * START_SECONDS * 1000L), "--linger-ms", String.valueOf(Math.max(30_000L, cellTimeout * 500L))));
        if (shape == Shape.unicast) {
            common.add("--unicast");
        }
        if (rate != null) {
            common.addAll(List.of("--rate", String.valueOf(rate)));
        }
        List<Process> procs = new ArrayList<>();
        try {
            // one after the other, the sender (the group's coordinator) first, as for Statecast
            List<String> a = new ArrayList<>(List.of("jgroups", "send", "--port", String.valueOf(ports.get(0)),
                    "--json", cell.resolve("n1.json").toString()));
            a.addAll(common);
            procs.add(start(prefix, a, cell.resolve("n1.log")));
            awaitLine(procs.get(0), cell.resolve("n1.log"), "connected as");
            for (int i = 1; i <= n; i++) {
                Path log = cell.resolve("n" + (i + 1) + ".log");
                List<String> r = new ArrayList<>(List.of("jgroups", "recv", "--port", String.valueOf(ports.get(i)),
                        "--json", cell.resolve("n" + (i + 1) + ".json").toString()));
                r.addAll(common);
                procs.add(start(prefix, r, log));
                awaitLine(procs.get(procs.size() - 1), log, "connected as");
            }
            String note = awaitAll(procs);
            return collect(cell, shape, loss, CellResult.REFERENCE, n, note);
        } finally {
            procs.forEach(SideBySideCommand::stop);
        }
    }

    /**
     * A total-order cell: {@code --members} processes, each sending {@code --order-count} messages
     * and delivering everyone's; JGroups with SEQUENCER when {@code service} is null, else the
     * Statecast service loaded with {@code Group} the members. Members start one after the other,
     * member 1 first (JGroups' coordinator and so its sequencer; the ring's first member).
     */
    private CellResult orderCell(Path dir, List<String> prefix, int loss, ShippedService service)
            throws IOException, InterruptedException {
        String system = service == null ? CellResult.REFERENCE : service.name();
        Path cell = Files.createDirectories(dir.resolve(Shape.total_order.label() + "-loss" + loss + "-" + system));
        List<Integer> ports = freePorts(members);
        List<String> common = List.of("--members", String.valueOf(members), "--count", String.valueOf(orderCount),
                "--size", String.valueOf(size), "--warmup", String.valueOf(orderWarmup), "--window", String.valueOf(orderWindow),
                "--wait-ms", String.valueOf((members + 1) * START_SECONDS * 1000L), "--idle-ms", String.valueOf(orderIdle * 1000L),
                "--linger-ms", String.valueOf(Math.max(30_000L, cellTimeout * 250L)), "--stay-ms", String.valueOf(cellTimeout * 1000L));
        if (service != null) {
            Map<String, String> parameters = orderParameters(members);
            parameters.putAll(orderParameterOverrides);
            String store = service.messageStoreYaml((orderCount + orderWarmup) * members * 2, threading,
                    "historyEntries: 4000, primitiveBurst: 100000, primitiveRatePerSecond: 10000000", parameters);
            for (int i = 1; i <= members; i++) {
                writeConfig(cell.resolve("n" + i + ".yaml"), i, ports, store);
            }
        }
        String portList = ports.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElseThrow();
        List<Process> procs = new ArrayList<>();
        try {
            for (int i = 1; i <= members; i++) {
                Path log = cell.resolve("n" + i + ".log");
                List<String> a = new ArrayList<>(List.of("order", service == null ? "jgroups" : "statecast",
                        "--member", String.valueOf(i), "--json", cell.resolve("n" + i + ".json").toString(),
                        "--order", cell.resolve("n" + i + ".order").toString()));
                a.addAll(service == null ? List.of("--ports", portList)
                        : List.of("--config", cell.resolve("n" + i + ".yaml").toString(), "--service", String.valueOf(service.id())));
                a.addAll(common);
                procs.add(start(prefix, a, log));
                awaitLine(procs.get(procs.size() - 1), log, "joined as");
            }
            String note = awaitReports(procs, cell);
            List<JsonNode> summaries = new ArrayList<>();
            List<List<Long>> orders = new ArrayList<>();
            for (int i = 1; i <= members; i++) {
                summaries.add(summary(cell.resolve("n" + i + ".json")));
                orders.add(OrderLog.read(cell.resolve("n" + i + ".order")));
            }
            CellResult r = CellResult.ofGroup(Shape.total_order.label(), loss, system, summaries, orderCount * members, note,
                    sameOrder(summaries, orders));
            return !r.complete() && r.note().isEmpty() ? r.withNote("incomplete") : r;
        } finally {
            procs.forEach(SideBySideCommand::stop);
        }
    }

    /**
     * Whether the members delivered one order: every member that delivered everything reported the
     * same hash of its sequence, and every written sequence is a prefix of the longest; null when no
     * member delivered anything (there is no order to compare).
     */
    static Boolean sameOrder(List<JsonNode> summaries, List<List<Long>> orders) {
        if (orders.stream().allMatch(List::isEmpty)) {
            return null;
        }
        long hashes = summaries.stream().filter(s -> s != null && s.path("missing").asLong(-1) == 0)
                .map(s -> s.path("orderHash").asText()).distinct().count();
        return hashes <= 1 && OrderLog.oneOrder(orders);
    }

    /**
     * The total-order service's parameters for {@code members} nodes with TREE addresses 1..members:
     * the group, and timers a loaded machine (several JVMs on two cores) does not take for failures:
     * heartbeats every second (suspicion after 6–8 s silent; JGroups' FD_ALL3 suspects after 40 s),
     * which also keeps their cost — one per member pair and Interval — off a CPU-bound ring; a lost
     * token sent again after 100 ms.
     */
    static Map<String, String> orderParameters(int members) {
        StringBuilder group = new StringBuilder();
        for (int i = 1; i <= members; i++) {
            group.append(i == 1 ? "" : " ").append(i);
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put("Group", group.toString());
        p.put("TokenRetransmit", "100");
        p.put("MaxResends", "100");
        p.put("TokenLoss", "10000");
        p.put("StartDelay", "1000");
        p.put("Interval", "1000");
        return p;
    }

    private CellResult statecastCell(Path dir, List<String> prefix, Shape shape, int n, int loss, ShippedService service)
            throws IOException, InterruptedException {
        Path cell = Files.createDirectories(dir.resolve(shape.label() + "-loss" + loss + "-" + service.name()));
        List<Integer> ports = freePorts(n + 1);
        // one store section for every service: queues and instance limits that hold a whole cell
        // (the sender's control queue may take an acknowledgement per message from every
        // receiver), history and primitive budgets for a service that carries the stream through
        // one instance
        String store = service.messageStoreYaml((count + warmup) * (n + 1), threading,
                "historyEntries: " + historyEntries(count + warmup) + ", primitiveBurst: 100000, primitiveRatePerSecond: 10000000");
        for (int i = 1; i <= n + 1; i++) {
            writeConfig(cell.resolve("n" + i + ".yaml"), i, ports, store);
        }
        List<Process> procs = new ArrayList<>();
        try {
            // the sender first: it founds the overlay at once (no buddies) and waits for the
            // receivers' HELLO; each receiver joins through it, one after the other (awaitLine)
            List<String> send = new ArrayList<>(List.of("ttcp", "send", "--config", cell.resolve("n1.yaml").toString(),
                    "--count", String.valueOf(count), "--size", String.valueOf(size), "--service", String.valueOf(service.id()),
                    "--wait-for", String.valueOf(n), "--wait-timeout", String.valueOf(n * START_SECONDS + 60),
                    "--warmup-messages", String.valueOf(warmup),
                    "--warmup-wait", "30", "--warmup-ms", "500", "--linger", String.valueOf(Math.max(30, cellTimeout / 2)),
                    "--json", cell.resolve("n1.json").toString()));
            if (shape == Shape.unicast) {
                send.addAll(List.of("--to", "2"));
            }
            if (rate != null) {
                send.addAll(List.of("--rate", String.valueOf(rate)));
            }
            Path senderLog = cell.resolve("n1.log");
            procs.add(start(prefix, send, senderLog));
            awaitLine(procs.get(0), senderLog, "joined as");
            for (int i = 2; i <= n + 1; i++) {
                Path log = cell.resolve("n" + i + ".log");
                procs.add(start(prefix, List.of("ttcp", "recv", "--config", cell.resolve("n" + i + ".yaml").toString(),
                        "--count", String.valueOf(count), "--idle", String.valueOf(idle), "--linger", "30",
                        "--start-timeout", String.valueOf(n * START_SECONDS + cellTimeout),
                        "--json", cell.resolve("n" + i + ".json").toString()), log));
                awaitLine(procs.get(procs.size() - 1), log, "joined as");
            }
            String note = awaitAll(procs);
            return collect(cell, shape, loss, service.name(), n, note);
        } finally {
            procs.forEach(SideBySideCommand::stop);
        }
    }

    /**
     * History entries per instance for a cell of {@code messages}: three per message of the cell
     * (a send queue kept in the history takes three entries per message), at least 65,536, at most
     * the store's 100,000. A service whose source holds its application back
     * ({@code <InFlightCount>}) uses a small part of it.
     */
    static int historyEntries(int messages) {
        return (int) Math.min(100_000, Math.max(65_536, 3L * messages + 256));
    }

    /** Node i's overlay: TREE address i on 127.0.0.1, every receiver's buddy the sender (a star). */
    static void writeConfig(Path file, int i, List<Integer> ports, String messageStoreYaml) throws IOException {
        StringBuilder y = new StringBuilder();
        y.append("# generated by statecast sidebyside: node ").append(i).append(i == 1 ? " (sender)" : " (receiver)").append('\n');
        y.append("overlay:\n  id: statecast-sidebyside\n  node: TREE\n");
        y.append("  address: \"").append(i).append("\"\n");
        y.append("  interfaces: [ \"udp://127.0.0.1:").append(ports.get(i - 1)).append("\" ]\n");
        y.append("  buddies: [ ").append(i == 1 ? "" : "\"udp://127.0.0.1:" + ports.get(0) + "\"").append(" ]\n");
        // a loaded machine starts a JVM in up to a minute: the join waits as long as a start may take
        y.append("  join: { timeoutMs: ").append(START_SECONDS * 1000).append(" }\n");
        y.append("  buffers: { receiveQueueMessages: 65536 }\n");
        y.append("  sendWindow: { window: 4096 }\n");
        y.append("  messageStore:\n");
        for (String line : messageStoreYaml.split("\n")) {
            y.append("    ").append(line).append('\n');
        }
        Files.writeString(file, y.toString());
    }

    private CellResult collect(Path cell, Shape shape, int loss, String system, int n, String note) {
        JsonNode sender = summary(cell.resolve("n1.json"));
        List<JsonNode> recv = new ArrayList<>();
        for (int i = 2; i <= n + 1; i++) {
            recv.add(summary(cell.resolve("n" + i + ".json")));
        }
        CellResult r = CellResult.of(shape.label(), loss, system, sender, recv, count, note);
        if (!r.complete() && r.note().isEmpty()) {
            return r.withNote("incomplete");
        }
        return r;
    }

    private static JsonNode summary(Path json) {
        try {
            if (!Files.isRegularFile(json)) {
                return null;
            }
            JsonNode s = TtcpReport.JSON.readTree(json.toFile()).get("summary");
            return s != null && s.isObject() ? s : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Waits until every member of a total-order cell wrote its report (its log says so) or ended,
     * at most {@code --cell-timeout}; the members stay in their group until then, and are stopped
     * after. "" or what went wrong.
     */
    private String awaitReports(List<Process> procs, Path cell) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(cellTimeout);
        int pending = procs.size();
        while (pending > 0 && System.nanoTime() < deadline) {
            pending = 0;
            for (int i = 0; i < procs.size(); i++) {
                if (procs.get(i).isAlive() && !Files.readString(cell.resolve("n" + (i + 1) + ".log")).contains("order: report written")) {
                    pending++;
                }
            }
            if (pending > 0) {
                Thread.sleep(100);
            }
        }
        procs.forEach(p -> {
            stop(p);
            live.remove(p);
        });
        return pending == 0 ? "" : pending + " member(s) without a report after " + cellTimeout + " s";
    }

    /** Waits for every process of a cell, at most {@code --cell-timeout}; "" or what went wrong. */
    private String awaitAll(List<Process> procs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(cellTimeout);
        int killed = 0;
        for (Process p : procs) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) {
                stop(p);
                killed++;
            }
            live.remove(p);
        }
        return killed == 0 ? "" : killed + " process(es) still running after " + cellTimeout + " s";
    }

    private Process start(List<String> prefix, List<String> args, Path log) throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String o : jvmOpts.trim().split("\\s+")) {
            if (!o.isEmpty()) {
                cmd.add(o);
            }
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), PeerMain.class.getName()));
        cmd.addAll(args);
        Files.writeString(log, "$ " + String.join(" ", cmd) + "\n");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        live.add(p);
        return p;
    }

    /**
     * Waits until a process's log has {@code line} (a node that joined), or it ended, at most
     * {@link #START_SECONDS}: processes start one after the other, as a node's spec compiles under
     * a fixed deadline and a joiner waits for its buddy a fixed time, both of which JVMs starting
     * at once on shared cores overrun.
     */
    private static void awaitLine(Process p, Path log, String line) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (p.isAlive() && System.nanoTime() < deadline) {
            if (Files.readString(log).contains(line)) {
                return;
            }
            p.waitFor(100, TimeUnit.MILLISECONDS);
        }
    }

    /** Stops a process started here: TERM, then KILL after five seconds. */
    private static void stop(Process p) {
        if (!p.isAlive()) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * {@code n} UDP ports free on 127.0.0.1 now (held together while chosen, so distinct). In a
     * fresh namespace every port is free; on the machine's own loopback another program may take
     * one before the peer binds it, which that peer reports.
     */
    static List<Integer> freePorts(int n) throws IOException {
        List<DatagramSocket> held = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                held.add(s);
                ports.add(s.getLocalPort());
            }
            return ports;
        } finally {
            held.forEach(DatagramSocket::close);
        }
    }

    private ObjectNode toJson(List<CellResult> results) {
        ObjectNode root = TtcpReport.object();
        root.put("count", count);
        root.put("size", size);
        root.put("warmup", warmup);
        root.set("machine", TtcpReport.machine());
        ArrayNode cells = root.putArray("cells");
        for (CellResult r : results) {
            cells.add(TtcpReport.JSON.valueToTree(r));
        }
        return root;
    }
}
