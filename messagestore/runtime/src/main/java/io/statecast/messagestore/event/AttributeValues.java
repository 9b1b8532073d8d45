package io.statecast.messagestore.event;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.message.DeliveryMode;
import java.util.Locale;

/**
 * Parses the textual values specs use for message attributes. Each parser throws
 * {@link IllegalArgumentException} with a message that names the accepted forms.
 */
public final class AttributeValues {

    /** The filter keyword meaning "the address of the node evaluating the filter". */
    public static final String LOCAL = "local";

    private AttributeValues() {
    }

    /** {@code unicast}, {@code multicast} or {@code flood} (case-insensitive). */
    public static DeliveryMode deliveryMode(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "unicast" -> DeliveryMode.UNICAST;
            case "multicast" -> DeliveryMode.MULTICAST;
            case "flood" -> DeliveryMode.FLOOD;
            default -> throw new IllegalArgumentException("delivery mode must be unicast, multicast or flood, got '"
                    + text.strip() + "'" + (t.matches("-?[0-9]+")
                    ? " (numeric codes are refused: the blueprint's 1=multicast/3=unicast differ from the wire codes)"
                    : ""));
        };
    }

    /** The lower-case name of a delivery mode, as written in specs and in the history. */
    public static String name(DeliveryMode mode) {
        return mode.name().toLowerCase(Locale.ROOT);
    }

    /** One byte written signed (-128..127), unsigned (0..255) or as hex (0x00..0xff). */
    public static byte byteValue(String text) {
        String t = text.strip();
        int v;
        try {
            if (t.startsWith("0x") || t.startsWith("0X")) {
                v = Integer.parseInt(t.substring(2), 16);
            } else {
                v = Integer.parseInt(t);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a message type is one byte (-128..255 or 0x00..0xff), got '" + t + "'");
        }
        if (v < -128 || v > 255) {
            throw new IllegalArgumentException("a message type is one byte (-128..255 or 0x00..0xff), got " + v);
        }
        return (byte) v;
    }

    /** A whole number within [min, max]; {@code what} names it in the message. */
    public static long longValue(String text, long min, long max, String what) {
        String t = text.strip();
        long v;
        try {
            v = Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be a whole number, got '" + t + "'");
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException(what + " must be within " + min + ".." + max + ", got " + v);
        }
        return v;
    }

    /**
     * A logical address: {@code x,y} for a Delaunay-triangulation overlay, a whole number for a
     * spanning-tree overlay. ({@link #LOCAL} is handled by callers that accept it.)
     */
    public static LogicalAddress address(String text) {
        String t = text.strip();
        int comma = t.indexOf(',');
        try {
            if (comma >= 0) {
                return new DtAddress(Integer.parseInt(t.substring(0, comma).strip()),
                        Integer.parseInt(t.substring(comma + 1).strip()));
            }
            return new TreeAddress(Long.parseLong(t));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a logical address is 'x,y' (Delaunay) or a whole number (tree), got '"
                    + t + "'");
        }
    }

    /** The textual form of an address, as written in specs and in the history. */
    public static String text(LogicalAddress address) {
        if (address instanceof DtAddress d) {
            return d.x() + "," + d.y();
        }
        return Long.toString(((TreeAddress) address).id());
    }
}
