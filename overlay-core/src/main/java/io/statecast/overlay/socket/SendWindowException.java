package io.statecast.overlay.socket;

/**
 * A send of a windowed service's message found no room in the send window
 * ({@code overlay.sendWindow}) within {@code maxWaitMs}, or was interrupted while waiting (then
 * the thread's interrupt flag is set again). The message was not sent; sending it again later is
 * safe. Unchecked, like the socket's other send failures: a sender that never overruns its peers
 * never sees it.
 */
public final class SendWindowException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int serviceId;
    private final int window;
    private final int inFlight;
    private final long waitedMs;
    private final boolean interrupted;

    /**
     * @param serviceId   the message's ServiceID
     * @param window      the effective window (the configured one, or its AIMD value)
     * @param inFlight    own messages of the service in flight when the send gave up
     * @param instanceRoom whether the store had room for another instance then
     * @param waitedMs    how long the send waited
     * @param interrupted whether the wait ended by an interrupt rather than by the deadline
     */
    public SendWindowException(int serviceId, int window, int inFlight, boolean instanceRoom, long waitedMs,
            boolean interrupted) {
        super((interrupted ? "interrupted after waiting " + waitedMs + " ms" : "no room after " + waitedMs + " ms")
                + " for the send window of ServiceID " + serviceId + ": " + inFlight + " own messages in flight, window "
                + window + (instanceRoom ? "" : ", and the MessageStore is at its live-instance limit")
                + " (overlay.sendWindow; the receivers do not acknowledge fast enough, or at all)");
        this.serviceId = serviceId;
        this.window = window;
        this.inFlight = inFlight;
        this.waitedMs = waitedMs;
        this.interrupted = interrupted;
    }

    /** The message's ServiceID. */
    public int serviceId() {
        return serviceId;
    }

    /** The configured window. */
    public int window() {
        return window;
    }

    /** Own messages of the service in flight when the send gave up. */
    public int inFlight() {
        return inFlight;
    }

    /** How long the send waited, in milliseconds. */
    public long waitedMs() {
        return waitedMs;
    }

    /** Whether an interrupt, not the deadline, ended the wait. */
    public boolean interrupted() {
        return interrupted;
    }
}
