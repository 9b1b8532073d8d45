package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.deploy.SigningKey;
import io.statecast.messagestore.deploy.SpecSignatures;
import io.statecast.messagestore.deploy.TrustedKeys;
import io.statecast.messagestore.spec.SpecLimits;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Signed uploads ({@code --trust}), version history, the audit log and restore, over real HTTP. */
class SignedSpecsTest {

    @TempDir
    Path dir;

    private static final SigningKey PUBLISHER = SigningKey.generate();
    private static final SigningKey STRANGER = SigningKey.generate();

    private static byte[] signed(byte[] doc, SigningKey key) throws Exception {
        return SpecSignatures.sign("test", doc, key, SpecLimits.DEFAULTS);
    }

    private SpecServer start(boolean trusting) throws SpecServerException {
        SpecServerConfig c = SpecServerConfig.secured(dir, Http.TOKEN);
        if (trusting) {
            c = c.withTrustedKeys(TrustedKeys.of(List.of(PUBLISHER.publicKey())));
        }
        return SpecServer.start(c, new MessageStoreSpecCheck(c.limits().maxSpecBytes()));
    }

    private static SpecServerClient client(SpecServer s) {
        return new SpecServerClient(s.baseUri(), Optional.of(Http.TOKEN), SpecServerClient.Options.DEFAULTS);
    }

    @Test
    void acceptsOnlySpecsSignedByATrustedKeyAndKeepsWhatIsStored() throws Exception {
        byte[] v1 = signed(TestSpecs.spec(40, "forty", "v1"), PUBLISHER);
        try (SpecServer server = start(true)) {
            SpecServerClient c = client(server);
            SpecServerClient.Stored stored = c.put(40, v1, Optional.empty());
            assertTrue(stored.created());

            byte[] unsigned = TestSpecs.spec(40, "forty", "v2");
            SpecServerClientException e = assertThrows(SpecServerClientException.class,
                    () -> c.put(40, unsigned, Optional.of(stored.etag())));
            assertEquals(403, e.status(), e.getMessage());
            assertTrue(e.getMessage().contains("not signed"), e.getMessage());

            byte[] stranger = signed(TestSpecs.spec(40, "forty", "v2"), STRANGER);
            e = assertThrows(SpecServerClientException.class, () -> c.put(40, stranger, Optional.of(stored.etag())));
            assertEquals(403, e.status(), e.getMessage());
            assertTrue(e.getMessage().contains("signed by key " + STRANGER.keyId() + ", which is not trusted"), e.getMessage());

            byte[] tampered = new String(signed(TestSpecs.spec(40, "forty", "v2"), PUBLISHER), StandardCharsets.UTF_8)
                    .replace("<ServiceName>forty</ServiceName>", "<ServiceName>forty-evil</ServiceName>")
                    .getBytes(StandardCharsets.UTF_8);
            e = assertThrows(SpecServerClientException.class, () -> c.put(40, tampered, Optional.of(stored.etag())));
            assertEquals(403, e.status(), e.getMessage());
            assertTrue(e.getMessage().contains("does not match the document"), e.getMessage());

            // also for a new service
            e = assertThrows(SpecServerClientException.class, () -> c.put(41, TestSpecs.spec(41, "x"), Optional.empty()));
            assertEquals(403, e.status());

            SpecServerClient.Fetch f = c.get(40, Optional.empty());
            assertArrayEquals(v1, ((SpecServerClient.Fetch.Found) f).document(), "nothing stored changed");
            assertEquals(1, c.list().size());
            assertEquals(4L, server.metrics().snapshot().get("untrustedSpecs"));
            assertEquals(1, c.history(40).versions().size(), "refused uploads leave no version behind");

            byte[] v2 = signed(TestSpecs.spec(40, "forty", "v2"), PUBLISHER);
            assertEquals(false, c.put(40, v2, Optional.of(stored.etag())).created());
        }
    }

    @Test
    void historyListsEveryVersionWithWhoAndWhenAndRestoreBringsOneBack() throws Exception {
        byte[] v1 = signed(TestSpecs.spec(50, "fifty", "v1"), PUBLISHER);
        byte[] v2 = signed(TestSpecs.spec(50, "fifty", "v2"), PUBLISHER);
        try (SpecServer server = start(true)) {
            SpecServerClient c = client(server);
            String e1 = c.put(50, v1, Optional.empty()).etag();
            String e2 = c.put(50, v2, Optional.of(e1)).etag();
            SpecServerClient.History h = c.history(50);
            assertEquals(Optional.of(SpecStore.sha256(v2)), h.current());
            assertEquals(List.of(SpecStore.sha256(v2), SpecStore.sha256(v1)),
                    h.versions().stream().map(SpecServerClient.VersionInfo::sha256).toList());
            assertEquals(List.of("replace", "create"), h.log().stream().map(SpecServerClient.AuditEntry::action).toList());
            SpecServerClient.AuditEntry last = h.log().get(0);
            assertTrue(last.who().matches("token:[0-9a-f]{8}"), last.who());
            assertEquals("127.0.0.1", last.from());
            assertEquals(Optional.of(PUBLISHER.keyId()), last.signedBy());

            // restore needs the token, like a publish
            SpecServerClient anonymous = SpecServerClient.create(server.baseUri());
            SpecServerClientException denied = assertThrows(SpecServerClientException.class,
                    () -> anonymous.restore(50, SpecStore.sha256(v1), Optional.empty()));
            assertEquals(401, denied.status());
            SpecServerClientException stale = assertThrows(SpecServerClientException.class,
                    () -> c.restore(50, SpecStore.sha256(v1), Optional.of(e1)));
            assertEquals(412, stale.status());

            SpecServerClient.Stored back = c.restore(50, SpecStore.sha256(v1), Optional.of(e2));
            assertEquals(e1, back.etag());
            assertArrayEquals(v1, ((SpecServerClient.Fetch.Found) c.get(50, Optional.empty())).document());
            assertEquals("restore", c.history(50).log().get(0).action());

            // a deleted service comes back too; an unknown version is 404
            assertTrue(c.delete(50, Optional.empty()));
            assertEquals(Optional.empty(), c.history(50).current());
            c.restore(50, SpecStore.sha256(v2), Optional.empty());
            assertArrayEquals(v2, ((SpecServerClient.Fetch.Found) c.get(50, Optional.empty())).document());
            SpecServerClientException none = assertThrows(SpecServerClientException.class,
                    () -> c.restore(50, "0".repeat(64), Optional.empty()));
            assertEquals(404, none.status());
            assertEquals(List.of("restore", "delete", "restore", "replace", "create"),
                    c.history(50).log().stream().map(SpecServerClient.AuditEntry::action).toList());
            String log = Files.readString(dir.resolve(SpecHistory.AUDIT_LOG));
            assertEquals(5, log.lines().count(), log);
            assertEquals(2L, server.metrics().snapshot().get("restores"));
        }
        // the history survives a restart
        try (SpecServer server = start(true)) {
            assertEquals(5, client(server).history(50).log().size());
            assertEquals(2, client(server).history(50).versions().size());
        }
    }

    @Test
    void aVersionStoredBeforeTheServerTrustedKeysIsNotRestoredUnsigned() throws Exception {
        byte[] unsigned = TestSpecs.spec(60, "sixty", "v1");
        try (SpecServer server = start(false)) {
            SpecServerClient c = client(server);
            c.put(60, unsigned, Optional.empty());
            assertTrue(c.delete(60, Optional.empty()));
            assertEquals(Optional.empty(), c.history(60).log().get(1).signedBy());
        }
        try (SpecServer server = start(true)) {
            SpecServerClient c = client(server);
            SpecServerClientException e = assertThrows(SpecServerClientException.class,
                    () -> c.restore(60, SpecStore.sha256(unsigned), Optional.empty()));
            assertEquals(403, e.status(), e.getMessage());
            assertEquals(0, c.list().size());
        }
    }

    @Test
    void keepsAtMostMaxVersionsPerService() throws Exception {
        try (SpecServer server = start(false)) {
            SpecServerClient c = client(server);
            Optional<String> etag = Optional.empty();
            for (int i = 0; i < SpecHistory.MAX_VERSIONS + 3; i++) {
                etag = Optional.of(c.put(70, TestSpecs.spec(70, "seventy", "v" + i), etag).etag());
            }
            SpecServerClient.History h = c.history(70);
            assertEquals(SpecHistory.MAX_VERSIONS, h.versions().size());
            assertTrue(h.versions().stream().anyMatch(SpecServerClient.VersionInfo::current));
        }
    }
}
