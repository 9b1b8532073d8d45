package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Racing writers of one ServiceID: the precondition check and the write are one atomic step. */
class SpecServerConcurrencyTest {

    private static final int WRITERS = 8;
    private static final int ROUNDS = Boolean.getBoolean("statecast.soak") ? 200 : 15;

    @TempDir
    Path dir;

    private SpecServer server;
    private Http http;
    private ExecutorService pool;

    @BeforeEach
    void start() throws SpecServerException {
        server = SpecServer.start(SpecServerConfig.secured(dir, Http.TOKEN), new BasicSpecCheck());
        http = new Http(server.baseUri());
        pool = Executors.newFixedThreadPool(WRITERS);
    }

    @AfterEach
    void stop() throws InterruptedException {
        pool.shutdownNow();
        pool.awaitTermination(10, TimeUnit.SECONDS);
        server.close();
    }

    /** Starts all writers at once and returns each one's status, in writer order. */
    private List<Integer> race(List<HttpResponseSupplier> writers) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> futures = new ArrayList<>();
        for (HttpResponseSupplier w : writers) {
            futures.add(pool.submit(() -> {
                go.await();
                return w.get().statusCode();
            }));
        }
        go.countDown();
        List<Integer> statuses = new ArrayList<>();
        for (Future<Integer> f : futures) {
            statuses.add(f.get(60, TimeUnit.SECONDS));
        }
        return statuses;
    }

    @FunctionalInterface
    private interface HttpResponseSupplier {
        HttpResponse<String> get();
    }

    @Test
    void shouldLetExactlyOneOfConcurrentReplacementsWithTheSameIfMatchWin() throws Exception {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random random = new Random(seed);
        HttpResponse<String> created = http.send(http.authorized(http.put("/services/77", TestSpecs.spec(77, "race", "v0"))));
        String etag = created.headers().firstValue("ETag").orElseThrow();
        for (int round = 0; round < ROUNDS; round++) {
            List<byte[]> docs = new ArrayList<>();
            List<HttpResponseSupplier> writers = new ArrayList<>();
            String ifMatch = etag;
            for (int w = 0; w < WRITERS; w++) {
                byte[] doc = TestSpecs.spec(77, "race", "round " + round + " writer " + w + " " + "p".repeat(random.nextInt(4000)));
                docs.add(doc);
                writers.add(() -> http.send(http.authorized(http.put("/services/77", doc)).header("If-Match", ifMatch)));
            }
            List<Integer> statuses = race(writers);
            String context = "seed=" + seed + " round=" + round + " statuses=" + statuses;
            assertEquals(1, Collections.frequency(statuses, 200), context);
            assertEquals(WRITERS - 1, Collections.frequency(statuses, 412), context);

            byte[] winner = docs.get(statuses.indexOf(200));
            HttpResponse<byte[]> stored = http.sendBytes(http.request("/services/77").GET());
            assertArrayEquals(winner, stored.body(), "the stored document is the winner's; " + context);
            etag = stored.headers().firstValue("ETag").orElseThrow();
            assertEquals("\"" + SpecStore.sha256(winner) + "\"", etag, context);
        }
    }

    @Test
    void shouldLetExactlyOneOfConcurrentCreationsWin() throws Exception {
        for (int id = 1; id <= 5; id++) {
            int serviceId = id;
            List<HttpResponseSupplier> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                byte[] doc = TestSpecs.spec(serviceId, "create", "writer " + w);
                writers.add(() -> http.send(http.authorized(http.put("/services/" + serviceId, doc))));
            }
            List<Integer> statuses = race(writers);
            assertEquals(1, Collections.frequency(statuses, 201), statuses.toString());
            assertEquals(WRITERS - 1, Collections.frequency(statuses, 412), statuses.toString());
        }
        assertEquals(5, server.services().size());
    }
}
