package io.statecast.it.testbed;

import io.statecast.examples.ttcp.HostCpu;
import io.statecast.examples.ttcp.ShippedService;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Reproduces the blueprint's chapter 6 experiments on a network-namespace daisy chain: for each
 * service and hop count, searches the sustainable send rate of 10,000 messages of 1,024 bytes
 * ({@link SustainableSearch}, {@link Criteria}), then runs the loss experiment (5 hops, 5 % drop
 * on every link), and writes a Markdown table beside the blueprint's figures. Run through
 * {@code it/testbed/run-experiments.sh}, or {@code mvn -pl it verify -Ptestbed}.
 */
@Command(name = "testbed", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs the blueprint's testbed experiments with real statecast processes in network namespaces (root).")
public final class TestbedRunner implements Callable<Integer> {

    /** Smallest {@code --link-burst}: one full Ethernet frame, below which tbf passes nothing. */
    static final int MIN_LINK_BURST = 1514;
    /** Largest {@code --link-burst}. */
    static final int MAX_LINK_BURST = 64 << 20;
    /**
     * The runner's links' bucket, 256 KiB: it absorbs a node's stall on the shared cores. Past the
     * chain script's 32 KiB, tbf sent each packet on a kernel timer, which slowed every process.
     */
    static final int DEFAULT_LINK_BURST = 256 << 10;

    @Option(names = "--services", split = ",", defaultValue = "none,h2h-ack,e2e-ack",
            description = "services to measure: none (best-effort), a shipped service by name (h2h-ack, e2e-ack: its spec from the "
                    + "class path services/NAME.scxml), or a ServiceID with --message-store (default: ${DEFAULT-VALUE})")
    List<String> services;

    @Option(names = "--message-store", paramLabel = "FILE",
            description = "YAML of the overlay.messageStore section for runs with a ServiceID (with a service name: replaces the "
                    + "generated section, which loads the spec with one shard and queues sized to the run)")
    Path messageStore;

    @Option(names = "--hops", split = ",", defaultValue = "1,2,5", description = "hop counts (default: ${DEFAULT-VALUE})")
    List<Integer> hops;

    @Option(names = "--count", defaultValue = "10000", description = "messages per run (default: ${DEFAULT-VALUE})")
    int count;

    @Option(names = "--size", defaultValue = "1024", description = "payload bytes (default: ${DEFAULT-VALUE})")
    int size;

    @Option(names = "--rates", split = ",", defaultValue = "10,25,50,75,87.5,91",
            description = "ladder of send rates, Mbit/s of payload (default: ${DEFAULT-VALUE}; with 1,024-byte payloads "
                    + "87.5 fills 95 %% of a 100 Mbit/s link on the wire and 91 is near the most it can carry)")
    List<Double> rates;

    @Option(names = "--refine", defaultValue = "2", description = "bisection steps after the ladder (default: ${DEFAULT-VALUE})")
    int refine;

    @Option(names = "--floor", defaultValue = "0.5",
            description = "lowest rate tried when the ladder's first fails, Mbit/s (default: ${DEFAULT-VALUE})")
    double floor;

    @Option(names = "--max-slope", defaultValue = "5.0",
            description = "sustainable: delay grows at most this many ms per s over the run's second half (default: ${DEFAULT-VALUE})")
    double maxSlope;

    @Option(names = "--min-send-ratio", defaultValue = "0.98",
            description = "sustainable: the sender reached at least this share of the rate (default: ${DEFAULT-VALUE})")
    double minSendRatio;

    @Option(names = "--loss-run", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "run the loss experiment (default: ${DEFAULT-VALUE})")
    boolean lossRun;

    @Option(names = "--loss", defaultValue = "5", description = "drop percentage on every link in the loss run (default: ${DEFAULT-VALUE})")
    int loss;

    @Option(names = "--loss-hops", defaultValue = "5", description = "hops of the loss run (default: ${DEFAULT-VALUE})")
    int lossHops;

    @Option(names = "--loss-rate-mbps", defaultValue = "1",
            description = "send rate of the loss run, Mbit/s: below what the services sustain at 5 hops here (default: ${DEFAULT-VALUE})")
    double lossRate;

    @Option(names = "--link-rate", defaultValue = "100mbit", description = "tbf rate of every link (default: ${DEFAULT-VALUE})")
    String linkRate;

    @Option(names = "--link-burst", paramLabel = "BYTES", defaultValue = "" + DEFAULT_LINK_BURST,
            description = "tbf bucket of every link in bytes (default: ${DEFAULT-VALUE}, 21 ms of 100 Mbit/s). Past the bucket"
                    + " a link queues and sends each packet on a kernel timer, which on a virtual machine costs processor time"
                    + " the nodes share; 32768 is the chain script's own default: docs/testbed.md, \"The links' bucket\"")
    int linkBurst;

    @Option(names = "--node", defaultValue = "TREE", description = "overlay node type, TREE or DT (default: ${DEFAULT-VALUE})")
    String node;

    @Option(names = "--warmup-messages", defaultValue = "1000",
            description = "fewest warm-up messages before each measured run (default: ${DEFAULT-VALUE})")
    int warmup;

    @Option(names = "--warmup-seconds-per-node", defaultValue = "15",
            description = "warm-up before each measured run, at its rate and with its service, this many seconds per node "
                    + "process of the run (30 s at 1 hop, 90 s at 5): the JVMs' C2 compilers share the cores, so the more "
                    + "nodes, the longer they take to finish (default: ${DEFAULT-VALUE})")
    double warmupSecondsPerNode;

    @Option(names = "--threading", defaultValue = ShippedService.DEFAULT_THREADING,
            description = "MessageStore threading of a shipped service's generated section: dedicated, clock or io "
                    + "(default: ${DEFAULT-VALUE}: the shard on the node's UDP thread)")
    String threading;

    @Option(names = "--idle", defaultValue = "5", description = "receivers finish after this many idle seconds (default: ${DEFAULT-VALUE})")
    double idle;

    @Option(names = "--linger", defaultValue = "15", description = "receivers wait this long for FIN after finishing (default: ${DEFAULT-VALUE})")
    double linger;

    @Option(names = "--launcher", defaultValue = "bin", description = "bin (bin/statecast) or classpath (java -cp this JVM's class path)")
    String launcher;

    @Option(names = "--jvm-opts", defaultValue = Launcher.NODE_JVM_OPTS,
            description = "JVM options of every node process; ZGC collects the lingering instances concurrently "
                    + "instead of in pauses the delays would show (default: ${DEFAULT-VALUE})")
    String jvmOpts;

    @Option(names = "--repo", description = "repository root (default: found upward from the working directory)")
    Path repo;

    @Option(names = "--out", description = "directory of run outputs (default: REPO/it/target/testbed)")
    Path out;

    @Option(names = "--results", description = "Markdown results file (default: OUT/results.md)")
    Path results;

    @Option(names = "--docs", paramLabel = "FILE",
            description = "also put the results between the testbed-results markers of FILE, e.g. docs/benchmarks.md "
                    + "(checked before the first run; relative to the repository)")
    Path docs;

    @Option(names = "--tag", description = "namespace tag, [a-z0-9]{1,6} (default: random)")
    String tag;

    private final PrintStream log = System.out;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (linkBurst < MIN_LINK_BURST || linkBurst > MAX_LINK_BURST) {
            System.err.printf(Locale.ROOT, "testbed: --link-burst %d: must be %d..%d bytes (a full frame up to 64 MiB)%n",
                    linkBurst, MIN_LINK_BURST, MAX_LINK_BURST);
            return 2;
        }
        String why = TestbedEnvironment.unavailableReason();
        if (why != null) {
            System.err.println("testbed: cannot run here: " + why);
            return 2;
        }
        Path root = repo != null ? repo.toAbsolutePath() : TestbedEnvironment.repository();
        Path outDir = out != null ? out.toAbsolutePath() : root.resolve("it/target/testbed");
        Files.createDirectories(outDir);
        Path resultsFile = results != null ? results.toAbsolutePath() : outDir.resolve("results.md");
        Path docsFile = docs == null ? null : docs.isAbsolute() ? docs : root.resolve(docs);
        if (docsFile != null) {
            try {
                DocsSection.splice(Files.readString(docsFile), "", docsFile.toString());
            } catch (IOException | IllegalArgumentException e) {
                System.err.println("testbed: --docs " + docs + ": " + e.getMessage());
                return 2;
            }
        }
        String runTag = tag != null ? tag : "r" + Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36), 36);
        String storeYaml = messageStore == null ? null : Files.readString(messageStore);
        List<Service> svc = new ArrayList<>();
        try {
            for (String s : services) {
                svc.add(Service.parse(s.trim(), storeYaml, count + largestWarmup(), threading));
            }
        } catch (IllegalArgumentException e) {
            System.err.println("testbed: " + e.getMessage());
            return 2;
        }
        Launcher l = launcher.equals("classpath") ? Launcher.classpath(jvmOpts) : Launcher.bin(root, jvmOpts);
        Criteria criteria = new Criteria(maxSlope, minSendRatio);
        Testbed.Settings settings = new Testbed.Settings(node, storeYaml, idle, linger, criteria);
        int maxHops = hops.stream().mapToInt(Integer::intValue).max().orElse(1);
        if (lossRun) {
            maxHops = Math.max(maxHops, lossHops);
        }
        log.printf("testbed: chain '%s' of %d nodes, links %s (%s); launcher %s; output in %s%n", runTag, maxHops + 1, linkRate,
                bucketText(), l.description(), outDir);
        Chain chain = new Chain(root.resolve("it/testbed/netns-chain.sh"), runTag, linkRate, linkBurst,
                outDir.resolve("chain-" + runTag + ".log"));
        Testbed bed = new Testbed(chain, l, outDir, settings, log);
        // on TERM or Ctrl-C: the node processes first (the JVM leaves children running), then the chain
        Thread hook = new Thread(() -> {
            bed.stopAll();
            chain.close();
        }, "testbed-teardown");
        Runtime.getRuntime().addShutdownHook(hook);
        List<SustainableSearch.Outcome> outcomes = new ArrayList<>();
        List<RunResult> lossRuns = new ArrayList<>();
        long started = System.nanoTime();
        try {
            chain.up(maxHops + 1, 0);
            SustainableSearch search = new SustainableSearch(rates, refine, floor);
            for (Service s : svc) {
                for (int h : hops) {
                    SustainableSearch.Outcome o = search.search(h, s.name(),
                            rate -> bed.run(new Experiment(h, rate, count, size, s.name(), s.id(), 0, warmupAt(h, rate)),
                                    s.messageStoreYaml()));
                    outcomes.add(o);
                    log.printf(Locale.ROOT, "testbed: %s, %d hop(s): sustainable %s Mbit/s%n", s.name(), h,
                            o.sustainableMbps() == null ? "none found" : String.format(Locale.ROOT, "%.2f", o.sustainableMbps()));
                    writeResults(resultsFile, outcomes, lossRuns, started);
                }
            }
            if (lossRun) {
                chain.loss(loss);
                try {
                    for (Service s : svc) {
                        lossRuns.add(bed.run(new Experiment(lossHops, lossRate, count, size, s.name(), s.id(), loss, warmupAt(lossHops, lossRate)),
                                s.messageStoreYaml()));
                    }
                } finally {
                    chain.loss(0);
                }
            }
            writeResults(resultsFile, outcomes, lossRuns, started);
            log.println("testbed: results in " + resultsFile);
            if (docsFile != null) {
                DocsSection.update(docsFile, DocsSection.demoted(Files.readString(resultsFile)));
                log.println("testbed: results also in " + docsFile);
            }
            return 0;
        } finally {
            chain.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down: the hook runs (and finds nothing left to remove)
            }
        }
    }

    /** The longest warm-up of any run (the most hops at the highest rate): sizes the store section. */
    private int largestWarmup() {
        int mostHops = Math.max(lossHops, hops.stream().mapToInt(Integer::intValue).max().orElse(1));
        double fastest = Math.max(lossRate, rates.stream().mapToDouble(Double::doubleValue).max().orElse(lossRate));
        return warmupAt(mostHops, fastest);
    }

    private int warmupAt(int hops, double rateMbps) {
        return Experiment.warmupMessages(rateMbps, size, warmupSecondsPerNode * (hops + 1), warmup);
    }

    private void writeResults(Path file, List<SustainableSearch.Outcome> outcomes, List<RunResult> lossRuns, long started)
            throws IOException {
        String header = String.format(Locale.ROOT, "## Testbed results, %s%n%n"
                + "Daisy chain of network namespaces, `tc tbf` %s links (%s), overlay node %s over UDP, MessageStore threading %s, "
                + "%d messages of %d bytes, "
                + "a warm-up of %.0f s per node at the run's rate with its service (%d messages at least), a wait until every receiver "
                + "has all of it or none gained a message for %d s (at most %d s) and a pause of %.0f s per node, "
                + "node JVMs `%s`, "
                + "%d CPU core(s) (%s) shared by every process (a sustainable rate below the links' payload ceiling "
                + "is where the CPU ran out). Rates are payload; the first link's load counts every header. "
                + "Sustainable: nothing lost, delay slope over the second half <= %.1f ms/s, sender within %.0f %% of the rate. "
                + "Blueprint columns are its SCXML / hard-coded Java figures on Emulab 100 Mbit/s links. Run time %.0f s.%n%n"
                + "Command: `it/testbed/run-experiments.sh %s`",
                ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME), linkRate, bucketText(), node,
                messageStore == null ? threading : "as in --message-store", count, size, warmupSecondsPerNode, warmup, Testbed.WARMUP_QUIET_SECONDS, Testbed.WARMUP_WAIT_SECONDS,
                Testbed.WARMUP_PAUSE_MS_PER_NODE / 1e3, jvmOpts,
                Runtime.getRuntime().availableProcessors(), HostCpu.model(), maxSlope, 100 * minSendRatio, (System.nanoTime() - started) / 1e9,
                commandLine());
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, ResultsReport.markdown(outcomes, lossRuns, header, ResultsReport.parseLinkMbps(linkRate)));
    }

    /** The links' bucket as the results and the log name it. */
    private String bucketText() {
        return "bucket " + linkBurst + " bytes";
    }

    /** The arguments as given, without the ones every invocation differs in (tag, paths, launcher). */
    private String commandLine() {
        List<String> args = new ArrayList<>();
        List<String> given = spec == null || spec.commandLine().getParseResult() == null ? List.of()
                : spec.commandLine().getParseResult().originalArgs();
        for (int i = 0; i < given.size(); i++) {
            String a = given.get(i);
            if (List.of("--tag", "--repo", "--out", "--results", "--docs", "--launcher").contains(a)) {
                i++;
            } else {
                args.add(a);
            }
        }
        return String.join(" ", args);
    }

    /**
     * A service to measure: best-effort, a shipped service by name, or a ServiceID with a
     * MessageStore section.
     *
     * @param name             as the tables print it
     * @param id               the ServiceID sent, or {@code null} for best-effort
     * @param messageStoreYaml every node's {@code overlay.messageStore} section, or {@code null}
     */
    record Service(String name, Integer id, String messageStoreYaml) {

        /**
         * @param text      {@code none}, a shipped service's name ({@code h2h-ack}), or a ServiceID
         * @param storeYaml the {@code --message-store} file's content: required with a ServiceID,
         *                  and used instead of the generated section with a name when given
         * @param messages  messages per run, warm-up included (sizes the generated section)
         */
        static Service parse(String text, String storeYaml, int messages) {
            return parse(text, storeYaml, messages, ShippedService.DEFAULT_THREADING);
        }

        /** As {@link #parse(String, String, int)}, with the generated section's store {@code threading}. */
        static Service parse(String text, String storeYaml, int messages, String threading) {
            if (text.equalsIgnoreCase("none")) {
                return new Service("none", null, null);
            }
            if (text.matches("\\d{1,9}")) {
                if (storeYaml == null) {
                    throw new IllegalArgumentException("service " + text + " needs --message-store FILE (the overlay.messageStore section)");
                }
                return new Service("service-" + text, Integer.parseInt(text), storeYaml);
            }
            ShippedService shipped = ShippedService.byName(text);
            return new Service(shipped.name(), shipped.id(), storeYaml != null ? storeYaml : shipped.messageStoreYaml(messages, threading));
        }
    }

    /**
     * Runs the testbed.
     *
     * @param args see {@code --help}
     */
    public static void main(String[] args) {
        System.exit(new CommandLine(new TestbedRunner()).execute(args));
    }
}
