package io.statecast.messagestore.spec;

import java.util.List;
import java.util.Map;
import org.apache.commons.scxml.EventDispatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's {@code <send>}/{@code <cancel>} channel. Specs may not use either (timers and
 * messages are primitives; Commons' scheduler starts a thread per delayed send), so loading
 * refuses them and this dispatcher only logs if anything slips through.
 */
final class RefusingEventDispatcher implements EventDispatcher {

    static final RefusingEventDispatcher INSTANCE = new RefusingEventDispatcher();
    private static final Logger LOG = LoggerFactory.getLogger(RefusingEventDispatcher.class);

    private RefusingEventDispatcher() {
    }

    @Override
    public void cancel(String sendId) {
        LOG.warn("ignored <cancel> of {}: specs have no <send>", sendId);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public void send(String sendId, String target, String type, String event, Map params, Object hints, long delay,
            List externalNodes) {
        LOG.warn("ignored <send> of event {}: specs have no <send>", event);
    }
}
