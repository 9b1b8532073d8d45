package io.statecast.messagestore.spec;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What a service promises its applications, as its spec declares in {@code <Promises>}: the
 * properties a test harness, the demo's verdict or an operator may hold its deliveries to. The
 * runtime does not enforce them; they state what the spec's machine is written to achieve.
 */
public enum Promise {
    /** Every message reaches the application of every node it is addressed to (reliable delivery). */
    EVERY_MESSAGE("every-message"),
    /** No application receives a message twice (at most once; with {@link #EVERY_MESSAGE}, exactly once). */
    NO_DUPLICATES("no-duplicates"),
    /** Each application receives one source's messages in the order that source sent them. */
    SOURCE_ORDER("source-order");

    private final String label;

    Promise(String label) {
        this.label = label;
    }

    /** As written in {@code <Promises>}. */
    public String label() {
        return label;
    }

    /** The promise written {@code text}, or {@code null}. */
    public static Promise ofLabel(String text) {
        for (Promise p : values()) {
            if (p.label.equals(text)) {
                return p;
            }
        }
        return null;
    }

    /** Every label, for error messages. */
    public static String labels() {
        return Arrays.stream(values()).map(Promise::label).collect(Collectors.joining(", "));
    }
}
