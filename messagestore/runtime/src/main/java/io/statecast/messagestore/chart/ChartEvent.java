package io.statecast.messagestore.chart;

import org.w3c.dom.Element;

/**
 * An event as a chart sees it in {@code _event}.
 *
 * @param name       the event's name (dot-separated tokens)
 * @param type       platform, internal or external
 * @param sendId     the {@code sendid}, or {@code null}
 * @param origin     where to reply, or {@code null}
 * @param originType the I/O processor of {@code origin}, or {@code null}
 * @param invokeId   the invocation it came from, or {@code null}
 * @param data       a detached {@code <data>} element whose children are the payload, or {@code null}
 */
public record ChartEvent(String name, Type type, String sendId, String origin, String originType,
        String invokeId, Element data) {

    /** The Recommendation's event types. */
    public enum Type {
        /** Raised by the processor itself ({@code error.*}, {@code done.*}). */
        PLATFORM,
        /** Raised by {@code <raise>} or {@code <send target="#_internal">}. */
        INTERNAL,
        /** Arrived from outside, or by {@code <send>}. */
        EXTERNAL;

        /** As {@code _event/type} shows it. */
        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** An external event with a name only. */
    public static ChartEvent external(String name) {
        return new ChartEvent(name, Type.EXTERNAL, null, null, null, null, null);
    }

    static ChartEvent internal(String name) {
        return new ChartEvent(name, Type.INTERNAL, null, null, null, null, null);
    }

    static ChartEvent platform(String name, String sendId, Element data) {
        return new ChartEvent(name, Type.PLATFORM, sendId, null, null, null, data);
    }
}
