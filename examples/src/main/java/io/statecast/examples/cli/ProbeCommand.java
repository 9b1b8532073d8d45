package io.statecast.examples.cli;

import io.statecast.overlay.metrics.MetricsEndpoint;
import io.statecast.overlay.metrics.PrometheusText;
import io.statecast.overlay.socket.OverlayConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code statecast probe HOST:PORT…}: reads the {@code /metrics} of one or several running nodes
 * ({@code overlay.metrics.http}) and prints them as one table: a row per metric and tag set
 * (without the per-node {@code node} and {@code overlay} tags), a column per node. JGroups'
 * {@code probe} is the model. Exit status 0 when every node answered, 1 when one did not (or
 * answered something that is not Prometheus text; the others are still shown), 2 for bad usage.
 */
@Command(
        name = "probe",
        mixinStandardHelpOptions = true,
        description = {
            "Print the metrics of running nodes (their overlay.metrics.http endpoints) as one table:",
            "a row per metric and tags, a column per node. See docs/metrics.md."
        })
final class ProbeCommand implements Callable<Integer> {

    /** Largest response read from a node. */
    static final int MAX_RESPONSE_BYTES = 16 << 20;
    private static final String ABSENT = "-";

    @Spec
    private CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "HOST:PORT", description = "metrics endpoints of the nodes to probe")
    private List<String> endpoints;

    @Option(names = "--filter", paramLabel = "REGEX",
            description = "only rows whose metric and tags contain a match, e.g. 'drops|store_messages'")
    private String filter;

    @Option(names = "--nonzero", description = "hide rows that are 0 on every node")
    private boolean nonZero;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "5000",
            description = "how long each node may take to answer (default: ${DEFAULT-VALUE})")
    private long timeoutMs;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Pattern rows = compileFilter();
        if (timeoutMs < 1 || timeoutMs > 600_000) {
            throw new ParameterException(spec.commandLine(), "--timeout-ms=" + timeoutMs + " must be 1..600000");
        }
        List<InetSocketAddress> targets = new ArrayList<>();
        for (String e : endpoints) {
            targets.add(parse(e));
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(timeoutMs)).build();
        // row key -> one value per node (null: the node has no such row)
        Map<String, Double[]> table = new TreeMap<>();
        boolean failed = false;
        for (int i = 0; i < targets.size(); i++) {
            PrometheusText.Exposition e;
            try {
                e = PrometheusText.parse(fetch(http, targets.get(i)));
            } catch (IOException | PrometheusText.FormatException ex) {
                err.println("probe: " + endpoints.get(i) + ": " + ex.getMessage());
                failed = true;
                continue;
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                err.println("probe: interrupted");
                return 1;
            }
            for (PrometheusText.Sample s : e.samples()) {
                Map<String, String> labels = new TreeMap<>(s.labels());
                labels.remove("node");
                labels.remove("overlay");
                String key = new PrometheusText.Sample(s.name(), new TreeMap<>(labels), 0).key();
                if (rows == null || rows.matcher(key).find()) {
                    table.computeIfAbsent(key, k -> new Double[targets.size()])[i] = s.value();
                }
            }
        }
        if (nonZero) {
            table.values().removeIf(v -> java.util.Arrays.stream(v).allMatch(x -> x == null || x == 0));
        }
        print(out, table);
        out.flush();
        return failed ? 1 : 0;
    }

    private Pattern compileFilter() {
        if (filter == null) {
            return null;
        }
        try {
            return Pattern.compile(filter);
        } catch (PatternSyntaxException e) {
            throw new ParameterException(spec.commandLine(), "--filter: not a regular expression: "
                    + e.getDescription() + " near index " + e.getIndex());
        }
    }

    private InetSocketAddress parse(String hostPort) {
        InetSocketAddress a;
        try {
            a = OverlayConfig.Metrics.http(hostPort).httpAddress();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "'" + hostPort + "': " + e.getMessage()
                    + " (expected HOST:PORT, e.g. 127.0.0.1:9464)");
        }
        if (a.getPort() == 0) {
            throw new ParameterException(spec.commandLine(), "'" + hostPort + "': the port must be 1..65535");
        }
        return a;
    }

    private String fetch(HttpClient http, InetSocketAddress a) throws IOException, InterruptedException {
        String host = a.getHostString().indexOf(':') >= 0 ? "[" + a.getHostString() + "]" : a.getHostString();
        URI uri;
        try {
            uri = URI.create("http://" + host + ":" + a.getPort() + MetricsEndpoint.PATH);
        } catch (IllegalArgumentException e) {
            throw new IOException("not a usable host: " + e.getMessage(), e);
        }
        HttpResponse<InputStream> r;
        try {
            r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofMillis(timeoutMs)).GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            String why = e.getMessage() != null ? e.getMessage()
                    : e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage()
                    : e.getClass().getSimpleName();
            throw new IOException("cannot read " + uri + ": " + why, e);
        }
        try (InputStream in = r.body()) {
            byte[] body = in.readNBytes(MAX_RESPONSE_BYTES + 1);
            if (r.statusCode() != 200) {
                throw new IOException(uri + " answered HTTP " + r.statusCode());
            }
            if (body.length > MAX_RESPONSE_BYTES) {
                throw new IOException(uri + ": the response exceeds " + MAX_RESPONSE_BYTES + " bytes");
            }
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private void print(PrintWriter out, Map<String, Double[]> table) {
        int n = endpoints.size();
        String[] header = new String[n + 1];
        header[0] = "METRIC";
        for (int i = 0; i < n; i++) {
            header[i + 1] = endpoints.get(i);
        }
        List<String[]> lines = new ArrayList<>();
        lines.add(header);
        table.forEach((key, values) -> {
            String[] line = new String[n + 1];
            line[0] = key;
            for (int i = 0; i < n; i++) {
                line[i + 1] = format(values[i]);
            }
            lines.add(line);
        });
        int[] width = new int[n + 1];
        for (String[] l : lines) {
            for (int i = 0; i <= n; i++) {
                width[i] = Math.max(width[i], l[i].length());
            }
        }
        for (String[] l : lines) {
            StringBuilder b = new StringBuilder();
            b.append(l[0]).append(" ".repeat(width[0] - l[0].length()));
            for (int i = 1; i <= n; i++) {
                b.append("  ").append(" ".repeat(width[i] - l[i].length())).append(l[i]);
            }
            out.println(b);
        }
    }

    /** Integers as such, others with up to 6 significant digits; absent as {@value #ABSENT}. */
    static String format(Double v) {
        if (v == null) {
            return ABSENT;
        }
        double d = v;
        if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return String.format(Locale.ROOT, "%.6g", d);
    }
}
