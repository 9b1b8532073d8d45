package io.statecast.examples.sidebyside;

import io.statecast.examples.ttcp.TtcpCommand;
import java.io.PrintWriter;
import java.util.Arrays;
import picocli.CommandLine;

/**
 * The main class of a side-by-side cell's processes, started by {@link SideBySideCommand} with this
 * JVM's class path: {@code ttcp send|recv …} runs a Statecast node ({@link TtcpCommand}, as
 * {@code bin/statecast ttcp} does), {@code jgroups send|recv …} a JGroups member
 * ({@link JGroupsPeer}), {@code order jgroups|statecast …} a member of a total-order cell
 * ({@link OrderPeerCommand}). Exit status: 0 done, 1 failed, 2 bad arguments.
 */
public final class PeerMain {

    private PeerMain() {
    }

    /**
     * Runs one peer.
     *
     * @param args {@code ttcp send|recv ARGS…}, {@code jgroups send|recv ARGS…} ({@link JGroupsPeerCommand}) or
     *             {@code order jgroups|statecast ARGS…} ({@link OrderPeerCommand})
     */
    public static void main(String[] args) {
        // as bin/statecast does: Netty's sampled leak tracking costs a loaded node a few per cent
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            System.setProperty("io.netty.leakDetection.level", "disabled");
        }
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    static int run(String[] args, PrintWriter out, PrintWriter err) {
        if (args.length >= 1 && args[0].equals("ttcp")) {
            CommandLine cl = new CommandLine(new TtcpCommand()).setOut(out).setErr(err);
            return cl.execute(Arrays.copyOfRange(args, 1, args.length));
        }
        if (args.length >= 1 && args[0].equals("jgroups")) {
            CommandLine cl = new CommandLine(new JGroupsPeerCommand()).setOut(out).setErr(err)
                    .setCaseInsensitiveEnumValuesAllowed(true);
            return cl.execute(Arrays.copyOfRange(args, 1, args.length));
        }
        if (args.length >= 1 && args[0].equals("order")) {
            CommandLine cl = new CommandLine(new OrderPeerCommand()).setOut(out).setErr(err)
                    .setCaseInsensitiveEnumValuesAllowed(true);
            return cl.execute(Arrays.copyOfRange(args, 1, args.length));
        }
        err.println("usage: PeerMain ttcp send|recv ARGS… | jgroups send|recv ARGS… | order jgroups|statecast ARGS…");
        return 2;
    }
}
