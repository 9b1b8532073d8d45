package io.statecast.messagestore.chart;

import java.math.BigDecimal;

/** The CSS2 time values {@code <send delay>} takes: {@code 500ms}, {@code 1.5s}. */
final class Delays {

    /** Longest delay accepted: a day. */
    static final long MAX_DELAY_MILLIS = 86_400_000L;

    private Delays() {
    }

    /** Milliseconds of {@code text}; a bare number is milliseconds. */
    static long parse(String text, String where) throws ChartError {
        String t = text == null ? "" : text.trim();
        BigDecimal scale;
        String number;
        if (t.endsWith("ms")) {
            number = t.substring(0, t.length() - 2);
            scale = BigDecimal.ONE;
        } else if (t.endsWith("s")) {
            number = t.substring(0, t.length() - 1);
            scale = BigDecimal.valueOf(1000);
        } else {
            number = t;
            scale = BigDecimal.ONE;
        }
        try {
            if (number.isEmpty() || !number.matches("\\d*\\.?\\d+")) {
                throw new NumberFormatException();
            }
            BigDecimal ms = new BigDecimal(number).multiply(scale);
            if (ms.compareTo(BigDecimal.valueOf(MAX_DELAY_MILLIS)) > 0) {
                throw new ChartError("delay '" + text + "' is longer than a day (" + where + ")");
            }
            return ms.longValue();
        } catch (NumberFormatException e) {
            throw new ChartError("delay '" + text + "' is not a time such as 500ms or 1.5s (" + where + ")");
        }
    }
}
