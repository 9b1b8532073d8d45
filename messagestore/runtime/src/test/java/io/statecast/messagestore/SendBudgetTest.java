package io.statecast.messagestore;

import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.statecast.messagestore.action.ActionOutcome;
import io.statecast.messagestore.deploy.SpecResolver;
import io.statecast.messagestore.instance.SendBudget;
import io.statecast.messagestore.metrics.CountersSnapshot;
import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.overlay.testkit.RecordingOverlay.Call;
import io.statecast.overlay.testkit.RecordingOverlay.SendControl;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The node-wide send budget of a service: many instances, each well within its own primitive
 * rate, together send no more than the budget; the excess is dropped and counted. On clock
 * threading and a virtual clock.
 */
class SendBudgetTest {

    private final VirtualTimerService clock = new VirtualTimerService();
    private final RecordingOverlay overlay = new RecordingOverlay(a(9), clock, new FixedTopology(a(9)).tree(a(1), a(5)));
    private MessageStore store;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private static long acks(List<Call> calls) {
        return calls.stream().filter(SendControl.class::isInstance).count();
    }

    @Test
    void shouldHoldAServiceToItsBudgetAcrossInstancesAndShards() throws Exception {
        store = new MessageStore(MessageStoreConfig.defaults().withShards(2).withWarmStart(false)
                .withThreading(MessageStoreConfig.Threading.CLOCK).withSendBudget(new SendBudget(100, 10)),
                Specs.loader(), SpecResolver.defaults());
        store.open(overlay);
        // ack-service: every payload creates an instance that sends one ACK (a control message)
        store.install(Specs.load("specs/ack-service.scxml"));
        for (long id = 1; id <= 50; id++) {
            store.receiveMessage(Messages.payload(42, id, 5, 5, "x"), Arrival.DELIVERED);
        }
        clock.advanceBy(Duration.ZERO);
        assertEquals(10, acks(overlay.drain()), "the burst, at one instant");
        CountersSnapshot svc = store.metrics().service(42).counters();
        assertEquals(40, svc.actions(ActionOutcome.OVER_SERVICE_BUDGET), () -> store.metrics().format());
        assertEquals(40, store.metrics().node().actions(ActionOutcome.OVER_SERVICE_BUDGET));
        assertEquals(50, svc.created(), "each instance is within its own rate; only the service's budget bites");

        clock.advanceBy(Duration.ofMillis(100)); // 100/s: ten more
        for (long id = 51; id <= 80; id++) {
            store.receiveMessage(Messages.payload(42, id, 5, 5, "x"), Arrival.DELIVERED);
        }
        clock.advanceBy(Duration.ZERO);
        assertEquals(10, acks(overlay.drain()));
        assertEquals(60, store.metrics().service(42).counters().actions(ActionOutcome.OVER_SERVICE_BUDGET));
    }

    @Test
    void shouldRefuseABudgetOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> new SendBudget(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new SendBudget(10, 0));
        assertThrows(IllegalArgumentException.class, () -> new SendBudget(Double.POSITIVE_INFINITY, 10));
    }
}
