package io.statecast.messagestore.tools.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.support.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the runner reports: calls with parameters, the differences, and what it did with each input. */
class ScenarioRunnerTest {

    private static final ServiceSpec ACK = Specs.load("specs/ack-service.scxml");
    private static final ServiceSpec H2H = Specs.load("specs/blueprint-h2h.scxml");

    private static ScenarioResult run(ServiceSpec spec, String yaml) throws ScenarioException {
        return new ScenarioRunner().run(spec, ScenarioReader.read(yaml, false, "s.yaml", spec, ScenarioLimits.DEFAULTS));
    }

    @Test
    void shouldShowExpectedAgainstActualCallsWhenAStepFails() throws Exception {
        ScenarioResult r = run(ACK, """
                scenario: wrong on purpose
                node: {address: 3}
                steps:
                  - receive: {source: 1, destination: 3, previousHop: 2, id: 7, payload: hi}
                    expect:
                      - sendControlMessage: {type: 2, destination: 1}
                      - setTimer: {timer: linger}
                    state: waiting
                    terminated: true
                    timers: [retry]
                  - advance: 1s
                    expect: []
                """);
        assertFalse(r.passed());
        StepResult first = r.steps().get(0);
        assertEquals(List.of(
                "sendControlMessage(type=2, id=7, mode=unicast, destination=2, at=0)",
                "toApplication(type=128, id=7, mode=unicast, source=1, destination=3, previousHop=2, hopLimit=250, "
                        + "payload=hi, at=0)",
                "setTimer(timer=linger, delay=1000, at=0)"), first.calls().stream().map(Object::toString).toList());
        assertEquals(List.of("""
                calls differ:
                    - sendControlMessage(type=2, destination=1)   (expected, line 6)
                    + sendControlMessage(type=2, id=7, mode=unicast, destination=2, at=0)   (not expected)
                    + toApplication(type=128, id=7, mode=unicast, source=1, destination=3, previousHop=2, \
                hopLimit=250, payload=hi, at=0)   (not expected)
                    = setTimer(timer=linger, delay=1000, at=0)""",
                "state: expected [waiting], actual [done]",
                "terminated: expected true, actual false",
                "timers set: expected [retry], actual [linger]"), first.failures());
        StepResult second = r.steps().get(1);
        assertTrue(second.passed(), "steps go on after a failure: " + second.failures());
        assertTrue(second.terminated());
        String report = ScenarioReport.format(r, false);
        assertTrue(report.startsWith("s.yaml: wrong on purpose\n  FAIL  step 1 (line 4) receive -> t=0ms\n"), report);
        assertTrue(report.contains("  ok    step 2 (line 11) advance 1000ms -> t=1000ms\n"), report);
        assertTrue(report.endsWith("FAIL 1 of 2 steps failed\n"), report);
    }

    /** A scenario gives messages fields and expects fields of the calls; only the fields written are compared. */
    @Test
    void shouldReceiveAndExpectMessageFields() throws Exception {
        ServiceSpec ack = Specs.parse("""
                <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                       xmlns:action="http://my.custom-actions.domain/action" initialstate="s">
                  <datamodel>
                    <data name="service"><ServiceName>sack</ServiceName><ServiceID>90</ServiceID>
                      <DeliveryMode>unicast</DeliveryMode><Scope>flow</Scope></data>
                    <data name="events"><Basic>
                      <Event name="data"><Message><MessageType>0x80</MessageType></Message></Event>
                    </Basic></data>
                  </datamodel>
                  <state id="s">
                    <transition event="data">
                      <action:create name="sendControlMessage"/>
                      <action:set name="sendControlMessage" field="Message/DeliveryMode" value="unicast"/>
                      <action:set name="sendControlMessage" field="Message/DestinationAddress" value="1"/>
                      <action:set name="sendControlMessage" field="Message/MessageType" value="2"/>
                      <action:set name="sendControlMessage" field="Message/Fields/sack" type="ranges"
                          xpath="/HistoryOfEvents/Event[@name='data']/Message/Fields/Field[@name='seq']"/>
                      <action:set name="sendControlMessage" field="Message/Fields/note" type="string"
                          xpath="/HistoryOfEvents/Event[@name='data'][last()]/Message/Fields/Field[@name='note']"/>
                      <action:execute name="sendControlMessage"/>
                    </transition>
                  </state>
                </scxml>""");
        ScenarioResult r = run(ack, """
                scenario: selective acknowledgements
                node: {address: 3}
                defaults: {source: 1, destination: 3}
                steps:
                  - receive: {fields: {seq: 4, note: {string: first}}}
                    expect:
                      - sendControlMessage: {type: 2, fields: {sack: {ranges: "4"}, note: {string: first}}}
                  - receive: [{fields: {seq: 6}}, {fields: {seq: 5, note: {string: "a b"}}}]
                    expect:
                      - sendControlMessage: {fields: {sack: {ranges: "4 6"}}}
                      - sendControlMessage: {fields: {sack: {ranges: "4-6"}, note: {string: "a b"}}}
                """);
        assertTrue(r.passed(), () -> ScenarioReport.format(r, true));
        assertEquals("sendControlMessage(type=2, id=1000000, mode=unicast, destination=1, fields.note=first, "
                + "fields.sack=4-4, at=0)", r.steps().get(0).calls().get(0).toString().replace("1000001", "1000000"));
        ScenarioException bad = org.junit.jupiter.api.Assertions.assertThrows(ScenarioException.class, () -> run(ack, """
                scenario: bad field
                node: {address: 3}
                steps:
                  - receive: {source: 1, destination: 3, fields: {9x: 1}}
                """));
        assertTrue(bad.getMessage().contains("s.yaml:4") && bad.getMessage().contains("must be a letter"), bad.getMessage());
    }

    /**
     * Expression scope: the instance is the stream's, whichever source sends to it; another
     * stream's message belongs to another instance; a message without the field to none.
     */
    @Test
    void shouldKeyByTheScopeKeysValue() throws Exception {
        ServiceSpec streams = Specs.parse("""
                <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                       xmlns:action="http://my.custom-actions.domain/action" initialstate="s">
                  <datamodel>
                    <data name="service"><ServiceName>streams</ServiceName><ServiceID>91</ServiceID>
                      <DeliveryMode>unicast</DeliveryMode><Scope>expression</Scope>
                      <ScopeKey>Fields/Field[@name='stream']</ScopeKey></data>
                    <data name="events"><Basic>
                      <Event name="data"><Message><MessageType>0x80</MessageType></Message></Event>
                    </Basic></data>
                  </datamodel>
                  <state id="s">
                    <transition event="data">
                      <action:create name="sendControlMessage"/>
                      <action:set name="sendControlMessage" field="Message/DeliveryMode" value="unicast"/>
                      <action:set name="sendControlMessage" field="Message/DestinationAddress" value="1"/>
                      <action:set name="sendControlMessage" field="Message/MessageType" value="2"/>
                      <action:set name="sendControlMessage" field="Message/Fields/sack" type="ranges"
                          xpath="/HistoryOfEvents/Event[@name='data']/Message/Fields/Field[@name='seq']"/>
                      <action:execute name="sendControlMessage"/>
                    </transition>
                  </state>
                </scxml>""");
        ScenarioResult r = run(streams, """
                scenario: one instance per stream
                node: {address: 3}
                defaults: {destination: 3}
                steps:
                  - receive: {source: 1, fields: {stream: {string: v}, seq: 4}}
                    expect:
                      - sendControlMessage: {fields: {sack: {ranges: "4"}}}
                  - receive: {source: 2, fields: {stream: {string: v}, seq: 5}}
                    expect:
                      - sendControlMessage: {fields: {sack: {ranges: "4-5"}}}
                  - receive: {source: 1, fields: {stream: {string: w}, seq: 6}}
                    expect: []
                  - receive: {source: 1, fields: {seq: 7}}
                    expect: []
                """);
        assertTrue(r.passed(), () -> ScenarioReport.format(r, true));
        assertTrue(r.steps().get(2).notes().get(0).contains("belongs to another instance (service 91 key 'w'"),
                r.steps().get(2).notes().toString());
        assertTrue(r.steps().get(3).notes().get(0).contains("the ScopeKey gives it no key"),
                r.steps().get(3).notes().toString());
    }

    @Test
    void shouldReportEveryMessageOfACallThatSelectsSeveral() throws Exception {
        // one toApplication and one forwardMessage whose XPath selects every held message, newest first
        ServiceSpec batch = Specs.parse("""
                <scxml version="1.0" xmlns="http://www.w3.org/2005/07/scxml"
                       xmlns:action="http://my.custom-actions.domain/action" initialstate="s">
                  <datamodel>
                    <data name="service">
                      <ServiceName>batch</ServiceName><ServiceID>89</ServiceID>
                      <DeliveryMode>multicast</DeliveryMode><Scope>flow</Scope>
                    </data>
                    <data name="metaops"><messageStoreWillForwardMessage>true</messageStoreWillForwardMessage></data>
                    <data name="events"><Basic>
                      <Event name="msg"><Message><MessageType>0x80</MessageType></Message></Event>
                      <Event name="flush"><Message><MessageType>1</MessageType></Message></Event>
                    </Basic></data>
                  </datamodel>
                  <state id="s">
                    <transition event="flush">
                      <action:create name="toApplication"/>
                      <action:set name="toApplication" field="Message" xpath="reverse(//Event[@name='msg']/Message)"/>
                      <action:execute name="toApplication"/>
                      <action:create name="toApplication"/>
                      <action:set name="toApplication" field="Message" xpath="//Event[@name='msg'][1]/Message"/>
                      <action:execute name="toApplication"/>
                      <action:create name="forwardMessage"/>
                      <action:set name="forwardMessage" field="Message" xpath="//Event[@name='msg']/Message"/>
                      <action:execute name="forwardMessage"/>
                    </transition>
                  </state>
                </scxml>
                """);
        ScenarioResult r = run(batch, """
                scenario: one call, several messages
                defaults: {source: 5}
                steps:
                  - receive: [{id: 1, payload: a}, {id: 2, payload: b}]
                    expect: []
                  - receive: {type: 1, id: 3}
                    expect:
                      - toApplication: {id: 2, payload: b}
                      - toApplication: {id: 1, payload: a}
                      - toApplication: {id: 1, payload: a}
                      - forwardMessage: {id: 1}
                      - forwardMessage: {id: 2}
                """);
        assertTrue(r.passed(), ScenarioReport.format(r, true));
        assertEquals(5, r.steps().get(1).calls().size());
    }

    @Test
    void shouldDropWhatANodeWouldDropAndSaySo() throws Exception {
        ScenarioResult r = run(ACK, """
                scenario: inputs a shard would not give this instance
                node: {address: 3}
                defaults: {source: 1, destination: 3, id: 7}
                steps:
                  - receive: {type: 9}
                    state: []
                  - receive: {serviceId: 41, payload: x}
                  - receive: {payload: first}
                    state: done
                  - receive: {id: 8, payload: other}
                  - fire: retry
                  - advance: 1s
                    terminated: true
                  - receive: {payload: late}
                    expect: []
                """);
        assertEquals(List.of("message (line 5) matches no event: dropped, no instance created"), r.steps().get(0).notes());
        assertTrue(r.steps().get(1).notes().get(0).contains("is for ServiceID 41, not this service's 42"));
        assertEquals(List.of("instance service 42 message 7 from #1 created", "message (line 8) fires data"),
                r.steps().get(2).notes());
        assertTrue(r.steps().get(3).notes().get(0).contains("belongs to another instance (service 42 message 8"));
        assertEquals(List.of("fire: timer retry is not set"), r.steps().get(4).failures());
        assertEquals(List.of("message (line 14) arrived after the instance ended: dropped"), r.steps().get(6).notes());
        assertTrue(r.steps().get(6).passed());
    }

    @Test
    void shouldRecordNodeInformationAndTopologyChanges() throws Exception {
        ScenarioResult r = run(H2H, """
                scenario: updateNodeInfo sees the node as configured, per tree
                node: {address: 9, parent: 5, children: [2, 3], trees: {"200": {parent: 3, children: []}}}
                ignore: [setTimer]
                steps:
                  - receive: {source: 100, previousHop: 5, id: 1}
                    expect:
                      - sendControlMessage: {type: 2, destination: 5}
                      - toApplication
                      - updateNodeInfo: {parent: 5, children: [2, 3], neighbours: [2, 3, 5]}
                """);
        assertTrue(r.passed(), () -> ScenarioReport.format(r, true));
        ScenarioResult other = run(H2H, """
                scenario: another tree, then a topology change
                node: {address: 9, parent: 5, children: [2, 3], trees: {"200": {parent: 3, children: []}}}
                ignore: [setTimer, sendControlMessage, toApplication]
                steps:
                  - topology: {parent: 6, children: [4], trees: {"200": {parent: 3}}}
                  - receive: {source: 200, previousHop: 3, id: 1}
                    expect:
                      - updateNodeInfo: {parent: 3, children: [], neighbours: [3, 4, 6]}
                """);
        assertTrue(other.passed(), () -> ScenarioReport.format(other, true));
    }

    @Test
    void shouldFailAScenarioWhoseParametersTheSpecRefuses() throws Exception {
        ScenarioResult r = run(ACK, "scenario: x\nparameters: {Retry: 9000h}\nsteps: [{}]");
        assertFalse(r.passed());
        assertTrue(r.error().startsWith("parameters: "), r.error());
        assertTrue(ScenarioReport.format(r, false).endsWith("FAIL (did not run)\n"));
    }

    @Test
    void shouldStopASpecThatKeepsCallingPrimitives() throws Exception {
        ServiceSpec loop = Specs.load("specs/loop-sender.scxml");
        String yaml = "scenario: a timer loop\nsteps:\n  - receive: {source: 1}\n  - advance: 1h\n  - advance: 1s\n";
        ScenarioResult r = new ScenarioRunner(new ScenarioLimits(1 << 20, 1000, 100, 500, 86_400_000L))
                .run(loop, ScenarioReader.read(yaml, false, "s.yaml", loop, ScenarioLimits.DEFAULTS));
        assertFalse(r.passed());
        assertEquals(2, r.steps().size(), "the scenario stops at the step that ran away");
        assertTrue(r.steps().get(1).failures().stream().anyMatch(f -> f.startsWith(
                "the spec made more than 500 primitive calls in one step; stopped at t=")), r.steps().get(1).failures()::toString);
    }

    @Test
    void shouldWriteBinaryPayloadsAsBase64() {
        assertEquals("hi there", ScenarioRunner.payload("hi there".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertEquals("base64:AAE=", ScenarioRunner.payload(new byte[] {0, 1}));
        assertEquals("base64:/w==", ScenarioRunner.payload(new byte[] {(byte) 0xff}));
    }
}
