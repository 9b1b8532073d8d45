package io.statecast.overlay.socket;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.statecast.overlay.address.SubstrateAddress;
import io.statecast.overlay.message.DecodeException;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.MessageCodec;
import io.statecast.overlay.message.OverlayId;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import io.statecast.overlay.security.FrameAuthenticator;
import io.statecast.overlay.security.KeyFileException;
import io.statecast.overlay.substrate.AdapterMetrics;
import io.statecast.overlay.testkit.Await;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Frame authentication end to end: real overlay sockets on UDP loopback, keys in files. */
class FrameAuthUdpTest {

    private static final String OVERLAY = "auth-it";

    private final List<OverlaySocket> sockets = new ArrayList<>();
    @TempDir
    Path dir;

    @AfterEach
    void closeAll() {
        sockets.forEach(OverlaySocket::close);
    }

    private static String secret(int fill) {
        byte[] b = new byte[32];
        Arrays.fill(b, (byte) fill);
        return Base64.getEncoder().encodeToString(b);
    }

    /** Replaces {@code file}'s content in one step, as docs/security.md tells operators to. */
    private static void writeKeys(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private OverlaySocket socket(String address, Path keyFile, long reloadMs, List<SubstrateAddress> buddies) throws Exception {
        OverlayConfig c = OverlayConfig.defaults(OVERLAY, NodeType.TREE).withAddress(address).withBuddies(buddies)
                .withSecurity(new OverlayConfig.Security(keyFile, null, reloadMs));
        OverlaySocket s = OverlaySocket.create(c);
        sockets.add(s);
        return s;
    }

    /** a founds the overlay, b joins through it; both hold the same key. */
    private OverlaySocket[] pair(Path keyFile, long reloadMs) throws Exception {
        OverlaySocket a = socket("2", keyFile, reloadMs, List.of());
        a.join();
        OverlaySocket b = socket("1", keyFile, reloadMs, a.substrateAddresses());
        b.join();
        Await.until(() -> b.neighbours().contains(a.localAddress()) && a.neighbours().contains(b.localAddress()),
                10, () -> "no tree edge within 10 s: " + a.topology() + " / " + b.topology());
        return new OverlaySocket[] {a, b};
    }

    private static void assertDelivered(OverlaySocket from, OverlaySocket to, String text) throws InterruptedException {
        from.sendTo(to.localAddress(), text.getBytes(UTF_8));
        OverlayMessage m = to.receive(10, TimeUnit.SECONDS);
        assertNotNull(m, () -> "'" + text + "' did not arrive; " + to.adapter().metrics());
        assertEquals(text, new String(m.payload(), UTF_8));
        assertEquals(from.localAddress(), m.source());
    }

    private static long authDrops(OverlaySocket s) {
        AdapterMetrics m = s.adapter().metrics();
        return m.dropped(AdapterMetrics.ReceiveDrop.AUTH_TRUNCATED) + m.dropped(AdapterMetrics.ReceiveDrop.AUTH_UNKNOWN_KEY)
                + m.dropped(AdapterMetrics.ReceiveDrop.AUTH_BAD_MAC) + m.dropped(AdapterMetrics.ReceiveDrop.AUTH_REPLAY);
    }

    @Test
    void shouldJoinAndDeliverWithTheKeyAndDropForgedFramesFromAnotherPort() throws Exception {
        Path keyFile = dir.resolve("overlay.key");
        writeKeys(keyFile, "1 " + secret(1) + "\n");
        OverlaySocket[] ab = pair(keyFile, 0);
        OverlaySocket a = ab[0];
        OverlaySocket b = ab[1];
        assertDelivered(b, a, "sealed");

        // a well-formed frame as b would send it (right overlay, b's logical source), without a MAC ...
        MessageCodec codec = new MessageCodec(OverlayId.wireHash(OVERLAY), MessageCodec.DEFAULT_MAX_MESSAGE_BYTES);
        OverlayMessage forged = new OverlayMessage(DeliveryMode.UNICAST, 8, b.localAddress(), a.localAddress(),
                b.localAddress(), null, List.of(new PayloadExtension("forged".getBytes(UTF_8))));
        ByteBuf plain = Unpooled.buffer();
        codec.encode(forged, plain);
        // ... and with a trailer of the right key id and a made-up MAC
        ByteBuf trailed = plain.copy();
        trailed.writeByte(1).writeByte(0).writeLong(42).writeLong(0).writeZero(FrameAuthenticator.MAC_BYTES);
        long before = authDrops(a);
        long badMacBefore = a.adapter().metrics().dropped(AdapterMetrics.ReceiveDrop.AUTH_BAD_MAC);
        SubstrateAddress target = a.substrateAddresses().get(0);
        try (DatagramSocket forger = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            for (ByteBuf f : List.of(plain, trailed)) {
                byte[] bytes = ByteBufUtil.getBytes(f);
                forger.send(new DatagramPacket(bytes, bytes.length, InetAddress.getLoopbackAddress(), target.port()));
            }
        }
        Await.until(() -> authDrops(a) >= before + 2, 10, () -> "forged frames not counted: " + a.adapter().metrics());
        assertEquals(badMacBefore + 1, a.adapter().metrics().dropped(AdapterMetrics.ReceiveDrop.AUTH_BAD_MAC));
        assertNull(a.receive(0, TimeUnit.MILLISECONDS), "a forged frame was delivered");
        assertDelivered(b, a, "still sealed");
        assertNull(a.receive(0, TimeUnit.MILLISECONDS));
        assertTrue(a.neighbours().contains(b.localAddress()), "the overlay survived the forgeries");
    }

    @Test
    void shouldJoinAndDeliverWithEncryptedFrames() throws Exception {
        Path keyFile = dir.resolve("overlay.key");
        writeKeys(keyFile, "1 " + secret(1) + "\n");
        OverlaySocket a = OverlaySocket.create(OverlayConfig.defaults(OVERLAY, NodeType.TREE).withAddress("2")
                .withSecurity(new OverlayConfig.Security(keyFile, OverlayConfig.Security.Mode.AEAD, 0)));
        sockets.add(a);
        a.join();
        OverlaySocket b = OverlaySocket.create(OverlayConfig.defaults(OVERLAY, NodeType.TREE).withAddress("1")
                .withBuddies(a.substrateAddresses())
                .withSecurity(new OverlayConfig.Security(keyFile, OverlayConfig.Security.Mode.AEAD, 0)));
        sockets.add(b);
        b.join();
        Await.until(() -> b.neighbours().contains(a.localAddress()) && a.neighbours().contains(b.localAddress()),
                10, () -> "no tree edge within 10 s: " + a.topology() + " / " + b.topology());
        assertTrue(a.adapter().authenticator().encrypts());
        assertDelivered(b, a, "secret ".repeat(100));
        assertDelivered(a, b, "and back");

        // a node of the same key in mode mac is kept out: encrypted and authenticated-only frames do not mix
        long before = a.adapter().metrics().dropped(AdapterMetrics.ReceiveDrop.AUTH_BAD_MAC);
        OverlaySocket macOnly = socket("3", keyFile, 0, a.substrateAddresses());
        macOnly.joinAsync();
        Await.until(() -> a.adapter().metrics().dropped(AdapterMetrics.ReceiveDrop.AUTH_BAD_MAC) >= before + 3, 10,
                () -> "the mac-only node's frames were not refused: " + a.adapter().metrics());
        assertFalse(a.neighbours().contains(macOnly.localAddress()));
    }

    @Test
    void shouldKeepANodeWithAnotherKeyOut() throws Exception {
        Path keyFile = dir.resolve("overlay.key");
        writeKeys(keyFile, "1 " + secret(1) + "\n");
        Path otherKey = dir.resolve("other.key");
        writeKeys(otherKey, "1 " + secret(2) + "\n");
        OverlaySocket a = socket("2", keyFile, 0, List.of());
        a.join();
        long before = a.adapter().metrics().dropped(AdapterMetrics.ReceiveDrop.AUTH_BAD_MAC);
        OverlaySocket c = socket("3", otherKey, 0, a.substrateAddresses());
        c.joinAsync();
        Await.until(() -> a.adapter().metrics().dropped(AdapterMetrics.ReceiveDrop.AUTH_BAD_MAC) >= before + 3, 10,
                () -> "the outsider's frames did not reach a: " + a.adapter().metrics());
        assertFalse(a.neighbours().contains(c.localAddress()), "a node with another key became a's neighbour");
        assertTrue(c.neighbours().isEmpty(), () -> "the outsider has neighbours: " + c.topology());
        assertEquals(0, a.adapter().metrics().received(), "a is alone: nothing of the outsider was decoded");
    }

    @Test
    void shouldKeepNodesWithAndWithoutAKeyApartBothWays() throws Exception {
        Path keyFile = dir.resolve("overlay.key");
        writeKeys(keyFile, "1 " + secret(1) + "\n");
        OverlaySocket open = OverlaySocket.create(OverlayConfig.defaults(OVERLAY, NodeType.TREE).withAddress("7"));
        sockets.add(open);
        open.join();
        OverlaySocket keyed = socket("8", keyFile, 0, open.substrateAddresses());
        keyed.joinAsync();
        Await.until(() -> open.adapter().metrics().dropped(DecodeException.Reason.TRAILING_BYTES) >= 3, 10,
                () -> "the keyless node did not refuse the keyed node's frames: " + open.adapter().metrics());
        assertTrue(open.neighbours().isEmpty() && keyed.neighbours().isEmpty(), () -> open.topology() + " / " + keyed.topology());
        assertEquals(0, open.adapter().metrics().received(), "nothing keyed was decoded by the keyless node");

        OverlaySocket intruder = OverlaySocket.create(OverlayConfig.defaults(OVERLAY, NodeType.TREE).withAddress("9")
                .withBuddies(keyed.substrateAddresses()));
        sockets.add(intruder);
        intruder.joinAsync();
        Await.until(() -> authDrops(keyed) >= 3, 10, () -> "the keyed node did not refuse unsealed frames: " + keyed.adapter().metrics());
        assertEquals(0, keyed.adapter().metrics().received(), "nothing unsealed was decoded by the keyed node");
        assertFalse(keyed.neighbours().contains(intruder.localAddress()));
    }

    @Test
    void shouldKeepDeliveringWhileTheKeyFileIsRotated() throws Exception {
        Path keyFile = dir.resolve("overlay.key");
        writeKeys(keyFile, "1 " + secret(1) + "\n");
        OverlaySocket[] ab = pair(keyFile, 50);
        OverlaySocket a = ab[0];
        OverlaySocket b = ab[1];
        assertDelivered(b, a, "key 1");

        // three-step rotation: add the next key, send with it, drop the old one
        writeKeys(keyFile, "1 " + secret(1) + "\n2 " + secret(2) + "\n");
        awaitKeys(a, b, 1, 2);
        assertDelivered(b, a, "key 1, key 2 accepted");
        writeKeys(keyFile, "2 " + secret(2) + "\n1 " + secret(1) + "\n");
        awaitKeys(a, b, 2, 2);
        assertDelivered(a, b, "key 2");
        writeKeys(keyFile, "2 " + secret(2) + "\n");
        awaitKeys(a, b, 2, 1);
        assertDelivered(b, a, "key 2 only");

        // a half-written or broken file keeps the keys in use
        writeKeys(keyFile, "3 tooshort\n");
        Await.until(() -> reloadFailures(a) > 0 && reloadFailures(b) > 0, 10, () -> "broken file not noticed");
        assertEquals(2, a.adapter().authenticator().keys().sending().id());
        assertDelivered(a, b, "still key 2");

        // and a one-step replacement, once both have reloaded
        writeKeys(keyFile, "3 " + secret(3) + "\n");
        awaitKeys(a, b, 3, 1);
        assertDelivered(b, a, "key 3");
        assertTrue(a.neighbours().contains(b.localAddress()) && b.neighbours().contains(a.localAddress()),
                "neighbours kept each other through the rotation");
    }

    private static long reloadFailures(OverlaySocket s) {
        return s.keyReloader().failures();
    }

    private static void awaitKeys(OverlaySocket a, OverlaySocket b, int sending, int count) {
        Await.until(() -> hasKeys(a, sending, count) && hasKeys(b, sending, count), 10,
                () -> "keys not reloaded: " + a.adapter().authenticator() + " / " + b.adapter().authenticator());
    }

    private static boolean hasKeys(OverlaySocket s, int sending, int count) {
        return s.adapter().authenticator().keys().sending().id() == sending && s.adapter().authenticator().keys().keys().size() == count;
    }

    @Test
    void shouldReloadOnRequestAndRefuseABrokenFileKeepingTheKeys() throws Exception {
        Path keyFile = dir.resolve("overlay.key");
        writeKeys(keyFile, "1 " + secret(1) + "\n");
        OverlaySocket a = socket("2", keyFile, 0, List.of());
        assertFalse(a.reloadKeys(), "same keys");
        writeKeys(keyFile, "5 " + secret(5) + "\n1 " + secret(1) + "\n");
        assertTrue(a.reloadKeys());
        assertEquals(5, a.adapter().authenticator().keys().sending().id());
        writeKeys(keyFile, "5 " + secret(5) + "\n5 " + secret(6) + "\n");
        KeyFileException e = assertThrows(KeyFileException.class, a::reloadKeys);
        assertEquals(keyFile + ":2: key id 5 appears twice", e.getMessage());
        assertEquals(2, a.adapter().authenticator().keys().keys().size());

        OverlaySocket open = OverlaySocket.create(OverlayConfig.defaults(OVERLAY, NodeType.TREE));
        sockets.add(open);
        assertNull(open.adapter().authenticator());
        assertThrows(IllegalStateException.class, open::reloadKeys);
    }
}
