package io.statecast.examples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.instance.EndCause;
import io.statecast.messagestore.instance.ServiceInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The MessageStore benchmarks set up and run for every spec they are parameterised with: a
 * benchmark that cannot start measures nothing, and nothing else would notice (the set-up once
 * refused h2h-ack's source for ending when acknowledged).
 */
class MessageStoreBenchmarkTest {

    @ParameterizedTest
    @ValueSource(strings = {"blueprint-h2h.scxml", "h2h-ack.scxml", MessageStoreBenchmark.H2H_VARIANT})
    void everyBenchmarkShouldRunForEverySpec(String spec) throws Exception {
        MessageStoreBenchmark b = new MessageStoreBenchmark();
        b.spec = spec;
        b.setUp();
        try {
            long tasks = b.relayedThroughStores();
            for (int i = 0; i < 3; i++) {
                String states = b.relayedMessage();
                assertTrue(states.equals("[done]") || states.equals("[end]"), spec + ": the sender is in " + states);
                ServiceInstance live = b.event();
                assertNull(live.ended(), spec + ": an ACK Request leaves the receiver's instance running");
                assertEquals(EndCause.CLOSED, b.newInstance().ended());
                long now = b.relayedThroughStores();
                assertTrue(now > tasks, spec + ": the stores ran no task for a relayed message");
                tasks = now;
            }
        } finally {
            b.tearDown();
        }
    }
}
