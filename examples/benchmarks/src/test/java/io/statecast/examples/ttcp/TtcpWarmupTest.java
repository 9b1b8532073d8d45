package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.testkit.Await;
import org.junit.jupiter.api.Test;

class TtcpWarmupTest {

    @Test
    void aBackgroundCollectionShouldEndAndLetTheNextOneStart() {
        TtcpWarmup w = new TtcpWarmup();
        assertFalse(w.collecting(), "nothing started yet");
        assertTrue(w.collectInBackground());
        Await.until(() -> !w.collecting(), 60, () -> "the first collection ends");
        assertTrue(w.collectInBackground(), "one ended, so another may start");
        Await.until(() -> !w.collecting(), 60, () -> "the second collection ends");
    }
}
