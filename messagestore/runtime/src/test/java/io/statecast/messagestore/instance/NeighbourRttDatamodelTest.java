package io.statecast.messagestore.instance;

import io.statecast.messagestore.support.Keys;
import static io.statecast.messagestore.support.Messages.a;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.overlay.testkit.RecordingOverlay.ToApplication;
import io.statecast.messagestore.support.Specs;
import io.statecast.overlay.node.FixedTopology;
import io.statecast.messagestore.support.TestEnvironment;
import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.node.RttEstimate;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.sf.saxon.s9api.XdmAtomicValue;
import net.sf.saxon.s9api.XdmMap;
import org.junit.jupiter.api.Test;

/**
 * {@code $_x?rtt} and {@code $_x?rttvar}: each measured neighbour's round-trip time as the
 * overlay reports it, read by a spec's conditions and assignments.
 */
class NeighbourRttDatamodelTest {

    /**
     * Delivers a message only while neighbour 2's RTT is known and above 50 ms with little
     * variation (remembering it in $srtt), or once $srtt holds exactly what was read.
     */
    private static final String SPEC = """
            <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                   xmlns:action="http://my.custom-actions.domain/action" initial="s" datamodel="xpath">
              <datamodel>
                <data name="service"><ServiceName>rtt</ServiceName><ServiceID>41</ServiceID>
                  <DeliveryMode>multicast</DeliveryMode></data>
                <data name="events"><Basic>
                  <Event name="msg"><Message><MessageKind>data</MessageKind></Message></Event>
                </Basic></data>
                <data id="srtt" expr="-1"/>
              </datamodel>
              <state id="s">
                <transition event="msg" cond="$srtt &lt; 0 and $_x?rtt?('2') &gt; 50 and $_x?rttvar?('2') &lt; 4
                    and empty($_x?rtt?('3')) and count($_x?neighbours[exists($_x?rtt?(.))]) = 1">
                  <assign location="$srtt" expr="$_x?rtt?('2')"/>
                  <action:create name="toApplication"/>
                  <action:set name="toApplication" field="Message" xpath="/HistoryOfEvents/Event[@name='msg'][last()]/Message"/>
                  <action:execute name="toApplication"/>
                </transition>
                <transition event="msg" cond="$srtt = 50.5">
                  <action:create name="toApplication"/>
                  <action:set name="toApplication" field="Message" xpath="/HistoryOfEvents/Event[@name='msg'][last()]/Message"/>
                  <action:execute name="toApplication"/>
                </transition>
                <transition event="msg"/>
              </state>
            </scxml>""";

    private final VirtualTimerService clock = new VirtualTimerService();
    private final RecordingOverlay overlay = new RecordingOverlay(a(1), clock,
            new FixedTopology(a(1)).tree(a(9), a(9), a(2), a(3)));

    /**
     * The compiled subset reads {@code $_x} through the instance without building the map: on
     * random estimates (seeded, printed) every entry, lookup and map's values must equal the map's.
     */
    @Test
    void shouldAnswerTheSubsetsReadsOfPlatformAsTheMapHoldsThem() throws Exception {
        long seed = Long.getLong("rtt.seed", System.nanoTime());
        java.util.Random rnd = new java.util.Random(seed);
        ServiceInstance i = instance();
        for (int round = 0; round < 200; round++) {
            for (int n : new int[] {2, 3, 9}) {
                overlay.rtt(a(n), rnd.nextInt(4) == 0 ? null
                        : new RttEstimate(rnd.nextInt(200_000) + rnd.nextDouble(), rnd.nextInt(50_000) + rnd.nextDouble(), 1));
            }
            clock.advanceBy(rnd.nextInt(20), java.util.concurrent.TimeUnit.MILLISECONDS);
            String where = "seed " + seed + " (-Drtt.seed=" + seed + "), round " + round;
            var map = i.platform();
            for (String key : new String[] {"address", "time", "nokey", "history", "neighbours", "rtt"}) {
                Object expected = io.statecast.messagestore.chart.PlatformEntries.entry(map, key);
                Object actual = i.platformEntry(key);
                // a host may leave to Saxon what the map holds as one item; otherwise the same value
                if (actual != io.statecast.messagestore.chart.PlatformEntries.NOT_ATOMIC) {
                    assertEquals(expected, actual, key + ", " + where);
                }
            }
            for (String m : new String[] {"rtt", "rttvar", "rto", "address"}) {
                for (String key : new String[] {"2", "3", "9", "4", ""}) {
                    assertEquals(io.statecast.messagestore.chart.PlatformEntries.lookup(map, m, key),
                            i.platformLookup(m, key), m + "?(" + key + "), " + where);
                }
                Object[] expected = io.statecast.messagestore.chart.PlatformEntries.values(map, m);
                Object[] actual = i.platformValues(m);
                // a map's values come in no particular order: compare them sorted
                assertEquals(sorted(expected), sorted(actual), m + "?*, " + where);
            }
        }
    }

    private static List<String> sorted(Object[] values) {
        return values == null ? null : java.util.Arrays.stream(values).map(String::valueOf).sorted().toList();
    }

    private ServiceInstance instance() throws Exception {
        ServiceSpec s = Specs.parse(SPEC);
        ServiceInstance i = new ServiceInstance(Keys.message(41, 7), new ServiceRuntime(s),
                new TestEnvironment(overlay, InstanceLimits.DEFAULTS));
        i.start();
        return i;
    }

    private List<String> delivered(ServiceInstance i, String... texts) throws Exception {
        ServiceSpec s = i.spec();
        for (String t : texts) {
            OverlayMessage m = Messages.payload(41, 7, 9, 9, t);
            i.onMessage(m, s.matchMessage(m, a(1)));
        }
        return overlay.drain().stream().filter(ToApplication.class::isInstance)
                .map(c -> new String(((ToApplication) c).message().payload(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void shouldLetAConditionAndAnAssignmentReadANeighboursRtt() throws Exception {
        overlay.rtt(a(2), new RttEstimate(50_500, 3_250, 4));
        ServiceInstance i = instance();
        assertEquals(List.of("first"), delivered(i, "first"), "passes on 50.5 ms > 50 and 3.25 ms < 4");
        overlay.rtt(a(2), new RttEstimate(70_000, 1_000, 5));
        assertEquals(List.of("second"), delivered(i, "second"), "passes because $srtt kept 50.5 (not the 70 now measured)");
        overlay.rtt(a(2), new RttEstimate(50_500, 1_000, 6));
        assertEquals(List.of("third"), delivered(i, "third"), "still 50.5 in $srtt");
    }

    @Test
    void shouldLeaveANeighbourWithoutASampleOutOfTheMap() throws Exception {
        ServiceInstance i = instance();
        assertEquals(List.of(), delivered(i, "unknown"), "no RTT for 2: $_x?rtt?('2') is empty, the condition false");
        overlay.rtt(a(2), new RttEstimate(40_000, 1_000, 9));
        assertEquals(List.of(), delivered(i, "fast"), "40 ms is not above 50");
        overlay.rtt(a(2), new RttEstimate(60_000, 1_000, 10));
        overlay.rtt(a(3), new RttEstimate(60_000, 1_000, 10));
        assertEquals(List.of(), delivered(i, "both"), "3 measured too: the condition wants it unknown");
        overlay.rtt(a(3), null);
        assertEquals(List.of("slow"), delivered(i, "slow"));
    }

    @Test
    void shouldComputeARetransmissionTimeoutAsSpecFormatShowsIt() throws Exception {
        String spec = SPEC.replace("<data id=\"srtt\" expr=\"-1\"/>", "<data id=\"srtt\" expr=\"-1\"/><data id=\"rto\" expr=\"1000\"/>")
                .replace("<transition event=\"msg\" cond=\"$srtt &lt; 0", "<transition event=\"msg\" cond=\"exists($_x?rtt?('2'))"
                        + " and $rto = 1000\"><assign location=\"$rto\" expr=\"max((200, $_x?rtt?('2') + 4 * $_x?rttvar?('2')))\"/>"
                        + "</transition><transition event=\"msg\" cond=\"$rto = 260 and $srtt &lt; 0");
        ServiceSpec s = Specs.parse(spec);
        ServiceInstance i = new ServiceInstance(Keys.message(41, 7), new ServiceRuntime(s),
                new TestEnvironment(overlay, InstanceLimits.DEFAULTS));
        i.start();
        overlay.rtt(a(2), new RttEstimate(250_000, 2_500, 3));
        assertEquals(List.of("second"), delivered(i, "first", "second"),
                "the first sets $rto = 250 + 4 * 2.5; the second, seeing 260, passes the old condition");
    }

    @Test
    void shouldKeyTheMapsByTheAddressAsWrittenInSpecs() throws Exception {
        DtAddress self = new DtAddress(0, 0);
        DtAddress near = new DtAddress(10, -3);
        DtAddress far = new DtAddress(-7, 4);
        RecordingOverlay dt = new RecordingOverlay(self, clock, new FixedTopology(self).tree(self, null, near, far));
        dt.rtt(near, new RttEstimate(1_250, 500, 2));
        XdmMap x = (XdmMap) PlatformVariables.of(null, dt, 0);
        assertEquals("0,0", x.get("address").toString());
        XdmMap rtt = (XdmMap) x.get("rtt");
        XdmMap rttvar = (XdmMap) x.get("rttvar");
        assertEquals(1, rtt.mapSize(), "only the neighbour with a sample: " + rtt);
        XdmAtomicValue srtt = (XdmAtomicValue) rtt.get("10,-3");
        assertEquals("xs:double", srtt.getPrimitiveTypeName().getEQName().replace("Q{http://www.w3.org/2001/XMLSchema}", "xs:"));
        assertEquals(1.25, srtt.getDoubleValue());
        assertEquals(0.5, ((XdmAtomicValue) rttvar.get("10,-3")).getDoubleValue());
        assertTrue(x.get("neighbours").stream().map(Object::toString).toList().containsAll(List.of("10,-3", "-7,4")),
                "neighbours are written the same way: " + x.get("neighbours"));
    }
}
