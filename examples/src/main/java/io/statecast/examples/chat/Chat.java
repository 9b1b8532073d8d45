package io.statecast.examples.chat;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlaySocket;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A chat over an overlay: every line typed is multicast to every node; every message received is
 * printed with its sender. Shows the whole socket API: load a configuration, create a socket,
 * receive by callback, join, multicast, unicast, read the topology, statistics, leave.
 *
 * <pre>
 *   statecast chat --config first.yaml      (buddies: [])
 *   statecast chat --config second.yaml     (buddies: ["udp://127.0.0.1:PORT-OF-FIRST"])
 * </pre>
 * Commands: {@code /to ID text} sends to one node, {@code /who} shows neighbours and the tree,
 * {@code /stats} prints counters, {@code /quit} (or end of input) leaves.
 */
public final class Chat {

    private Chat() {
    }

    /**
     * Runs a chat node until end of input.
     *
     * @param config the overlay configuration file (.yaml or .json)
     * @param out    where messages and status go
     * @return 0 on a clean exit
     */
    public static int run(Path config, PrintStream out) throws Exception {
        OverlayConfig cfg = OverlayConfig.load(config);
        try (OverlaySocket socket = OverlaySocket.create(cfg)) {
            // callbacks run on the socket's delivery thread, never on an I/O thread
            socket.onMessage(m -> out.println(format(m)));
            out.println("joining overlay '" + cfg.id() + "' as " + socket.localAddress() + " at " + socket.substrateAddresses());
            socket.join();
            out.println("joined: " + socket.state() + ", neighbours " + socket.neighbours());
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null && !line.equals("/quit"); line = in.readLine()) {
                if (line.startsWith("/to ")) {
                    String[] parts = line.split(" ", 3);
                    LogicalAddress to;
                    try {
                        to = cfg.parseAddress(parts[1]);
                    } catch (IllegalArgumentException e) {
                        // a typo in a command is the user's to fix, not the end of the chat
                        out.println("/to " + parts[1] + ": " + e.getMessage() + " (usage: /to ID text)");
                        continue;
                    }
                    socket.sendTo(to, bytes(parts.length > 2 ? parts[2] : ""));
                } else if (line.equals("/who")) {
                    LogicalAddress self = socket.localAddress();
                    out.println(self + " " + socket.state() + ": neighbours " + socket.neighbours()
                            + ", children in my tree " + socket.children(self) + "; " + socket.topology());
                } else if (line.equals("/stats")) {
                    out.println(socket.statistics());
                } else if (!line.isBlank()) {
                    socket.sendToAll(bytes(line));
                }
            }
            socket.leave();
        }
        return 0;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String format(OverlayMessage m) {
        String text = m.payload() == null ? "" : new String(m.payload(), StandardCharsets.UTF_8);
        return "[" + m.source() + (m.destination() != null ? " to you" : "") + "] " + text;
    }

    /**
     * Runs with the configuration file given as the only argument.
     *
     * @param args {@code CONFIG_FILE}
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: Chat CONFIG_FILE");
            System.exit(2);
        }
        System.exit(run(Path.of(args[0]), System.out));
    }
}
