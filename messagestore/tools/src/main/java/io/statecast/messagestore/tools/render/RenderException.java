package io.statecast.messagestore.tools.render;

/** A spec cannot be drawn within the limits of {@link RenderOptions}: the render boundary's one checked exception. */
public final class RenderException extends Exception {

    private static final long serialVersionUID = 1L;

    /** @param message what is too large, with the value and the limit */
    public RenderException(String message) {
        super(message);
    }
}
