package io.statecast.examples.node;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One command of the node process's control protocol (docs/node.md): a line of space-separated
 * tokens whose first token names the command.
 */
public sealed interface ControlCommand {

    /** Most messages one send command may ask for. */
    int MAX_COUNT = 1_000_000;
    /** Largest payload a send command may ask for (the socket's own limit may be lower). */
    int MAX_SIZE = 16 << 20;
    /** Tokens a {@code ping} may echo: short and harmless. */
    Pattern TOKEN = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
    /** Usage of every command, for {@code help} and for errors. */
    String USAGE = "send-all N SIZE [SERVICE] | send-to ADDRESS N SIZE [SERVICE] | flood N SIZE | stats | neighbours"
            + " | ping [TOKEN] | peers SERVICE | leave | quit | help";

    /**
     * {@code send-all N SIZE [SERVICE]}: multicast N checked payloads of SIZE bytes to every node,
     * marked with the ServiceID SERVICE when given (handled by the MessageStore), else best-effort.
     *
     * @param serviceId the ServiceID, or {@code null}
     */
    record SendAll(int count, int size, Integer serviceId) implements ControlCommand {
        /** Best-effort. */
        public SendAll(int count, int size) {
            this(count, size, null);
        }
    }

    /**
     * {@code send-to ADDRESS N SIZE [SERVICE]}: unicast N checked payloads to one node, marked with
     * the ServiceID SERVICE when given (as for {@link SendAll}), else best-effort.
     *
     * @param serviceId the ServiceID, or {@code null}
     */
    record SendTo(String destination, int count, int size, Integer serviceId) implements ControlCommand {
        /** Best-effort. */
        public SendTo(String destination, int count, int size) {
            this(destination, count, size, null);
        }
    }

    /** {@code flood N SIZE}: flood N checked payloads. */
    record Flood(int count, int size) implements ControlCommand {
    }

    /** {@code stats}: one {@code STATS <json>} line. */
    record Stats() implements ControlCommand {
    }

    /** {@code neighbours}: one {@code NEIGHBOURS} line. */
    record Neighbours() implements ControlCommand {
    }

    /** {@code ping [TOKEN]}: {@code PONG [TOKEN]}, once every earlier command is done. */
    record Ping(String token) implements ControlCommand {
    }

    /**
     * {@code peers SERVICE}: from now on, one {@code PEER ADDRESS UP|DOWN CAUSE} line per peer
     * event of the failure-detector service SERVICE (its reports with the default
     * {@code PeerEventTypes}); replies {@code PEERS SERVICE}.
     */
    record Peers(int serviceId) implements ControlCommand {
    }

    /** {@code leave}: leave the overlay, keep the process running. */
    record Leave() implements ControlCommand {
    }

    /** {@code quit}: leave, close and exit 0. */
    record Quit() implements ControlCommand {
    }

    /** {@code help}: one {@code HELP} line listing the commands. */
    record Help() implements ControlCommand {
    }

    /**
     * Parses one control line (without its line terminator).
     *
     * @throws ControlException if the line is not a command, naming what is wrong
     */
    static ControlCommand parse(String line) throws ControlException {
        String trimmed = line.strip();
        if (trimmed.isEmpty()) {
            throw new ControlException("empty command; commands: " + USAGE);
        }
        List<String> t = List.of(trimmed.split("\\s+"));
        String name = t.get(0).toLowerCase(Locale.ROOT);
        return switch (name) {
            case "send-all" -> {
                if (t.size() != 3 && t.size() != 4) {
                    throw new ControlException("usage: send-all N SIZE [SERVICE]");
                }
                yield new SendAll(count(t.get(1)), size(t.get(2)),
                        t.size() == 4 ? bounded("SERVICE", t.get(3), 0, Integer.MAX_VALUE) : null);
            }
            case "send-to" -> {
                if (t.size() != 4 && t.size() != 5) {
                    throw new ControlException("usage: send-to ADDRESS N SIZE [SERVICE]");
                }
                yield new SendTo(t.get(1), count(t.get(2)), size(t.get(3)),
                        t.size() == 5 ? bounded("SERVICE", t.get(4), 0, Integer.MAX_VALUE) : null);
            }
            case "flood" -> {
                arity(t, 3, "flood N SIZE");
                yield new Flood(count(t.get(1)), size(t.get(2)));
            }
            case "stats" -> simple(t, new Stats());
            case "peers" -> {
                arity(t, 2, "peers SERVICE");
                yield new Peers(bounded("SERVICE", t.get(1), 0, Integer.MAX_VALUE));
            }
            case "neighbours", "neighbors" -> simple(t, new Neighbours());
            case "leave" -> simple(t, new Leave());
            case "quit", "exit" -> simple(t, new Quit());
            case "help" -> simple(t, new Help());
            case "ping" -> {
                if (t.size() > 2) {
                    throw new ControlException("usage: ping [TOKEN]");
                }
                if (t.size() == 2 && !TOKEN.matcher(t.get(1)).matches()) {
                    throw new ControlException("ping token must match " + TOKEN.pattern());
                }
                yield new Ping(t.size() == 2 ? t.get(1) : null);
            }
            default -> throw new ControlException("unknown command '" + abbreviate(t.get(0)) + "'; commands: " + USAGE);
        };
    }

    private static ControlCommand simple(List<String> t, ControlCommand c) throws ControlException {
        arity(t, 1, t.get(0).toLowerCase(Locale.ROOT));
        return c;
    }

    private static void arity(List<String> t, int n, String usage) throws ControlException {
        if (t.size() != n) {
            throw new ControlException("usage: " + usage);
        }
    }

    private static int count(String s) throws ControlException {
        return bounded("N", s, 1, MAX_COUNT);
    }

    private static int size(String s) throws ControlException {
        return bounded("SIZE", s, CheckedPayload.MIN_BYTES, MAX_SIZE);
    }

    private static int bounded(String what, String s, int min, int max) throws ControlException {
        int v;
        try {
            v = Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new ControlException(what + "='" + abbreviate(s) + "' is not an integer");
        }
        if (v < min || v > max) {
            throw new ControlException(what + "=" + v + " must be within " + min + ".." + max);
        }
        return v;
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }
}
