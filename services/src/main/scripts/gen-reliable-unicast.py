#!/usr/bin/env python3
"""Writes services/src/main/resources/services/reliable-unicast.scxml.

The spec repeats a few long XPaths (the unacknowledged number, the SACK test, the run a receiver
can deliver) in actions and in conditions: written once here, they cannot drift apart. Edit this
file and run it from the repository root:  python3 services/src/main/scripts/gen-reliable-unicast.py
"""
import pathlib
from xml.sax.saxutils import quoteattr

OUT = pathlib.Path(__file__).resolve().parents[1] / "resources/services/reliable-unicast.scxml"

# ---------------------------------------------------------------- XPaths over the history
# H is the history's root element: in action XPaths the context is the history document, in the
# datamodel's expressions the document is $_x?history.
A_H = "/HistoryOfEvents"
C_H = "$_x?history/HistoryOfEvents"


# Every message in flight is among the first 64 keep and fresh entries (the window is at most 64
# and the entries are in sending order, the queued messages' behind them): a step reads only
# those, so its work does not grow with the messages the application has queued. Saxon stops a
# [position() le 64] or [1] walk there; a [last()] or an unbounded one would walk the queue.
WIN = 64


def keepw(h):
    return f"{h}/Event[@name='keep'][position() le {WIN}]"


def freshw(h):
    return f"{h}/Event[@name='fresh'][position() le {WIN}]"


def lost(h, base):
    """Sent messages (keep entries, numbered from base) the last ACK shows lost: not SACKed, at
    least $dthr below the highest SACKed number, not yet repaired once (a fresh twin). The
    ACK's fields are in $inAck, $inSack and $inHi (read once per ACK)."""
    return (f"let $R := tokenize(string($inSack), ' ')[. ne ''], "
            f"$F := {freshw(h)}/Message/MessageIdentifier "
            f"return {keepw(h)}[Message/MessageIdentifier = $F and "
            f"(let $s := {base} + position() - 1 return $s ge xs:integer($inAck) and $s + xs:integer($dthr) le xs:integer($inHi) and "
            f"not(some $r in $R satisfies (xs:integer(tokenize($r, '-')[1]) le $s "
            f"and $s le xs:integer(tokenize($r, '-')[last()]))))]")


def seq_of(h, message):
    """The number of a sent or sendable message: its place among the keep entries after $una."""
    return (f"xs:integer($una) + index-of(for $x in {keepw(h)} return string($x/Message/MessageIdentifier), "
            f"string({message}/Message/MessageIdentifier))[1] - 1")


# the connection's number, kept in $conn when the SYN-ACK arrives
CONN = "$conn"
# receiver: the anchor (the SYN, number -1, or the last message delivered) and the held messages
E_A = f"{A_H}/Event[@name=('syn','rdata')]"
E_C = f"{C_H}/Event[@name=('syn','rdata')]"
SEQ = "xs:integer(Message/Fields/Field[@name='seq'])"


def run(e):
    return (f"let $E := {e}, $s := sort(distinct-values(for $x in $E return xs:integer($x/Message/Fields/Field[@name='seq']))), "
            f"$run := $s[. eq $s[1] + position() - 1]")


# ---------------------------------------------------------------- XML helpers
def act(name, sets=(), indent=6):
    p = " " * indent
    out = [f'{p}<action:create name="{name}"/>']
    for s in sets:
        field, kind, val = s[0], s[1], s[2]
        typ = f' type="{s[3]}"' if len(s) > 3 else ""
        out.append(f'{p}<action:set name="{name}" field="{field}"{typ} {kind}={quoteattr(val)}/>')
    out.append(f'{p}<action:execute name="{name}"/>')
    return "\n".join(out)


def forget(xpath, indent=6):
    return act("forgetEvents", [("Events", "xpath", xpath)], indent)


def assign(var, expr, indent=6):
    return f'{" " * indent}<assign location="${var}" expr={quoteattr(expr)}/>'


def held(indent=6):
    """$held, the <InFlightCount>: the messages this sender holds, queued or unacknowledged."""
    return assign("held", "$unsent + $nextSeq - $una", indent)


def timer(eid, var, indent=6):
    p = " " * indent
    return (f'{p}<cancel sendid="{eid}"/>\n'
            f'{p}<send id="{eid}" event="{eid}" delayexpr={quoteattr(f"concat(string(round(${var})), {chr(39)}ms{chr(39)})")}/>')


def repeat(var, body, indent=6):
    """body $var times (at most 64): a <foreach> over literal bounds whose every item tests $var
    (the item variable is evaluated on Saxon, a few microseconds each), so the common few use a
    loop of 4 and none at all when $var is 0."""
    p = " " * indent
    loop = lambda n: (f'{p}  <foreach array="1 to {n}" item="i">\n'
                      f'{p}    <if cond="number($i) &lt;= number(${var})">\n{body}\n{p}    </if>\n{p}  </foreach>')
    return (f'{p}<if cond="${var} &gt; 0 and ${var} &lt;= 4">\n{loop(4)}\n'
            f'{p}<elseif cond="${var} &gt; 4"/>\n{loop(WIN)}\n{p}</if>')


def cancel(eid, indent=6):
    return f'{" " * indent}<cancel sendid="{eid}"/>'


# ---------------------------------------------------------------- pieces of the sender
SEND_SYN = act("sendControlMessage", [
    ("Message/DeliveryMode", "value", "unicast"),
    ("Message/DestinationAddress", "xpath", f"{A_H}/Event[@name='keep'][1]/Message/DestinationAddress"),
    ("Message/MessageType", "value", "1"),
    ("Message/Fields/conn", "xpath", f"{A_H}/Event[@name='keep'][1]/Message/MessageIdentifier"),
    ("Message/Fields/seq", "value", "-1"),
])

SEND_FIN = act("sendControlMessage", [
    ("Message/DeliveryMode", "value", "unicast"),
    ("Message/DestinationAddress", "xpath", f"{A_H}/Event[@name='synack'][last()]/Message/SourceAddress"),
    ("Message/MessageType", "value", "4"),
    ("Message/Fields/conn", "xpath", CONN),
], indent=8)

RTT_SAMPLE = "\n".join([
    assign("r", "$_x?time - $timedAt", 8),
    '        <if cond="$srtt &lt; 0">',
    assign("srtt", "$r", 10),
    assign("rttvar", "$r div 2", 10),
    '        <else/>',
    assign("rttvar", "0.75 * $rttvar + 0.25 * abs($srtt - $r)", 10),
    assign("srtt", "0.875 * $srtt + 0.125 * $r", 10),
    '        </if>',
    assign("minRtt", "if ($minRtt < 0 or number($r) < number($minRtt)) then $r else $minRtt", 8),
    assign("lastRtt", "$r", 8),
    # RFC 6298 (2.3): RTO = SRTT + max(G, 4 RTTVAR), G = 1 ms; floor MinRTO, cap MaxRTO
    assign("rto", "min(($MaxRTO, max(($MinRTO, $srtt + max((1, 4 * $rttvar))))))", 8),
    assign("timedSeq", "-1", 8),
])

PUMP = "\n".join([
    assign("k", "max((0, min(($unsent, min((floor($cwnd), $rwnd)) - ($nextSeq - $una)))))"),
    '      <if cond="$k &gt; 0 and $timedSeq &lt; 0">',
    assign("timedSeq", "$nextSeq", 8),
    assign("timedAt", "$_x?time", 8),
    '      </if>',
    repeat("k", act("sendDataMessage", [
        ("Message", "xpath", f"{A_H}/Event[@name='own'][1]/Message"),
        ("Message/Fields/seq", "xpath", seq_of(A_H, f"{A_H}/Event[@name='own'][1]")),
        ("Message/Fields/conn", "xpath", CONN),
    ], indent=12) + "\n" + forget(f"{A_H}/Event[@name='own'][1]", indent=12)),
    assign("nextSeq", "$nextSeq + $k"),
    assign("unsent", "$unsent - $k"),
    '      <if cond="$k &gt; 0 and $timerOn = 0">',
    timer("rto", "rto", 8),
    assign("timerOn", "1", 8),
    '      </if>',
    '      <if cond="number($nextSeq) = number($una) and $unsent = 0">',
    cancel("rto", 8),
    assign("timerOn", "0", 8),
    '        <cancel sendid="idle"/>',
    '        <send id="idle" event="idle" delayexpr="concat(string($IdleClose), \'ms\')"/>',
    '      </if>',
])

UNREACHABLE = "\n".join([
    act("toApplication", [
        ("Message", "xpath", f"{A_H}/Event[@name='keep']/Message"),
        ("Message/MessageType", "value", "6"),
    ], indent=8),
    # given back: the application's sends no longer wait for them
    assign("unsent", "0", 8),
    assign("held", "0", 8),
    act("terminate", [], indent=8),
])

# ---------------------------------------------------------------- the document
HEADER = '''<?xml version="1.0" encoding="UTF-8"?>
<!--
  reliable-unicast: a connection per (source, destination) with set-up (SYN / SYN-ACK) and
  teardown (FIN / FIN-ACK after IdleClose without traffic); the sender numbers its application's
  messages (field seq, per connection from 0) and keeps a send window (the smaller of its
  congestion window and the receiver's advertised window); the receiver acknowledges every data
  message with the next number it expects (ack), the numbers it holds above it (sack, ranges) and
  its free buffer (wnd), and delivers in order, exactly once. Selective repeat: a message the SACKs
  show lost is sent again once at once; the RTO (RFC 6298, Karn, back-off) sends the first
  unacknowledged one again; after MaxBackoffs back-offs the application gets every message it
  still holds back as type 6, "peer unreachable". The congestion window halves on a timeout, and
  on a loss only when the RTT has risen by CongestionDelay over the smallest seen and above its
  usual variation (queueing).
  One flow-peer instance holds both directions of a pair: region "sender" for this node's
  messages, region "receiver" for the peer's. The history is the per-message state: own (not yet
  sent), keep (not yet acknowledged), fresh (not yet repaired after a SACK), and at a receiver the
  anchor and the messages held behind a gap. See docs/services/reliable-unicast.md.
  GENERATED by services/src/main/scripts/gen-reliable-unicast.py (the XPaths repeat); edit that
  and run it.
-->
<scxml version="1.0"
       xmlns="http://www.w3.org/2005/07/scxml"
       xmlns:action="http://my.custom-actions.domain/action"
       initial="conn" datamodel="xpath">
  <datamodel>
    <data name="service">
      <ServiceName>reliable-unicast</ServiceName>
      <ServiceID>10</ServiceID>
      <DeliveryMode>unicast</DeliveryMode>
      <Scope>flow-peer</Scope>
      <Description>Reliable, ordered unicast per (source, destination): connection set-up and teardown, per-connection sequence numbers, cumulative and selective ACKs, receiver window, RFC 6298 RTO, a congestion window that ignores isolated random loss; the application hears of a peer that stays silent.</Description>
      <!-- the sender's queued and unacknowledged messages: its application's send waits while SendBuffer of them are -->
      <InFlightCount limit="SendBuffer">held</InFlightCount>
      <Promises>every-message no-duplicates source-order</Promises>
    </data>
    <data name="metaops">
      <messageStoreWillForwardMessage>true</messageStoreWillForwardMessage>
      <processIntermediateUnicastMessage>false</processIntermediateUnicastMessage>
    </data>
    <data name="parameters">
      <Parameter name="InitialWindow" type="integer" default="4">Congestion window of a new connection, in messages.</Parameter>
      <Parameter name="MaxWindow" type="integer" default="32">Largest congestion window, in messages (at most 64: a larger value counts as 64, as the sender reads only the first 64 of its unacknowledged messages in a step). The sender never has more than SendBuffer messages in flight either.</Parameter>
      <Parameter name="SendBuffer" type="integer" default="30">Most messages the sender holds, queued or not yet acknowledged: its application's send waits while it holds this many (the socket's send window, overlay.sendWindow, counts them). Its history holds three entries per message held, the receiving direction's RecvWindow and a few more: keep 3 SendBuffer + RecvWindow + 6 at most the store's historyEntries (128).</Parameter>
      <Parameter name="RecvWindow" type="integer" default="32">Messages a receiver holds behind a gap; it advertises what is free (wnd) and drops numbers beyond it.</Parameter>
      <Parameter name="InitialRTO" type="duration" default="1000">RTO before the first RTT sample (RFC 6298: 1 s).</Parameter>
      <Parameter name="MinRTO" type="duration" default="200">Lower bound of the RTO. RFC 6298 asks 1 s for the Internet; an overlay's round trips are milliseconds and its losses are repaired by SACK first, so a timeout is the rarer, second line: 200 ms, as Linux TCP.</Parameter>
      <Parameter name="MaxRTO" type="duration" default="60000">Upper bound of the RTO and of its back-off (RFC 6298: at least 60 s).</Parameter>
      <Parameter name="MaxBackoffs" type="integer" default="9">Consecutive timeouts without progress after which the peer counts as unreachable: the application gets its pending messages back as type 6 and the connection ends. With the defaults 9 is about 100 s (200 ms doubled nine times), RFC 1122's least time to give up on data, long enough for the overlay to repair a route.</Parameter>
      <Parameter name="DupThresh" type="integer" default="3">A message counts as lost when the receiver holds one numbered at least this much higher (RFC 6675's DupThresh, in numbers): smaller repairs sooner, larger tolerates more reordering.</Parameter>
      <Parameter name="CongestionDelay" type="duration" default="20">A loss halves the congestion window only if the last RTT sample exceeds the smallest by this much and SRTT + 2 RTTVAR (a queue is building); random loss on an idle path, or on a busy host whose round trips vary anyway, does not.</Parameter>
      <Parameter name="IdleClose" type="duration" default="5000">A connection with nothing in flight and nothing waiting closes (FIN) after this long.</Parameter>
    </data>
    <data name="events">
      <Basic>
        <!-- this node's application's message: three entries, one per role (see above) -->
        <Event name="own"><Message><MessageKind>data</MessageKind><SourceAddress>local</SourceAddress></Message></Event>
        <Event name="keep"><Message><MessageKind>data</MessageKind><SourceAddress>local</SourceAddress></Message></Event>
        <Event name="fresh"><Message><MessageKind>data</MessageKind><SourceAddress>local</SourceAddress></Message></Event>
        <Event name="rdata"><Message><MessageKind>data</MessageKind><DestinationAddress>local</DestinationAddress></Message></Event>
        <Event name="syn"><Message><MessageType>1</MessageType><DestinationAddress>local</DestinationAddress></Message></Event>
        <Event name="synack"><Message><MessageType>2</MessageType><DestinationAddress>local</DestinationAddress></Message></Event>
        <Event name="ack"><Message><MessageType>3</MessageType><DestinationAddress>local</DestinationAddress></Message></Event>
        <Event name="fin"><Message><MessageType>4</MessageType><DestinationAddress>local</DestinationAddress></Message></Event>
        <Event name="finack"><Message><MessageType>5</MessageType><DestinationAddress>local</DestinationAddress></Message></Event>
      </Basic>
    </data>
    <!-- sender -->
    <data id="cwnd" expr="$InitialWindow"/>
    <data id="ssthresh" expr="$MaxWindow"/>
    <data id="rwnd" expr="$RecvWindow"/>
    <data id="una" expr="0"/>
    <data id="nextSeq" expr="0"/>
    <data id="unsent" expr="0"/>
    <!-- unsent + nextSeq - una: the messages held, the service's <InFlightCount> -->
    <data id="held" expr="0"/>
    <data id="recover" expr="0"/>
    <data id="srtt" expr="-1"/>
    <data id="rttvar" expr="0"/>
    <data id="rto" expr="$InitialRTO"/>
    <data id="minRtt" expr="-1"/>
    <data id="lastRtt" expr="-1"/>
    <data id="backoffs" expr="0"/>
    <data id="timedSeq" expr="-1"/>
    <data id="timedAt" expr="0"/>
    <data id="timerOn" expr="0"/>
    <data id="k" expr="0"/>
    <data id="r" expr="0"/>
    <data id="n" expr="0"/>
    <data id="inAck" expr="0"/>
    <data id="nFast" expr="0"/>
    <data id="conn" expr="-1"/>
    <!-- the ACK being handled: its fields, read from the history once -->
    <data id="inLine" expr="''"/>
    <data id="inConn" expr="''"/>
    <data id="inSack" expr="''"/>
    <data id="inHi" expr="-1"/>
    <!-- DupThresh, lowered while fewer messages are in flight (RFC 5827's early retransmit) -->
    <data id="dthr" expr="$DupThresh"/>
    <!-- receiver -->
    <data id="rconn" expr="-1"/>
  </datamodel>
'''


def sender():
    ack_fields = f"{C_H}/Event[@name='ack'][last()]/Message/Fields"
    return f'''
  <parallel id="conn">
    <state id="sender" initial="closed">
      <!-- the twins of "own" mark a message's roles in the history; nothing to do on them -->
      <transition event="keep fresh"/>

      <state id="closed">
        <transition event="own" target="synsent"
            cond="exists({C_H}/Event[@name='own'][last()]/Message/DestinationAddress)">
{assign("unsent", "$unsent + 1", 10)}
{held(10)}
        </transition>
        <!-- a message with no destination (not a unicast: the store's warm start sends such)
             has no peer to open to -->
        <transition event="own">
{forget(f"{A_H}/Event[@name=('own','keep','fresh')]", 10)}
          <if cond="In('listen')">
{act("terminate", [], 12)}
          </if>
        </transition>
        <!-- a late answer to a connection that is gone: an instance it created ends at once -->
        <transition event="synack ack finack">
{forget(f"{A_H}/Event[@name=('synack','ack','finack')]", 10)}
          <if cond="In('listen')">
{act("terminate", [], 12)}
          </if>
        </transition>
      </state>

      <!-- SYN (conn = the MessageIdentifier of the first message) until a SYN-ACK -->
      <state id="synsent">
        <onentry>
{SEND_SYN}
{assign("timedAt", "$_x?time")}
{timer("rto", "rto")}
{assign("timerOn", "1")}
        </onentry>
        <transition event="own">
{assign("unsent", "$unsent + 1", 10)}
{held(10)}
        </transition>
        <transition event="synack" target="established"
            cond="string({C_H}/Event[@name='synack'][last()]/Message/Fields/Field[@name='conn']) = string({C_H}/Event[@name='keep'][1]/Message/MessageIdentifier)">
          <if cond="$backoffs = 0">
{RTT_SAMPLE}
          </if>
{assign("rwnd", f"({C_H}/Event[@name='synack'][last()]/Message/Fields/Field[@name='wnd'], $RecvWindow)[1]", 10)}
{assign("conn", f"string({C_H}/Event[@name='synack'][last()]/Message/Fields/Field[@name='conn'])", 10)}
{assign("backoffs", "0", 10)}
{cancel("rto", 10)}
{assign("timerOn", "0", 10)}
          <!-- keep only this connection's SYN-ACK (its conn) -->
{forget(f"{A_H}/Event[@name='synack'][position() lt last()] | {A_H}/Event[@name='ack']", 10)}
        </transition>
        <transition event="synack">
{forget(f"{A_H}/Event[@name='synack'][last()]", 10)}
        </transition>
        <transition event="rto">
{assign("backoffs", "$backoffs + 1", 10)}
          <if cond="number($backoffs) &gt; number($MaxBackoffs)">
{UNREACHABLE}
            <else/>
{assign("rto", "min(($MaxRTO, 2 * $rto))", 12)}
{SEND_SYN.replace(chr(10) + "      ", chr(10) + "            ").replace("      <action:create", "            <action:create", 1)}
{timer("rto", "rto", 12)}
          </if>
        </transition>
      </state>

      <state id="established">
        <onentry>
{assign("una", "0")}
{assign("nextSeq", "0")}
{assign("recover", "0")}
{assign("cwnd", "$InitialWindow")}
{assign("ssthresh", "$MaxWindow")}
{held()}
          <raise event="pump"/>
        </onentry>
        <onexit>
{cancel("idle")}
        </onexit>
        <transition event="own">
{assign("unsent", "$unsent + 1", 10)}
{held(10)}
{cancel("idle", 10)}
          <raise event="pump"/>
        </transition>
        <transition event="pump">
{PUMP}
        </transition>

        <!-- an ACK of this connection: the cumulative number may only grow, up to what was sent -->
        <transition event="ack">
          <!-- one walk to the ACK (the newest entry, behind the queue): its fields into variables -->
{assign("inLine", f"let $F := {ack_fields} return string-join((string(($F/Field[@name='ack'], -1)[1]), string($F/Field[@name='conn']), string(($F/Field[@name='wnd'], '')[1]), string($F/Field[@name='sack'])), ';')", 10)}
{assign("inAck", "xs:integer(tokenize(string($inLine), ';')[1])", 10)}
{assign("inConn", "tokenize(string($inLine), ';')[2]", 10)}
{assign("inSack", "tokenize(string($inLine), ';')[4]", 10)}
{assign("inHi", "let $R := tokenize(string($inSack), ' ')[. ne ''] return if (empty($R)) then -1 else xs:integer(tokenize($R[last()], '-')[last()])", 10)}
          <if cond="string($inConn) != string($conn) or number($inAck) &lt; number($una) or number($inAck) &gt; number($nextSeq)">
{forget(f"{A_H}/Event[@name='ack']", 12)}
            <else/>
{assign("rwnd", "let $w := tokenize(string($inLine), ';')[3] return if ($w = '') then $rwnd else xs:integer($w)", 12)}
            <!-- lost messages to repair now (numbered from the old una: the keep entries of what
                 this ACK acknowledges are still there) -->
            <!-- RFC 5827 (early retransmit): with fewer than DupThresh + 1 messages in flight no
                 loss could ever show DupThresh numbers above it and every loss would wait for the
                 RTO (whose back-off then keeps the window small: a spiral); the threshold is then
                 one less than the flight -->
{assign("dthr", "max((1, min(($DupThresh, $nextSeq - $una - 1))))", 12)}
{assign("nFast", "count(" + lost(C_H, "$una") + ")", 12)}
{assign("n", "$inAck - $una", 12)}
            <if cond="$timedSeq &gt;= 0 and number($inAck) &gt; number($timedSeq)">
{RTT_SAMPLE.replace(chr(10) + "        ", chr(10) + "              ").replace("        <assign", "              <assign", 1)}
            <elseif cond="$timedSeq &gt;= 0 and $nFast &gt; 0 and number($timedSeq) &gt;= number($inAck) and $timedSeq + $dthr &lt;= number($inHi)"/>
              <!-- Karn: the timed message is being sent again; its ACK would be ambiguous -->
{assign("timedSeq", "-1", 14)}
            </if>
            <if cond="$n &gt; 0">
{assign("backoffs", "0", 14)}
              <!-- new data acknowledged: the path works, the back-off ends (as Linux does; the
                   backed-off RTO would otherwise cost every later hole its full length) -->
              <if cond="$srtt &gt;= 0">
{assign("rto", "min(($MaxRTO, max(($MinRTO, $srtt + max((1, 4 * $rttvar))))))", 16)}
              </if>
              <!-- slow start below ssthresh, then one message per window -->
{assign("cwnd", f"min(($MaxWindow, {WIN}, if ($cwnd < $ssthresh) then $cwnd + $n else $cwnd + $n div $cwnd))", 14)}
{assign("una", "$inAck", 14)}
{held(14)}
            </if>
            <if cond="$nFast &gt; 0 and number($una) &gt;= number($recover)">
              <!-- a new loss episode: congestion only if a queue is building -->
              <!-- a queue: the last sample above the smallest by CongestionDelay, and above the
                   path's usual variation (SRTT + 2 RTTVAR); on a loaded host every sample may be
                   far above the smallest without any queue of ours -->
              <if cond="$minRtt &gt;= 0 and $lastRtt - number($minRtt) &gt;= number($CongestionDelay) and number($lastRtt) &gt; $srtt + 2 * $rttvar">
{assign("ssthresh", "max((2, floor($cwnd div 2)))", 16)}
{assign("cwnd", "$ssthresh", 16)}
              </if>
{assign("recover", "$nextSeq", 14)}
            </if>
            <!-- forget what is acknowledged (the first $n keep entries and their fresh twins) and
                 the ACK (its fields are in the variables) -->
{forget("let $gone := " + A_H + "/Event[@name='keep'][position() le xs:integer($n)] return ($gone, " + freshw(A_H) + "[Message/MessageIdentifier = $gone/Message/MessageIdentifier], " + A_H + "/Event[@name='ack'])", 12)}
{repeat("nFast", act("sendDataMessage", [("Message", "xpath", "(" + lost(A_H, "$una") + ")[1]/Message"), ("Message/Fields/seq", "xpath", "let $m := (" + lost(A_H, "$una") + ")[1] return " + seq_of(A_H, "$m")), ("Message/Fields/conn", "xpath", CONN)], indent=18) + chr(10) + forget("let $m := (" + lost(A_H, "$una") + ")[1] return " + freshw(A_H) + "[Message/MessageIdentifier = $m/Message/MessageIdentifier]", 18), 12)}
            <if cond="$n &gt; 0">
              <!-- RFC 6298 (5.3): restart the timer when new data is acknowledged -->
{cancel("rto", 14)}
{assign("timerOn", "0", 14)}
              <if cond="number($nextSeq) &gt; number($una)">
{timer("rto", "rto", 16)}
{assign("timerOn", "1", 16)}
              </if>
            </if>
            <raise event="pump"/>
          </if>
        </transition>

        <!-- RFC 6298 (5.4-5.6): send the first unacknowledged message again, back off -->
        <transition event="rto">
{assign("timerOn", "0", 10)}
          <if cond="number($nextSeq) &gt; number($una)">
{assign("backoffs", "$backoffs + 1", 12)}
            <if cond="number($backoffs) &gt; number($MaxBackoffs)">
{UNREACHABLE.replace(chr(10) + "        ", chr(10) + "              ").replace("        <action:create", "              <action:create", 1)}
              <else/>
{act("sendDataMessage", [("Message", "xpath", f"{A_H}/Event[@name='keep'][1]/Message"), ("Message/Fields/seq", "xpath", "$una"), ("Message/Fields/conn", "xpath", CONN)], indent=14)}
{assign("timedSeq", "-1", 14)}
{assign("ssthresh", "max((2, floor(($nextSeq - $una) div 2)))", 14)}
{assign("cwnd", "max((1, min(($cwnd, $ssthresh))))", 14)}
{assign("recover", "$nextSeq", 14)}
{assign("rto", "min(($MaxRTO, 2 * $rto))", 14)}
{timer("rto", "rto", 14)}
{assign("timerOn", "1", 14)}
            </if>
          </if>
        </transition>

        <transition event="idle" cond="number($nextSeq) = number($una) and $unsent = 0" target="finwait"/>
      </state>

      <!-- FIN until a FIN-ACK (or MaxBackoffs timeouts); new messages wait for the next connection -->
      <state id="finwait">
        <onentry>
{assign("backoffs", "0")}
{SEND_FIN.replace(chr(10) + "        ", chr(10) + "        ")}
{timer("rto", "rto")}
        </onentry>
        <onexit>
{cancel("rto")}
{assign("timerOn", "0")}
        </onexit>
        <transition event="own">
{assign("unsent", "$unsent + 1", 10)}
{held(10)}
        </transition>
        <transition event="rto" cond="number($backoffs) &lt; number($MaxBackoffs)">
{assign("backoffs", "$backoffs + 1", 10)}
{SEND_FIN.replace(chr(10) + "        ", chr(10) + "          ").replace("        <action:create", "          <action:create", 1)}
{timer("rto", "rto", 10)}
        </transition>
        <transition event="rto" target="closing"/>
        <transition event="finack" target="closing"
            cond="string({C_H}/Event[@name='finack'][last()]/Message/Fields/Field[@name='conn']) = string($conn)"/>
        <transition event="finack">
{forget(f"{A_H}/Event[@name='finack']", 10)}
        </transition>
      </state>

      <!-- the connection is gone: a waiting message opens the next one; else the pair may end -->
      <state id="closing">
        <onentry>
{forget(f"{A_H}/Event[@name=('synack','ack','finack')]")}
{assign("backoffs", "0")}
          <raise event="gone"/>
        </onentry>
        <transition event="gone" cond="$unsent &gt; 0" target="synsent"/>
        <transition event="gone" target="closed">
          <if cond="In('listen')">
{act("terminate", [], 12)}
          </if>
        </transition>
      </state>
    </state>
'''


def receiver():
    last = f"{A_H}/Event[@name='rdata'][last()]"
    ack = act("sendControlMessage", [
        ("Message/DeliveryMode", "value", "unicast"),
        ("Message/DestinationAddress", "xpath", f"{A_H}/Event[@name=('rdata','syn')][last()]/Message/SourceAddress"),
        ("Message/MessageType", "value", "3"),
        ("Message/Fields/conn", "xpath", f"({E_A})[1]/Message/Fields/Field[@name='conn']"),
        ("Message/Fields/ack", "xpath", f"min(for $x in {E_A} return xs:integer($x/Message/Fields/Field[@name='seq'])) + 1"),
        ("Message/Fields/sack", "xpath", f"let $s := for $x in {E_A} return xs:integer($x/Message/Fields/Field[@name='seq']) return $s[. gt min($s)]", "ranges"),
        ("Message/Fields/wnd", "param", "RecvWindow"),
    ], indent=10)
    synack = act("sendControlMessage", [
        ("Message/DeliveryMode", "value", "unicast"),
        ("Message/DestinationAddress", "xpath", f"{A_H}/Event[@name='syn'][last()]/Message/SourceAddress"),
        ("Message/MessageType", "value", "2"),
        ("Message/Fields/conn", "xpath", f"{A_H}/Event[@name='syn'][last()]/Message/Fields/Field[@name='conn']"),
        ("Message/Fields/wnd", "param", "RecvWindow"),
    ], indent=10)
    finack = act("sendControlMessage", [
        ("Message/DeliveryMode", "value", "unicast"),
        ("Message/DestinationAddress", "xpath", f"{A_H}/Event[@name='fin'][last()]/Message/SourceAddress"),
        ("Message/MessageType", "value", "5"),
        ("Message/Fields/conn", "xpath", f"{A_H}/Event[@name='fin'][last()]/Message/Fields/Field[@name='conn']"),
    ], indent=10)
    new_conn = f"xs:integer({C_H}/Event[@name='syn'][last()]/Message/Fields/Field[@name='conn'])"
    # a copy, an old number, one beyond the buffer, or another connection's: not kept
    drop_last = (f"let $l := {last}, $O := {E_A}[not(. is $l)], "
                 f"$s := xs:integer($l/Message/Fields/Field[@name='seq']), "
                 f"$os := for $x in $O return xs:integer($x/Message/Fields/Field[@name='seq']), $a := min($os) "
                 f"return $l[empty($O) or $s le $a or $s = $os or $s gt $a + $RecvWindow "
                 f"or string(Message/Fields/Field[@name='conn']) ne string($O[1]/Message/Fields/Field[@name='conn'])]")
    # the new message is the one after the anchor (held ones are all beyond it): a run to deliver
    deliverable = (f"let $l := {C_H}/Event[@name='rdata'][last()], $O := {E_C}[not(. is $l)] "
                   f"return xs:integer($l/Message/Fields/Field[@name='seq']) eq "
                   f"min(for $x in $O return xs:integer($x/Message/Fields/Field[@name='seq'])) + 1")
    conn_ok = f"string({C_H}/Event[@name='rdata'][last()]/Message/Fields/Field[@name='conn']) = string($rconn)"
    return f'''
    <state id="receiver" initial="listen">
      <!-- no connection: a SYN opens one; data without one is dropped (its sender times out) -->
      <state id="listen">
        <transition event="syn" target="open">
{assign("rconn", new_conn, 10)}
{forget(f"{E_A}[not(. is {A_H}/Event[@name='syn'][last()])]", 10)}
{synack}
        </transition>
        <!-- a late copy of a connection that is gone: an instance it created ends at once -->
        <transition event="rdata">
{forget(last, 10)}
          <if cond="In('closed')">
{act("terminate", [], 12)}
          </if>
        </transition>
        <transition event="fin">
{finack}
{forget(f"{A_H}/Event[@name='fin']", 10)}
          <if cond="In('closed')">
{act("terminate", [], 12)}
          </if>
        </transition>
      </state>

      <!-- the history holds the anchor (the SYN, numbered -1, then the last message delivered)
           and the messages held behind a gap -->
      <state id="open">
        <!-- a SYN of a newer connection (the peer restarted it) starts again; a repeated one is
             answered again; an older one is dropped -->
        <transition event="syn" cond="{new_conn} gt xs:integer($rconn)">
{assign("rconn", new_conn, 10)}
{forget(f"{E_A}[not(. is {A_H}/Event[@name='syn'][last()])]", 10)}
{synack}
        </transition>
        <transition event="syn" cond="{new_conn} = xs:integer($rconn)">
{forget(f"{A_H}/Event[@name='syn'][last()]", 10)}
{synack}
        </transition>
        <transition event="syn">
{forget(f"{A_H}/Event[@name='syn'][last()]", 10)}
        </transition>
        <transition event="rdata" cond="not({conn_ok})">
{forget(last, 10)}
        </transition>
        <transition event="rdata" cond="{deliverable}">
{forget(drop_last, 10)}
{act("toApplication", [("Message", "xpath", run(E_A) + " return for $i in $run[position() gt 1] return ($E[xs:integer(Message/Fields/Field[@name='seq']) eq $i])[1]/Message")], indent=10)}
{forget(run(E_A) + " return $E[xs:integer(Message/Fields/Field[@name='seq']) lt $run[last()]]", 10)}
{ack}
        </transition>
        <transition event="rdata">
{forget(drop_last, 10)}
{ack}
        </transition>
        <transition event="fin" cond="string({C_H}/Event[@name='fin'][last()]/Message/Fields/Field[@name='conn']) = string($rconn)" target="listen">
{finack}
{forget(f"{E_A} | {A_H}/Event[@name='fin']", 10)}
{assign("rconn", "-1", 10)}
          <if cond="In('closed')">
{act("terminate", [], 12)}
          </if>
        </transition>
        <transition event="fin">
{finack}
{forget(f"{A_H}/Event[@name='fin']", 10)}
        </transition>
      </state>
    </state>
  </parallel>
</scxml>
'''


OUT.write_text(HEADER + sender() + receiver(), encoding="utf-8")
print("wrote", OUT)
