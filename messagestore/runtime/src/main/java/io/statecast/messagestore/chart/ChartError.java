package io.statecast.messagestore.chart;

/**
 * An error while executing a chart's content or evaluating its expressions. The session turns it
 * into the platform event {@code error.execution} (or {@code error.communication}) on the internal
 * queue and stops the block it came from, as the Recommendation requires.
 */
final class ChartError extends Exception {

    private static final long serialVersionUID = 1L;

    /** The platform event name this error raises. */
    final String event;
    /** The {@code sendid} of the {@code <send>} that failed, or {@code null}. */
    final String sendId;

    ChartError(String message) {
        this("error.execution", message, null);
    }

    ChartError(String event, String message, String sendId) {
        super(message, null, false, false);
        this.event = event;
        this.sendId = sendId;
    }
}
