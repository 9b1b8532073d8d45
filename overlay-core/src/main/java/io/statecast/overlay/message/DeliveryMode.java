package io.statecast.overlay.message;

/** How the forwarding engine moves an application message; the code is its wire value. */
public enum DeliveryMode {
    /** Up the tree rooted at the destination. */
    UNICAST(1),
    /** Down the tree rooted at the source. */
    MULTICAST(2),
    /** To every neighbour, with duplicate suppression. */
    FLOOD(3);

    private final int code;

    DeliveryMode(int code) {
        this.code = code;
    }

    /** The wire code. */
    public int code() {
        return code;
    }

    /** The mode with this wire code, or {@code null}. */
    public static DeliveryMode ofCode(int code) {
        return switch (code) {
            case 1 -> UNICAST;
            case 2 -> MULTICAST;
            case 3 -> FLOOD;
            default -> null;
        };
    }
}
