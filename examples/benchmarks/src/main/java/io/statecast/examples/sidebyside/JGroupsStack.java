package io.statecast.examples.sidebyside;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The JGroups protocol stack of the side-by-side run, as the XML that {@code new JChannel(InputStream)}
 * reads: JGroups' own {@code udp.xml} (UDP transport, NAKACK2 for multicast, UNICAST3 for
 * unicast, FD_ALL3 failure detection, STABLE, GMS, UFC/MFC credit flow control, FRAG2), with two
 * changes so that it runs on any loopback: IP multicast is off ({@code ip_mcast="false"}: a
 * multicast is one datagram per member, as the overlay's tree sends one per child) and members
 * find each other through a fixed list of ports ({@code TCPPING}) instead of multicast discovery.
 * The total-order variant adds {@code SEQUENCER} where JGroups' own {@code sequencer.xml} has it,
 * above the flow control and below FRAG2: a member forwards each multicast to the coordinator,
 * which multicasts it with its number (over NAKACK2), so every member delivers one order.
 */
public final class JGroupsStack {

    private JGroupsStack() {
    }

    /**
     * The stack of the member bound to {@code 127.0.0.1:port}, in a group whose members are bound to
     * {@code ports}.
     *
     * @param port  this member's UDP port
     * @param ports every member's UDP port (this one's included)
     */
    public static String xml(int port, List<Integer> ports) {
        return xml(port, ports, false);
    }

    /**
     * As {@link #xml(int, List)}, with {@code SEQUENCER} (total order of every member's
     * multicasts) if {@code sequencer}.
     */
    public static String xml(int port, List<Integer> ports, boolean sequencer) {
        if (!ports.contains(port)) {
            throw new IllegalArgumentException("port " + port + " is not among the members' " + ports);
        }
        String hosts = ports.stream().map(p -> "127.0.0.1[" + p + "]").collect(Collectors.joining(","));
        return String.format(Locale.ROOT, """
                <config xmlns="urn:org:jgroups">
                  <UDP bind_addr="127.0.0.1" bind_port="%d" port_range="0" ip_mcast="false" diag.enabled="false"
                       bundler_type="pd" thread_pool.min_threads="0" thread_pool.max_threads="200"/>
                  <TCPPING initial_hosts="%s" port_range="0"/>
                  <MERGE3 max_interval="30s" min_interval="10s"/>
                  <FD_ALL3/>
                  <VERIFY_SUSPECT2 timeout="1.5s"/>
                  <pbcast.NAKACK2 xmit_interval="0.5s" use_mcast_xmit="false"/>
                  <UNICAST3 xmit_interval="0.5s"/>
                  <pbcast.STABLE desired_avg_gossip="50s" max_bytes="4M"/>
                  <pbcast.GMS print_local_addr="false" join_timeout="2s"/>
                  <UFC max_credits="4M" min_threshold="0.4"/>
                  <MFC max_credits="4M" min_threshold="0.4"/>
                  %s<FRAG2 frag_size="60K"/>
                </config>
                """, port, hosts, sequencer ? "<SEQUENCER/>\n  " : "");
    }
}
