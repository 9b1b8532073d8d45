package io.statecast.overlay.socket;

/**
 * The one checked exception of configuration loading: the file or text is not a valid overlay
 * configuration. The message starts with the path of the offending field
 * ({@code overlay.heartbeat.timeoutMs=100 must be >= 5 x slowHeartbeatMs=250}).
 */
public final class OverlayConfigException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String field;

    /**
     * @param field   dotted path of the field ({@code overlay.heartbeat.timeoutMs}), or {@code ""}
     *                when the problem is the document as a whole
     * @param message what is wrong, starting with the field
     */
    public OverlayConfigException(String field, String message) {
        super(message);
        this.field = field;
    }

    /**
     * @param field   dotted path of the field
     * @param message what is wrong
     * @param cause   the underlying parser error
     */
    public OverlayConfigException(String field, String message, Throwable cause) {
        super(message, cause);
        this.field = field;
    }

    /** Dotted path of the offending field, e.g. {@code overlay.buddies[2]}. */
    public String field() {
        return field;
    }
}
