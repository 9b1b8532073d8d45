package io.statecast.examples.sidebyside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.statecast.examples.ttcp.TtcpReport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The side-by-side command's arguments, and one small cell of each system on this machine's
 * loopback (no namespace, no loss): real JVM processes, real UDP, the report and the table. The
 * real comparison is the command itself (docs/testbed.md); this keeps its code path running.
 */
class SideBySideCommandTest {

    @TempDir
    Path dir;

    private record Ran(int status, String out, String err) {
    }

    private static Ran run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new SideBySideCommand()).setCaseInsensitiveEnumValuesAllowed(true)
                .setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
        int status = cl.execute(args);
        return new Ran(status, out.toString(), err.toString());
    }

    @Test
    void badArgumentsShouldBeRefusedNamingThem() {
        Ran lossWithoutNamespace = run("--no-netns", "--loss", "0,5");
        assertEquals(2, lossWithoutNamespace.status());
        assertTrue(lossWithoutNamespace.err().contains("--loss=5 needs a network namespace"), lossWithoutNamespace.err());

        Ran unknown = run("--no-netns", "--loss", "0", "--multicast-services", "h2h-ack,no-such-service");
        assertEquals(2, unknown.status());
        assertTrue(unknown.err().contains("no services/no-such-service.scxml on the class path"), unknown.err());

        Ran shape = run("--no-netns", "--shapes", "broadcast");
        assertEquals(2, shape.status());
        assertTrue(shape.err().contains("broadcast"), shape.err());

        Ran threading = run("--no-netns", "--loss", "0", "--threading", "fast");
        assertEquals(2, threading.status());
        assertTrue(threading.err().contains("--threading=fast must be dedicated, clock or io"), threading.err());
    }

    @Test
    void theHistoryBoundShouldHoldAQueueOfTheWholeCell() {
        assertEquals(65_536, SideBySideCommand.historyEntries(1_000), "never below the 65,536 of a small cell");
        assertEquals(3 * 22_000 + 256, SideBySideCommand.historyEntries(22_000), "three entries per queued message");
        assertEquals(100_000, SideBySideCommand.historyEntries(1_000_000), "at most the store's limit");
    }

    @Test
    void oneSmallCellOfEachSystemShouldDeliverEveryMessageAndFillTheTable() throws Exception {
        Path json = dir.resolve("results.json");

        // paced and small, so that a loaded machine still delivers everything well within the deadline
        Ran ran = run("--no-netns", "--loss", "0", "--shapes", "unicast", "--unicast-services", "h2h-ack",
                "--count", "300", "--warmup", "100", "--rate", "500", "--size", "256", "--idle", "20",
                "--cell-timeout", "150", "--jvm-opts", "-Xmx256m -XX:TieredStopAtLevel=1",
                "--out", dir.resolve("cells").toString(), "--json", json.toString());

        assertEquals(0, ran.status(), ran.out() + "\n" + ran.err());
        assertTrue(ran.out().contains("| unicast | 0 % | jgroups |"), ran.out());
        assertTrue(ran.out().contains("| unicast | 0 % | h2h-ack |"), ran.out());
        JsonNode cells = TtcpReport.JSON.readTree(json.toFile()).get("cells");
        assertEquals(2, cells.size(), cells.toString());
        for (JsonNode c : cells) {
            assertEquals(300, c.get("delivered").asLong(), c.toString());
            assertEquals(300, c.get("expected").asLong(), c.toString());
            assertTrue(c.get("messagesPerSecond").asDouble() > 0, c.toString());
            assertTrue(c.get("delayMsP99").asDouble() >= c.get("delayMsP50").asDouble(), c.toString());
            assertEquals(0, c.get("duplicates").asLong(), c.toString());
            assertEquals(0, c.get("outOfOrder").asLong(), "one sender on loopback, in order: " + c);
        }
        assertTrue(Files.isRegularFile(dir.resolve("cells/unicast-loss0-jgroups/n2.json")));
        assertTrue(Files.isRegularFile(dir.resolve("cells/unicast-loss0-h2h-ack/n2.json")));
    }

    @Test
    void aSmallTotalOrderCellOfEachSystemShouldDeliverEveryMembersMessagesInOneOrder() throws Exception {
        Path json = dir.resolve("results.json");

        // 3 members, 40 messages each: every member delivers 120, in the order of JGroups' SEQUENCER
        // or of the total-order ring
        Ran ran = run("--no-netns", "--loss", "0", "--shapes", "total-order", "--members", "3",
                "--order-count", "40", "--order-warmup", "10", "--order-window", "10", "--size", "256", "--order-idle", "40",
                "--cell-timeout", "120", "--jvm-opts", "-Xmx256m -XX:TieredStopAtLevel=1",
                "--out", dir.resolve("cells").toString(), "--json", json.toString());

        assertEquals(0, ran.status(), ran.out() + "\n" + ran.err());
        assertTrue(ran.out().contains("| same order |"), ran.out());
        assertTrue(ran.out().contains("| total-order | 0 % | jgroups |"), ran.out());
        assertTrue(ran.out().contains("| total-order | 0 % | total-order |"), ran.out());
        JsonNode cells = TtcpReport.JSON.readTree(json.toFile()).get("cells");
        assertEquals(2, cells.size(), cells.toString());
        for (JsonNode c : cells) {
            assertEquals(3 * 3 * 40, c.get("delivered").asLong(), "every member delivers every member's messages: " + c);
            assertEquals(3 * 3 * 40, c.get("expected").asLong(), c.toString());
            assertTrue(c.get("sameOrder").asBoolean(), "one order at every member: " + c);
            assertEquals(0, c.get("duplicates").asLong(), c.toString());
            assertEquals(0, c.get("outOfOrder").asLong(), "each sender's messages in its own order: " + c);
            assertTrue(c.get("messagesPerSecond").asDouble() > 0, c.toString());
        }
        // the check itself: the members' written sequences are equal, and so are their hashes
        for (String system : new String[] {"jgroups", "total-order"}) {
            Path cell = dir.resolve("cells/total-order-loss0-" + system);
            List<Long> first = OrderLog.read(cell.resolve("n1.order"));
            assertEquals(120, first.size(), system);
            String hash = TtcpReport.JSON.readTree(cell.resolve("n1.json").toFile()).at("/summary/orderHash").asText();
            for (int i = 2; i <= 3; i++) {
                assertEquals(first, OrderLog.read(cell.resolve("n" + i + ".order")), system + ": member " + i + "'s order");
                assertEquals(hash, TtcpReport.JSON.readTree(cell.resolve("n" + i + ".json").toFile()).at("/summary/orderHash").asText(),
                        system + ": member " + i + "'s hash");
            }
        }
    }
}
