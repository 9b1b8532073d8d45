package io.statecast.overlay.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.address.TreeAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OverlayConfigTest {

    private static final String FULL_YAML = """
            overlay:
              id: chat
              node: TREE
              address: "17"
              interfaces: [ "udp://127.0.0.1:7000", "tcp://127.0.0.1:7001" ]
              buddies: [ "udp://127.0.0.1:7100" ]
              heartbeat: { fastMs: 100, slowMs: 500, timeoutMs: 5000, stableAfter: 3 }
              rendezvous: { iAmHereMs: 1000, buddyCacheSize: 4 }
              tree: { maxHops: 32, maxLinks: 16, maxSubtreeIds: 1000 }
              forwarding: { hopLimit: 64, floodCacheEntries: 100 }
              buffers: { receiveQueueMessages: 10, maxMessageBytes: 32768, deliveryWaitMs: 250, wakeIntervalMicros: 0 }
              join: { timeoutMs: 1234, warmUpMs: 250, warmUpRounds: 99 }
              messageStore: { shards: 2, services: [ "h2h.scxml" ] }
            """;

    @Test
    void shouldLoadEveryFieldFromYaml() throws Exception {
        OverlayConfig c = OverlayConfig.parse(FULL_YAML);
        assertEquals("chat", c.id());
        assertEquals(NodeType.TREE, c.node());
        assertEquals(new TreeAddress(17), c.resolveAddress(new Random(1)));
        assertEquals(List.of(SubstrateAddress.udp("127.0.0.1", 7000), SubstrateAddress.tcp("127.0.0.1", 7001)), c.interfaces());
        assertEquals(List.of(SubstrateAddress.udp("127.0.0.1", 7100)), c.buddies());
        assertEquals(new OverlayConfig.Heartbeat(100, 500, 5000, 3), c.heartbeat());
        assertEquals(new OverlayConfig.Rendezvous(1000, 4), c.rendezvous());
        assertEquals(new OverlayConfig.Tree(32, 16, 1000), c.tree());
        assertEquals(new OverlayConfig.Forwarding(64, 100), c.forwarding());
        assertEquals(new OverlayConfig.Buffers(10, 32768, 250, 0), c.buffers());
        assertEquals(new OverlayConfig.Join(1234, 250, 99), c.join());
        assertEquals(2, c.messageStore().get("shards").asInt());
        assertEquals(c.treeSettings().buddies(), c.buddies());
    }

    @Test
    void shouldLoadJsonFileWithDefaults(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("overlay.json");
        Files.writeString(f, "{\"overlay\": {\"id\": \"x\", \"address\": \"3, 4\"}}");
        OverlayConfig c = OverlayConfig.load(f);
        assertEquals(NodeType.DT, c.node());
        assertEquals(new DtAddress(3, 4), c.resolveAddress(new Random(1)));
        assertEquals(List.of(SubstrateAddress.udp("127.0.0.1", 0)), c.interfaces());
        assertEquals(List.of(), c.buddies());
        assertEquals(OverlayConfig.Heartbeat.defaults(), c.heartbeat());
        assertEquals(new OverlayConfig.Heartbeat(250, 250, 10_000, 4), c.heartbeat());
        assertEquals(new OverlayConfig.Rendezvous(2_000, 10), c.rendezvous());
        assertEquals(new OverlayConfig.Tree(64, 64, 4096), c.tree());
        assertEquals(new OverlayConfig.Forwarding(255, 4096), c.forwarding());
        assertEquals(new OverlayConfig.Buffers(1024, 65536, 1000, 500), c.buffers());
        assertEquals(new OverlayConfig.Join(30_000, 1_000, 300), c.join());
        assertTrue(c.join().warmUpEnabled());
        assertFalse(c.join().withoutWarmUp().warmUpEnabled());
        assertNull(c.messageStore());
        assertEquals(OverlayConfig.defaults("x", NodeType.DT).withAddress("3, 4"), c);
    }

    @Test
    void shouldLoadYamlFileAndRejectOtherExtensions(@TempDir Path dir) throws Exception {
        Path y = dir.resolve("o.yml");
        Files.writeString(y, FULL_YAML);
        assertEquals("chat", OverlayConfig.load(y).id());
        Path t = dir.resolve("o.txt");
        Files.writeString(t, FULL_YAML);
        assertTrue(assertThrows(OverlayConfigException.class, () -> OverlayConfig.load(t)).getMessage().contains(".yaml"));
    }

    @Test
    void randomAddressesStayInTheirFamilyAndFrame() throws Exception {
        OverlayConfig dt = OverlayConfig.parse("overlay: {id: x, addressFrame: {minX: 10, minY: 20, maxX: 12, maxY: 21}}");
        Random r = new Random(7);
        for (int i = 0; i < 100; i++) {
            DtAddress a = (DtAddress) dt.resolveAddress(r);
            assertTrue(a.x() >= 10 && a.x() <= 12 && a.y() >= 20 && a.y() <= 21, a.toString());
        }
        OverlayConfig tree = OverlayConfig.parse("overlay: {id: x, node: tree}");
        assertTrue(((TreeAddress) tree.resolveAddress(r)).id() > 0);
    }

    /** Every validation and mapping error names its field. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "overlay.id                        | overlay: {node: TREE}",
        "overlay.id                        | overlay: {id: ''}",
        "overlay.node                      | overlay: {id: x, node: RING}",
        "overlay.address                   | overlay: {id: x, node: TREE, address: seventeen}",
        "overlay.address                   | overlay: {id: x, node: DT, address: '1;2'}",
        "overlay.addressFrame.maxX         | overlay: {id: x, addressFrame: {minX: 5, maxX: 5}}",
        "overlay.addressFrame.maxY         | overlay: {id: x, addressFrame: {minY: 9, maxY: 1}}",
        "overlay.interfaces                | overlay: {id: x, interfaces: []}",
        "overlay.interfaces[1]             | overlay: {id: x, interfaces: ['udp://127.0.0.1:1', 'udp://127.0.0.1:2']}",
        "overlay.interfaces[0]             | overlay: {id: x, interfaces: ['carrier-pigeon://coop']}",
        "overlay.buddies[1]                | overlay: {id: x, buddies: ['udp://127.0.0.1:1', 'udp://127.0.0.1:99999']}",
        "overlay.buddies[0]                | overlay: {id: x, buddies: [17]}",
        "overlay.heartbeat.fastMs          | overlay: {id: x, heartbeat: {fastMs: 0}}",
        "overlay.heartbeat.slowMs          | overlay: {id: x, heartbeat: {fastMs: 300, slowMs: 200, timeoutMs: 5000}}",
        "overlay.heartbeat.timeoutMs       | overlay: {id: x, heartbeat: {timeoutMs: 100}}",
        "overlay.heartbeat.stableAfter     | overlay: {id: x, heartbeat: {stableAfter: 0}}",
        "overlay.heartbeat.fastMs          | overlay: {id: x, heartbeat: {fastMs: 'fast'}}",
        "overlay.heartbeat.fastMs          | overlay: {id: x, heartbeat: {fastMs: 2.5}}",
        "overlay.heartbeat.fastMs          | overlay: {id: x, heartbeat: {fastMs: '250'}}",
        "overlay.rendezvous.iAmHereMs      | overlay: {id: x, rendezvous: {iAmHereMs: -1}}",
        "overlay.rendezvous.buddyCacheSize | overlay: {id: x, rendezvous: {buddyCacheSize: 5000}}",
        "overlay.tree.maxHops              | overlay: {id: x, tree: {maxHops: 0}}",
        "overlay.tree.maxLinks             | overlay: {id: x, tree: {maxLinks: 0}}",
        "overlay.tree.maxSubtreeIds        | overlay: {id: x, tree: {maxSubtreeIds: 8000}}",
        "overlay.forwarding.hopLimit       | overlay: {id: x, forwarding: {hopLimit: 256}}",
        "overlay.forwarding.floodCacheEntries | overlay: {id: x, forwarding: {floodCacheEntries: 0}}",
        "overlay.buffers.receiveQueueMessages | overlay: {id: x, buffers: {receiveQueueMessages: 0}}",
        "overlay.buffers.maxMessageBytes   | overlay: {id: x, buffers: {maxMessageBytes: 10}}",
        "overlay.buffers.deliveryWaitMs    | overlay: {id: x, buffers: {deliveryWaitMs: -1}}",
        "overlay.buffers.deliveryWaitMs    | overlay: {id: x, buffers: {deliveryWaitMs: 60001}}",
        "overlay.buffers.wakeIntervalMicros | overlay: {id: x, buffers: {wakeIntervalMicros: -1}}",
        "overlay.buffers.wakeIntervalMicros | overlay: {id: x, buffers: {wakeIntervalMicros: 10001}}",
        "overlay.join.timeoutMs            | overlay: {id: x, join: {timeoutMs: 0}}",
        "overlay.join.warmUpMs             | overlay: {id: x, join: {warmUpMs: -1}}",
        "overlay.join.warmUpMs             | overlay: {id: x, join: {warmUpMs: 60001}}",
        "overlay.join.warmUpRounds         | overlay: {id: x, join: {warmUpRounds: -5}}",
        "overlay.join.warmUpRounds         | overlay: {id: x, join: {warmUpRounds: 1000001}}",
        "overlay.messageStore              | overlay: {id: x, messageStore: [1, 2]}",
        "overlay.heartbeat.fastMss         | overlay: {id: x, heartbeat: {fastMss: 1}}",
        "overlay.colour                    | overlay: {id: x, colour: blue}",
        "messagestore                      | {overlay: {id: x}, messagestore: {}}",
        "other                             | other: {id: x}",
        "overlay                           | {}",
    })
    void shouldNameTheFieldOfEveryError(String field, String yaml) {
        OverlayConfigException e = assertThrows(OverlayConfigException.class, () -> OverlayConfig.parse(yaml));
        assertEquals(field, e.field(), e.getMessage());
        assertTrue(e.getMessage().startsWith(field), e.getMessage());
    }

    @Test
    void shouldQuoteTheLimitInTheMessage() {
        OverlayConfigException e = assertThrows(OverlayConfigException.class,
                () -> OverlayConfig.parse("overlay: {id: x, heartbeat: {timeoutMs: 100}}"));
        assertEquals("overlay.heartbeat.timeoutMs=100 must be >= 5 x slowMs=250", e.getMessage());
        OverlayConfigException unknown = assertThrows(OverlayConfigException.class,
                () -> OverlayConfig.parse("overlay: {id: x, heartbeat: {fastMss: 1}}"));
        assertTrue(unknown.getMessage().contains("unknown field") && unknown.getMessage().contains("fastMs"), unknown.getMessage());
    }

    @Test
    void shouldRejectDuplicateKeysAndMalformedDocuments() {
        assertThrows(OverlayConfigException.class, () -> OverlayConfig.parse("overlay: {id: x, id: y}"));
        assertThrows(OverlayConfigException.class, () -> OverlayConfig.parse("overlay: {id: x"));
        assertThrows(OverlayConfigException.class, () -> OverlayConfigLoader.parseJson("{\"overlay\": {\"id\": \"x\"}} trailing"));
        assertThrows(OverlayConfigException.class, () -> OverlayConfig.parse(""));
    }

    @Test
    void shouldNameLineAndColumnOfASyntaxErrorAndTheFieldAndTypeOfATypeError() {
        OverlayConfigException syntax = assertThrows(OverlayConfigException.class,
                () -> OverlayConfig.parse("overlay:\n  id: x\n  heartbeat: {fastMs: 100\n"));
        assertTrue(syntax.getMessage().startsWith("configuration is not well-formed YAML at line "), syntax.getMessage());
        assertTrue(syntax.getMessage().matches("(?s).*at line \\d+, column \\d+: .*"), syntax.getMessage());
        assertEquals("", syntax.field());
        OverlayConfigException json = assertThrows(OverlayConfigException.class,
                () -> OverlayConfigLoader.parseJson("{\"overlay\": {\"id\": }}"));
        assertTrue(json.getMessage().startsWith("configuration is not well-formed JSON at line 1, column "),
                json.getMessage());
        OverlayConfigException type = assertThrows(OverlayConfigException.class,
                () -> OverlayConfig.parse("overlay: {id: x, heartbeat: {fastMs: soon}}"));
        assertEquals("overlay.heartbeat.fastMs", type.field(), type.getMessage());
        assertTrue(type.getMessage().startsWith("overlay.heartbeat.fastMs: expected an integer, got 'soon'"),
                type.getMessage());
    }

    @Test
    void shouldRejectYamlAliasBombs() {
        StringBuilder y = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        char prev = 'a';
        for (char c = 'b'; c <= 'k'; c++) {
            y.append(c).append(": &").append(c).append(" [");
            for (int i = 0; i < 10; i++) {
                y.append(i == 0 ? "" : ", ").append('*').append(prev);
            }
            y.append("]\n");
            prev = c;
        }
        y.append("overlay: {id: x}\n");
        assertThrows(OverlayConfigException.class, () -> OverlayConfig.parse(y.toString()));
    }

    @Test
    void shouldValidateConfigsBuiltInCode() {
        OverlayConfig c = OverlayConfig.defaults("x", NodeType.TREE).withAddress("not-a-number");
        assertEquals("overlay.address", assertThrows(OverlayConfigException.class, c::validate).field());
    }
}
