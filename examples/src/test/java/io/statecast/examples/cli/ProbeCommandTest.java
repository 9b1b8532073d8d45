package io.statecast.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.socket.NodeType;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlaySocket;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code statecast probe} against two real sockets' /metrics endpoints on loopback. */
class ProbeCommandTest {

    private final List<OverlaySocket> sockets = new ArrayList<>();
    private String first;
    private String second;

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = StatecastCommand.newCommandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @BeforeEach
    void open() throws Exception {
        for (String address : List.of("1", "2")) {
            OverlaySocket s = OverlaySocket.create(OverlayConfig.defaults("probe-test", NodeType.TREE)
                    .withAddress(address).withMetrics(OverlayConfig.Metrics.http("127.0.0.1:0")));
            sockets.add(s);
        }
        first = "127.0.0.1:" + sockets.get(0).metrics().httpAddress().getPort();
        second = "127.0.0.1:" + sockets.get(1).metrics().httpAddress().getPort();
    }

    @AfterEach
    void close() {
        sockets.forEach(OverlaySocket::close);
    }

    /** The row starting with {@code key}, split into its cells. */
    private static List<String> row(String table, String key) {
        return table.lines().filter(l -> l.startsWith(key + " ")).findFirst()
                .map(l -> Arrays.asList(l.trim().split(" +"))).orElseThrow(() -> new AssertionError(key + " in\n" + table));
    }

    @Test
    void shouldPrintOneColumnPerNodeAndOneRowPerMetric() {
        Run r = run("probe", first, second);
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("METRIC", first, second), row(r.out(), "METRIC"));
        assertEquals(List.of("statecast_socket_state{state=\"stopped\"}", "1", "1"),
                row(r.out(), "statecast_socket_state{state=\"stopped\"}"));
        assertEquals(List.of("statecast_adapter_drops_total{cause=\"foreign_overlay\",direction=\"receive\"}", "0", "0"),
                row(r.out(), "statecast_adapter_drops_total{cause=\"foreign_overlay\",direction=\"receive\"}"));
        assertTrue(r.out().lines().noneMatch(l -> l.contains("node=")), "the per-node tags are the columns");
    }

    @Test
    void shouldKeepOnlyRowsMatchingTheFilter() {
        Run r = run("probe", "--filter", "socket_state", first);
        assertEquals(0, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(1 + 4, lines.size(), "the header and one row per node state: " + r.out());
        Run nonZero = run("probe", "--filter", "socket_state", "--nonzero", first);
        assertEquals(2, nonZero.out().lines().count(), nonZero.out());
    }

    @Test
    void shouldExitOneAndStillPrintTheOthersWhenANodeIsUnreachable() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        String dead = "127.0.0.1:" + closedPort;
        Run r = run("probe", "--timeout-ms", "2000", first, dead);
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().startsWith("probe: " + dead + ": "), r.err());
        assertEquals(List.of("statecast_socket_state{state=\"stopped\"}", "1", "-"),
                row(r.out(), "statecast_socket_state{state=\"stopped\"}"));
    }

    @Test
    void shouldExitTwoOnBadUsage() {
        assertEquals(2, run("probe").exit());
        Run badAddress = run("probe", "localhost");
        assertEquals(2, badAddress.exit());
        assertTrue(badAddress.err().contains("HOST:PORT"), badAddress.err());
        assertEquals(2, run("probe", "127.0.0.1:0").exit());
        Run badRegex = run("probe", "--filter", "(", first);
        assertEquals(2, badRegex.exit());
        assertTrue(badRegex.err().contains("--filter"), badRegex.err());
        assertEquals(2, run("probe", "--timeout-ms", "0", first).exit());
    }
}
