package io.statecast.messagestore.event;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.OverlayMessage;
import java.util.List;

/**
 * The filter of a message basic event: a conjunction of attribute tests. No tests means any
 * message of the service (the blueprint's many-to-one mapping, Table 4.2).
 *
 * @param tests the tests, all of which must pass
 */
public record MessageFilter(List<AttributeTest> tests) {

    /** Copies the tests. */
    public MessageFilter {
        tests = List.copyOf(tests);
    }

    /**
     * @param message the arriving message
     * @param self    the evaluating node's logical address (for tests written {@code local})
     * @return whether every test passes
     */
    public boolean matches(OverlayMessage message, LogicalAddress self) {
        for (int i = 0, n = tests.size(); i < n; i++) {
            if (!tests.get(i).test(message, self)) {
                return false;
            }
        }
        return true;
    }
}
