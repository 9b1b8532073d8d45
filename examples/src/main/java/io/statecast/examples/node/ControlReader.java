package io.statecast.examples.node;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads control lines with a bound on their length: a line longer than {@link #maxBytes} is not
 * buffered but skipped to its end and reported as {@link #TOO_LONG}. Lines end with LF; a CR
 * before it is dropped; invalid UTF-8 becomes U+FFFD (the parser then rejects the command).
 */
final class ControlReader {

    /** Returned (by identity) for a line that exceeded the limit. */
    static final String TOO_LONG = new String("\0too-long");

    private final InputStream in;
    private final int maxBytes;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    ControlReader(InputStream in, int maxBytes) {
        this.in = new BufferedInputStream(in);
        this.maxBytes = maxBytes;
    }

    /** The next line, {@link #TOO_LONG}, or {@code null} at end of input. */
    String readLine() throws IOException {
        line.reset();
        boolean tooLong = false;
        boolean any = false;
        int b;
        while ((b = in.read()) >= 0) {
            any = true;
            if (b == '\n') {
                break;
            }
            if (tooLong) {
                continue;
            }
            if (line.size() >= maxBytes) {
                tooLong = true;
                line.reset();
                continue;
            }
            line.write(b);
        }
        if (!any) {
            return null;
        }
        if (tooLong) {
            return TOO_LONG;
        }
        String s = line.toString(StandardCharsets.UTF_8);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }
}
