package io.statecast.examples.ttcp;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** Reads {@code --service}: a ServiceID, or {@code none} for best-effort delivery. */
final class TtcpServices {

    private TtcpServices() {
    }

    /** @return the ServiceID, or {@code null} for {@code none} */
    static Integer parse(String text, CommandLine cl) {
        if (text == null || text.equalsIgnoreCase("none")) {
            return null;
        }
        try {
            int id = Integer.parseInt(text.trim());
            if (id < 0) {
                throw new ParameterException(cl, "--service=" + text + " must be a non-negative ServiceID or 'none'");
            }
            return id;
        } catch (NumberFormatException e) {
            throw new ParameterException(cl, "--service=" + text + " must be a ServiceID (a non-negative integer) or 'none'");
        }
    }
}
