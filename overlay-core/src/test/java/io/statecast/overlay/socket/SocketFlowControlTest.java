package io.statecast.overlay.socket;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.statecast.overlay.forward.Arrival;
import io.statecast.overlay.forward.FlowControl;
import io.statecast.overlay.forward.MessageStorePort;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.forward.ServiceMetaops;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.OverlayMessage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The socket's side of flow control: before it hands the application's data message of a service
 * to the store it asks the store's {@link FlowControl} and nothing else, gives the reserved place
 * back once the store has the message, and reports the flow control's statistics.
 */
class SocketFlowControlTest {

    private static final int SERVICE = 5;
    /** The store forwards every service itself and takes no relayed unicast. */
    private static final ServiceMetaops FORWARDS_ITSELF = new ServiceMetaops(true, false, false, false);
    private static final SendWindowStatistics STATS = new SendWindowStatistics(3, 4, 1, 2, 77);

    /** A store whose flow control writes what it is asked into {@code calls}, as the store does what it receives. */
    private static final class RecordingStore implements MessageStorePort {
        final List<String> calls = new CopyOnWriteArrayList<>();
        volatile OverlayConfig.SendWindow settings;
        volatile boolean refuse;
        final FlowControl flow = new FlowControl() {
            @Override
            public boolean governs(int serviceId) {
                return serviceId == SERVICE;
            }

            @Override
            public boolean acquire(int serviceId) {
                calls.add("acquire " + serviceId);
                if (refuse) {
                    throw new SendWindowException(serviceId, 1, 1, true, 0, false);
                }
                return serviceId == SERVICE;
            }

            @Override
            public void release(int serviceId) {
                calls.add("release " + serviceId);
            }

            @Override
            public SendWindowStatistics statistics() {
                return STATS;
            }
        };

        @Override
        public void open(OverlayContext context) {
        }

        @Override
        public FlowControl flowControl(OverlayConfig.SendWindow s) {
            settings = s;
            return flow;
        }

        @Override
        public ServiceMetaops metaops(int serviceId) {
            return FORWARDS_ITSELF;
        }

        @Override
        public boolean receiveMessage(OverlayMessage message, Arrival arrival) {
            calls.add("store " + message.fsm().serviceId());
            return true;
        }

        @Override
        public void close() {
        }
    }

    private static OverlayConfig config() throws Exception {
        return OverlayConfig.parse("""
                overlay:
                  id: flow
                  node: TREE
                  address: 5
                  interfaces: ["udp://127.0.0.1:0"]
                  join: { warmUpRounds: 0 }
                  sendWindow: { window: 77, maxWaitMs: 1234, aimd: false }
                """);
    }

    @Test
    void shouldAskTheStoresFlowControlAroundEachDataMessageOfAService() throws Exception {
        RecordingStore store = new RecordingStore();
        try (OverlaySocket s = OverlaySocket.builder(config()).messageStore(store).build()) {
            assertEquals(new OverlayConfig.SendWindow(77, 1234, false), store.settings, "the socket's overlay.sendWindow");
            assertSame(store.flow, s.flowControl());
            s.joinAsync();
            s.sendToAll("a".getBytes(UTF_8), SERVICE);
            assertEquals(List.of("acquire 5", "store 5", "release 5"), store.calls, "reserved until the store had it");
            store.calls.clear();
            s.sendToAll("b".getBytes(UTF_8), 6);
            assertEquals(List.of("acquire 6", "store 6"), store.calls, "nothing reserved: nothing to give back");
            store.calls.clear();
            s.sendToAll("c".getBytes(UTF_8));
            s.send(new OverlayMessage(DeliveryMode.MULTICAST, 8, s.localAddress(), null, s.localAddress(), null,
                    List.of(new FsmExtension(SERVICE, (byte) 1, 42L))));
            assertEquals(List.of("store 5"), store.calls, "a message without a service, or a control message, does not ask");
            store.calls.clear();
            store.refuse = true;
            assertThrows(SendWindowException.class, () -> s.sendToAll("d".getBytes(UTF_8), SERVICE));
            assertEquals(List.of("acquire 5"), store.calls, "a refused send is not sent");
            assertSame(STATS, s.sendWindowStatistics());
        }
    }

    @Test
    void withoutAStoreNothingShouldWait() throws Exception {
        try (OverlaySocket s = OverlaySocket.builder(config()).build()) {
            assertFalse(s.flowControl().governs(SERVICE));
            assertFalse(s.flowControl().acquire(SERVICE));
            assertEquals(new SendWindowStatistics(0, 0, 0, 0, 77), s.sendWindowStatistics());
        }
    }
}
