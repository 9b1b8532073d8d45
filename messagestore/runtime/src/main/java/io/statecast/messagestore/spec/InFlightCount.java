package io.statecast.messagestore.spec;

import java.util.Objects;

/**
 * {@code <InFlightCount limit="…">variable</InFlightCount>}: how a flow-scope spec tells the
 * store how many of its node's application messages one instance holds in flight. After every
 * step the store reads the datamodel variable of an instance that holds messages of its node's
 * application, and the service's send window counts that many; the socket's {@code send} waits
 * while the service's count has reached the window, and the smaller {@code limit} when one is
 * given. The per-instance counterpart of {@code <InFlight>} states, which count a whole instance
 * as one message and so suit one instance per message.
 *
 * @param variable the id of a {@code <data>} variable holding a whole number (a value that is not
 *                 one, or below 0, counts 0)
 * @param limit    an integer of at least 1, or the name of an integer parameter: the most messages
 *                 of the service the node's application may have in flight; {@code null}: the
 *                 socket's window alone
 */
public record InFlightCount(String variable, String limit) {

    /** Requires the variable. */
    public InFlightCount {
        Objects.requireNonNull(variable, "variable");
    }
}
