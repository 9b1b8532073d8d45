package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.statecast.overlay.testkit.Await;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a spec server (a separate JVM) with SIGKILL while uploads are in flight, restarts it, and
 * checks that every acknowledged upload survived intact: each service holds the last version the
 * server acknowledged, or a later one it was sent, never a torn file or a leftover temporary.
 */
class CrashConsistencyTest {

    private static final int[] IDS = {1, 2, 3};
    private static final int ROUNDS = Boolean.getBoolean("statecast.soak") ? 40 : 5;

    @TempDir
    Path work;

    /** What the test knows about one service: the acknowledged version and what was sent after it. */
    private static final class Expected {
        byte[] acknowledged;
        String etag;
        final List<byte[]> attemptedSince = new ArrayList<>();

        boolean allows(byte[] stored) {
            if (acknowledged != null && Arrays.equals(acknowledged, stored)) {
                return true;
            }
            return attemptedSince.stream().anyMatch(a -> Arrays.equals(a, stored));
        }
    }

    @Test
    void shouldKeepEveryAcknowledgedUploadIntactAcrossKillNine() throws Exception {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random random = new Random(seed);
        Path dir = work.resolve("specs");
        Path tokenFile = Files.writeString(work.resolve("token"), Http.TOKEN);
        Map<Integer, Expected> expected = new HashMap<>();
        for (int id : IDS) {
            expected.put(id, new Expected());
        }
        int killedMidUpload = 0;
        for (int round = 0; round <= ROUNDS; round++) {
            String context = "seed=" + seed + " round=" + round;
            try (ChildServer child = ChildServer.start(work.resolve("logs"), "round-" + round,
                    List.of("--dir", dir.toString(), "--token-file", tokenFile.toString()))) {
                URI uri = child.awaitListening(Duration.ofSeconds(60));
                SpecServerClient client = new SpecServerClient(uri, Optional.of(Http.TOKEN),
                        new SpecServerClient.Options(Duration.ofSeconds(5), Duration.ofSeconds(20), 1024 * 1024));
                verify(client, dir, expected, context);
                if (round == ROUNDS) {
                    break;
                }
                int acksBeforeKill = 1 + random.nextInt(6);
                AtomicInteger acks = new AtomicInteger();
                long uploaderSeed = random.nextLong();
                AtomicReference<Throwable> uploadFailure = new AtomicReference<>();
                Thread uploader = new Thread(() -> upload(client, expected, acks, new Random(uploaderSeed)), "uploader");
                uploader.setUncaughtExceptionHandler((t, failure) -> uploadFailure.set(failure));
                uploader.start();
                Await.until(() -> acks.get() >= acksBeforeKill || !uploader.isAlive(), Duration.ofSeconds(60),
                        () -> "acknowledged uploads before the kill; " + context);
                child.kill();
                uploader.join(30_000);
                assertTrue(!uploader.isAlive(), "the uploader stops once the server is gone; " + context);
                if (uploadFailure.get() != null) {
                    throw new AssertionError(context, uploadFailure.get());
                }
                if (expected.values().stream().anyMatch(e -> !e.attemptedSince.isEmpty())) {
                    killedMidUpload++;
                }
            }
        }
        // Not an assertion on timing: with several rounds some kill lands while an upload is being sent.
        System.out.println("crash test seed=" + seed + ": " + killedMidUpload + " of " + ROUNDS + " kills interrupted an upload");
    }

    /** Uploads versions of random services until the server stops answering. */
    private static void upload(SpecServerClient client, Map<Integer, Expected> expected, AtomicInteger acks, Random random) {
        for (int i = 0; ; i++) {
            int id = IDS[random.nextInt(IDS.length)];
            Expected e = expected.get(id);
            byte[] doc = TestSpecs.specOfSize(id, "crash", 32 * 1024 + random.nextInt(160 * 1024));
            // Make every version distinct even at equal size.
            byte[] stamp = ("upload " + i + " " + random.nextLong()).getBytes();
            System.arraycopy(stamp, 0, doc, doc.length - 40 - stamp.length, stamp.length);
            e.attemptedSince.add(doc);
            try {
                SpecServerClient.Stored stored = client.put(id, doc, Optional.ofNullable(e.etag));
                e.acknowledged = doc;
                e.etag = stored.etag();
                e.attemptedSince.clear();
                acks.incrementAndGet();
            } catch (SpecServerClientException failure) {
                if (failure.status() != 0) {
                    throw new AssertionError("the server refused a valid upload: " + failure.getMessage(), failure);
                }
                return; // the server is gone
            }
        }
    }

    /** Checks the restarted server against what was acknowledged, then adopts what it holds. */
    private static void verify(SpecServerClient client, Path dir, Map<Integer, Expected> expected, String context) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            List<String> leftovers = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(SpecStore.TEMP_PREFIX) || n.equals(SpecStore.QUARANTINE_DIR)).toList();
            assertEquals(List.of(), leftovers, "no temporary file survives a restart and nothing was quarantined; " + context);
        }
        for (int id : IDS) {
            Expected e = expected.get(id);
            SpecServerClient.Fetch fetch = client.get(id, Optional.empty());
            if (fetch instanceof SpecServerClient.Fetch.Found found) {
                if (!e.allows(found.document())) {
                    fail("service " + id + " holds a version that was neither acknowledged last nor sent later ("
                            + found.document().length + " bytes, " + found.etag() + "); " + context);
                }
                e.acknowledged = found.document();
                e.etag = found.etag();
            } else {
                assertTrue(fetch instanceof SpecServerClient.Fetch.NotFound, fetch + "; " + context);
                if (e.acknowledged != null) {
                    fail("service " + id + " lost its acknowledged version; " + context);
                }
                e.etag = null;
            }
            e.attemptedSince.clear();
        }
        assertEquals(client.list().size(), (int) expected.values().stream().filter(e -> e.acknowledged != null).count(), context);
    }
}
