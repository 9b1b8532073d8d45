#!/usr/bin/env python3
"""Writes services/src/main/resources/services/total-order.scxml.

Actions run after the engine step that produced them and see the datamodel as the step left it,
so a step that sends several different messages (new messages at consecutive numbers,
retransmissions) writes one action block per position, each guarded by an <if> on a count the
step computed. This script writes those blocks and the long XPaths once. Edit it and run it from
the repository root:  python3 services/src/main/scripts/gen-total-order.py
"""
import pathlib
from xml.sax.saxutils import quoteattr

OUT = pathlib.Path(__file__).resolve().parents[1] / "resources/services/total-order.scxml"

MAX_WINDOW = 32      # new messages one token visit may send (PersonalWindow is at most this)
MAX_RTX = 16         # retransmissions one token visit may answer (RetransmitWindow at most this)
MAX_LIST = 100       # numbers in a list field (rtr, miss): 100 numbers fit the 1,024 bytes of a field
TOKEN, ACK, BEAT, NOTICE = 1, 2, 3, 4

A_H = "/HistoryOfEvents"
C_H = "$_x?history/HistoryOfEvents"
TS = "Message/Fields/Field[@name='ts']"


def buf(h):
    """Ordered messages held: data entries with a number."""
    return f"{h}/Event[@name='data'][{TS}]"


def queue(h):
    """The application's messages waiting for the token: data entries without a number."""
    return f"{h}/Event[@name='data'][not({TS})]"


def last_data(h):
    return f"{h}/Event[@name='data'][last()]"


def last_token(h):
    return f"{h}/Event[@name='token'][last()]"


def tf(name, h=C_H):
    return f"{last_token(h)}/Message/Fields/Field[@name='{name}']"


MEMBERS = "tokenize(string($mem), ' ')"
GROUP = "tokenize(string($grp), ' ')"
# the ring is superseded: a heartbeat named a newer ring (this member was removed, or the new
# ring's token has not reached it yet); it sends no token of its own until one comes
SUPERSEDED = "number($seenRing) gt number($ring)"
# the member after this one in the ring (itself when alone)
SUCC = (f"let $m := {MEMBERS}, $i := index-of($m, string($me))[1] "
        f"return if (empty($i)) then '' else $m[$i mod count($m) + 1]")
# this member's aru: the highest number up to which it holds (or skipped) every number
ARU = (f"let $a := xs:integer($aru), $s := sort(distinct-values((for $x in {buf(C_H)}/{TS} return xs:integer($x), "
       f"for $y in tokenize(string($skip), ' ') return xs:integer($y))[. gt $a])) "
       f"return if (empty($s) or $s[1] ne $a + 1) then $a else $s[. eq $a + position()][last()]")
# how far delivery may go: up to the aru, but not to a message marked safe above the safe line
LIM = (f"let $b := min(for $e in {buf(C_H)}[Message/Fields/Field[@name='safe'] = 1 and xs:integer({TS}) gt xs:integer($safe)] "
       f"return xs:integer($e/{TS})) "
       f"return if (exists($b) and $b - 1 lt xs:integer($aru)) then max(($b - 1, xs:integer($dlv))) else xs:integer($aru)")


def held(n_expr):
    return f"exists({buf(C_H)}[{TS} = {n_expr}])"


def act(name, sets=(), indent=10):
    p = " " * indent
    out = [f'{p}<action:create name="{name}"/>']
    for s in sets:
        field, kind, val = s[0], s[1], s[2]
        typ = f' type="{s[3]}"' if len(s) > 3 else ""
        out.append(f'{p}<action:set name="{name}" field="{field}"{typ} {kind}={quoteattr(val)}/>')
    out.append(f'{p}<action:execute name="{name}"/>')
    return "\n".join(out)


def assign(var, expr, indent=10):
    return f'{" " * indent}<assign location="${var}" expr={quoteattr(expr)}/>'


def xif(cond, body, indent=10):
    p = " " * indent
    return f"{p}<if cond={quoteattr(cond)}>\n{body}\n{p}</if>"


def send_token(indent=10):
    """The token as the s* variables hold it, to $next; then its timers."""
    def lst(v):
        return ("string", f"concat(':', ${v})")
    fields = [("ring", "$sRing"), ("tid", "$sTid"), ("seq", "$sSeq"), ("aru", "$sAru"), ("rp", "$sRp"),
              ("rlo", "$sRlo"), ("rtop", "$sRtop")]
    sets = [("Message/DeliveryMode", "value", "unicast"),
            ("Message/DestinationAddress", "xpath", "$next"),
            ("Message/MessageType", "value", str(TOKEN))]
    for f, v in fields:
        sets.append((f"Message/Fields/{f}", "xpath", v))
    for f, v in [("aid", "sAid"), ("rtr", "sRtr"), ("mem", "sMem"), ("miss", "sMiss"), ("rby", "sRby"),
                 ("sk", "sSk"), ("new", "sNew")]:
        sets.append((f"Message/Fields/{f}", "xpath", f"concat(':', ${v})", "string"))
    p = " " * indent
    return "\n".join([
        act("sendControlMessage", sets, indent),
        f'{p}<cancel sendid="hold"/>',
        f'{p}<cancel sendid="resend"/>',
        f'{p}<send id="resend" event="resend" delayexpr="concat(string($TokenRetransmit), \'ms\')"/>',
        f'{p}<cancel sendid="loss"/>',
        f'{p}<send id="loss" event="loss" delayexpr="concat(string($TokenLoss), \'ms\')"/>',
    ])


def data_block(j, indent=12):
    """The j-th new message of this visit: the j-th queued one, numbered $start + j - 1, to every member."""
    return xif(f"number($k) ge {j}", act("sendDataMessage", [
        ("Message", "xpath", f"({queue(A_H)})[{j}]/Message"),
        ("Message/DeliveryMode", "value", "unicast"),
        ("Message/DestinationAddress", "xpath", MEMBERS),
        ("Message/Fields/ts", "xpath", f"xs:integer($start) + {j - 1}"),
    ], indent + 2), indent)


def rtx_block(j, indent=10):
    """The j-th retransmission: the held message numbered by the j-th entry of $rx, to the others."""
    return xif(f"number($nr) ge {j}", act("sendDataMessage", [
        ("Message", "xpath", f"({buf(A_H)}[{TS} = tokenize(string($rx), ' ')[{j}]])[1]/Message"),
        ("Message/DeliveryMode", "value", "unicast"),
        ("Message/DestinationAddress", "xpath", f"{MEMBERS}[. ne string($me)]"),
    ], indent + 2), indent)


def strf(name):
    """A list field of the token as text (written with a ':' in front: a field is never empty)."""
    return f"substring(string({tf(name)}), 2)"


def numbers_missing(lo, hi, cap):
    """Numbers in (lo, hi] this member neither holds nor skipped, at most cap of them, as text."""
    return (f"let $l := xs:integer({lo}), $u := min((xs:integer({hi}), $l + {cap})), "
            f"$h := (for $x in {buf(C_H)}/{TS} return xs:integer($x), for $y in tokenize(string($skip), ' ') return xs:integer($y))[. gt $l and . le $u] "
            f"return string-join(for $i in 1 to {cap} return (let $n := $l + $i return "
            f"if ($n le $u and not($n = $h)) then string($n) else ()), ' ')")


def have():
    """The token is this member's: the t* variables hold it. Everything a visit does."""
    I = 10
    out = []
    a = out.append
    # this member is admitted into a new ring (it restarted, or was removed while alive): it starts
    # afresh at the ring's start, holding and claiming nothing of the order before it
    a(assign("jn", "if (number($tRing) gt number($ring) and string($me) = tokenize(string($tNew), ' ')) then 1 else 0"))
    a(xif("number($jn) = 1", assign("jw", "1", I + 2), I))
    # a new ring (a member was removed or admitted): adopt it
    a(xif("number($tRing) gt number($ring)", "\n".join([
        assign("ring", "$tRing", I + 2), assign("mem", "$tMem", I + 2)]), I))
    a(assign("tid", "$tTid"))
    # the token has been round every member once: all of them were up, so from now on one that
    # stops answering has failed (before, it may not have started yet)
    a(xif(f"number($tTid) ge count({MEMBERS})", assign("formed", "1", I + 2), I))
    # numbers a recovery declared lost by every member
    a(xif("string($tSk) ne ''", assign("skip", "normalize-space(concat($skip, ' ', $tSk))", I + 2), I))
    a(assign("aru", ARU))
    # a joiner, until the ring's start is settled (the second recovery rotation): everything it
    # holds is forgotten, it asks for and answers nothing; its lines stand at the ring's start
    a(xif("number($jw) = 1", "\n".join([
        assign("aru", "$tRtop", I + 2), assign("dlv", "$tRtop", I + 2), assign("safe", "$tRtop", I + 2),
        assign("lastAru", "$tRtop", I + 2), assign("prevTop", "$tRtop", I + 2), assign("skip", "''", I + 2)]), I))
    # retransmissions this member can answer, at most RetransmitWindow
    a(assign("rx", f"string-join(distinct-values(for $r in tokenize(string($tRtr), ' ') return if ({held('$r')}) then $r else ()), ' ')"))
    a(xif("number($jw) = 1", assign("rx", "''", I + 2), I))
    a(assign("nr", f"min((count(tokenize(string($rx), ' ')), $RetransmitWindow, {MAX_RTX}))"))
    # what it misses of the numbers the token showed last visit (they had a rotation to arrive)
    a(assign("need", f"if (number($jw) = 1) then '' else {numbers_missing('$aru', 'min((xs:integer($prevTop), xs:integer($tSeq)))', MAX_LIST)}"))
    a(assign("sRtr", f"string-join(subsequence(distinct-values((tokenize(string($tRtr), ' ')"
                     f"[not(. = subsequence(tokenize(string($rx), ' '), 1, xs:integer($nr)))], "
                     f"tokenize(string($need), ' '))), 1, {MAX_LIST}), ' ')"))
    # recovery after a removal: the remover (rby) leads two rotations
    a(assign("sRp", "$tRp"))
    a(assign("sRlo", "$tRlo"))
    a(assign("sRtop", "$tRtop"))
    a(assign("sMiss", "$tMiss"))
    a(assign("sRby", "$tRby"))
    a(assign("sSk", "$tSk"))
    a(assign("sNew", "$tNew"))
    top_held = f"if (number($jw) = 1) then xs:integer($tRtop) else max((xs:integer($tRtop), for $x in {buf(C_H)}/{TS} return xs:integer($x)))"
    a(f'''{" " * I}<if cond="number($tRp) = 1 and string($tRby) ne string($me)">
{assign("sRtop", top_held, I + 2)}
{" " * I}<elseif cond="number($tRp) = 1"/>
{assign("sRtop", top_held, I + 2)}
{assign("sRp", "2", I + 2)}
{assign("sMiss", f"string-join(subsequence(tokenize({numbers_missing('$tRlo', top_held, 500)}, ' '), 1, {MAX_LIST}), ' ')", I + 2)}
{" " * I}<elseif cond="number($tRp) = 2 and string($tRby) ne string($me)"/>
{assign("sMiss", f"if (number($jw) = 1) then $tMiss else string-join(for $r in tokenize(string($tMiss), ' ') return if ({held('$r')}) then () else $r, ' ')", I + 2)}
{" " * I}<elseif cond="number($tRp) = 2"/>
{assign("sRp", "0", I + 2)}
{assign("sSk", f"string-join(for $r in tokenize(string($tMiss), ' ') return if ({held('$r')}) then () else $r, ' ')", I + 2)}
{assign("skip", "normalize-space(concat($skip, ' ', $sSk))", I + 2)}
{assign("tSeq", "max((xs:integer($tSeq), xs:integer($tRtop)))", I + 2)}
{assign("aru", ARU, I + 2)}
{" " * I}<elseif cond="string($tRby) = string($me) and string($tSk) ne ''"/>
{assign("sSk", "''", I + 2)}
{assign("sRby", "''", I + 2)}
{" " * I}</if>''')
    # the ring's start is settled (the token is past its first recovery rotation): a joiner's lines
    # move to it and it takes part from there
    a(xif("number($jw) = 1 and number($tRp) ne 1", "\n".join([
        assign("aru", f"max((xs:integer($tRtop), {ARU}))", I + 2), assign("dlv", "$tRtop", I + 2),
        assign("safe", "$tRtop", I + 2), assign("lastAru", "$tRtop", I + 2), assign("prevTop", "$tRtop", I + 2),
        assign("jw", "0", I + 2)]), I))
    # a configuration this member has not announced, whose start is settled: its notice is due
    # once everything before the start is delivered
    a(xif("number($tRing) gt number($annRing) and number($tRp) ne 1", "\n".join([
        assign("annRing", "$tRing", I + 2), assign("cfgRing", "$tRing", I + 2), assign("cfgMem", "$tMem", I + 2),
        assign("cfgNew", "$tNew", I + 2), assign("cfgAt", "$tRtop", I + 2), assign("cfgPend", "1", I + 2)]), I))
    # members of Group outside the ring whose heartbeats arrive are admitted: a new ring, with the
    # recovery rotations of a removal, that lists them in sNew (not during a recovery, nor while
    # a newer ring is known). Of two rings that hear each other, the one with the lowest member
    # admits the other's members (so they do not admit each other at once); a member in no ring
    # (restarted: its heartbeats carry ring 0) is admitted by any
    a(assign("add", f"if (number($formed) = 1 and number($sRp) = 0 and number($tRp) = 0 and string($tSk) = '' "
                    f"and not({SUPERSEDED})) then string-join({GROUP}[not(. = {MEMBERS}) and not(. = tokenize(string($down), ' ')) "
                    f"and . ne string($me) and (. = tokenize(string($fresh), ' ') or index-of({GROUP}, .)[1] gt index-of({GROUP}, {MEMBERS}[1])[1])], ' ') else ''"))
    a(xif("string($add) ne ''", "\n".join([
        assign("mem", f"string-join({GROUP}[. = {MEMBERS} or . = tokenize(string($add), ' ')], ' ')", I + 2),
        assign("ring", "max((xs:integer($ring), xs:integer($maxRing))) + 1", I + 2),
        assign("sRp", "1", I + 2), assign("sRlo", "$safe", I + 2),
        assign("sRtop", "max((xs:integer($tSeq), xs:integer($tRtop)))", I + 2),
        assign("sRby", "$me", I + 2), assign("sMiss", "''", I + 2), assign("sSk", "''", I + 2),
        assign("sNew", "$add", I + 2)]), I))
    # new messages: none during a recovery; at most PersonalWindow; the unsafe backlog bounded
    a(assign("k", "if (number($sRp) = 0) then max((0, min((xs:integer($qn), xs:integer($PersonalWindow), "
                  f"{MAX_WINDOW}, xs:integer($MaxBacklog) - (xs:integer($tSeq) - xs:integer($tAru)))))) else 0"))
    a(assign("start", "$tSeq + 1"))
    a(assign("sSeq", "$tSeq + $k"))
    a(assign("qn", "$qn - $k"))
    # the token's aru (Totem's rule): lowered to this member's, raised by the member that lowered it
    a(f'''{" " * I}<if cond="number($aru) lt number($tAru) or string($tAid) = (string($me), '') or not(string($tAid) = {MEMBERS})">
{assign("sAru", "$aru", I + 2)}
{assign("sAid", "if (number($aru) ge number($sSeq)) then '' else string($me)", I + 2)}
{" " * I}<else/>
{assign("sAru", "$tAru", I + 2)}
{assign("sAid", "$tAid", I + 2)}
{" " * I}</if>''')
    # safe: what the token's aru showed on this visit and on the last one this member forwarded
    a(assign("safe", "max((xs:integer($safe), min((xs:integer($sAru), xs:integer($lastAru)))))"))
    a(assign("lastAru", "$sAru"))
    a(assign("prevTop", "$sSeq"))
    a(assign("sRing", "$ring"))
    a(assign("sMem", "$mem"))
    a(assign("sTid", "$tid + 1"))
    a(assign("tid", "$sTid"))
    a(assign("tries", "0"))
    a(assign("next", SUCC))
    a(assign("p", "max((1, xs:integer($k) - xs:integer($AcceleratedWindow) + 1))"))
    # retransmissions first, then the new messages with the token among them: it leaves before the
    # last AcceleratedWindow of them (the accelerated ring)
    for j in range(1, MAX_RTX + 1):
        a(rtx_block(j))
    for j in range(1, MAX_WINDOW + 1):
        a(xif(f"number($k) gt 0 and number($p) = {j}", send_token(I + 2), I))
        a(data_block(j, I))
    a(act("forgetEvents", [("Events", "xpath", f"({queue(A_H)})[position() le xs:integer($k)]")], I))
    # a joiner's numbered messages belong to an order it no longer takes part in
    a(xif("number($jn) = 1", act("forgetEvents", [("Events", "xpath", buf(A_H))], I + 2), I))
    # nothing sent, nothing asked, everything safe: an idle ring holds the token a while
    idle = ("number($k) = 0 and number($nr) = 0 and string($sRtr) = '' and number($sRp) = 0 "
            "and number($safe) ge number($sSeq) and string($sSk) = ''")
    a(f'''{" " * I}<if cond={quoteattr(idle)}>
{" " * (I + 2)}<cancel sendid="loss"/>
{" " * (I + 2)}<send id="hold" event="hold" delayexpr="concat(string($Hold), 'ms')"/>
{" " * I}<elseif cond="number($k) = 0"/>
{send_token(I + 2)}
{" " * I}</if>''')
    a(f'{" " * I}<raise event="deliver"/>')
    a(f'{" " * I}<raise event="collect"/>')
    return "\n".join(out)


def deliver_range(lo, hi):
    """The held messages numbered in (lo, hi], once each, in number order."""
    return (f"let $B := {buf(A_H)} return for $n in sort(distinct-values(for $x in $B/{TS} return xs:integer($x))"
            f"[. gt xs:integer({lo}) and . le xs:integer({hi})]) return ($B[{TS} = $n])[1]/Message")


def main():
    events = f"""        <Event name="data"><Message><MessageKind>data</MessageKind></Message></Event>
        <Event name="token"><Message><MessageType>{TOKEN}</MessageType></Message></Event>
        <Event name="tokack"><Message><MessageType>{ACK}</MessageType></Message></Event>
        <Event name="hb"><Message><MessageType>{BEAT}</MessageType></Message></Event>"""
    LD = last_data(C_H)
    LTS = f"{LD}/{TS}"
    T = last_token(C_H)
    stale = (f"number({tf('ring')}) lt number($ring) or number({tf('ring')}) lt number($seenRing) or (number({tf('ring')}) = number($ring) "
             f"and number({tf('tid')}) le number($tid))")
    ack = act("sendControlMessage", [
        ("Message/DeliveryMode", "value", "unicast"),
        ("Message/DestinationAddress", "xpath", f"{last_token(A_H)}/Message/SourceAddress"),
        ("Message/MessageType", "value", str(ACK)),
        ("Message/Fields/ring", "xpath", f"{last_token(A_H)}/Message/Fields/Field[@name='ring']"),
        ("Message/Fields/tid", "xpath", f"{last_token(A_H)}/Message/Fields/Field[@name='tid']"),
    ], 10)
    # the last token stays: it is the base of the configuration notices
    forget_tokens = act("forgetEvents", [("Events", "xpath", f"{A_H}/Event[@name='token'][position() lt last()]")], 10)
    copy = "\n".join(assign(v, e) for v, e in [
        ("tRing", f"xs:integer({tf('ring')})"), ("tTid", f"xs:integer({tf('tid')})"),
        ("tSeq", f"xs:integer({tf('seq')})"), ("tAru", f"xs:integer({tf('aru')})"),
        ("tRp", f"xs:integer({tf('rp')})"), ("tRlo", f"xs:integer({tf('rlo')})"),
        ("tRtop", f"xs:integer({tf('rtop')})"),
        ("tAid", strf("aid")), ("tRtr", strf("rtr")), ("tMem", strf("mem")), ("tMiss", strf("miss")),
        ("tRby", strf("rby")), ("tSk", strf("sk")), ("tNew", strf("new"))])
    gt = "distinct-values(tokenize(normalize-space($Group), ' '))"
    sorted_group = (f"if (every $a in {gt} satisfies $a castable as xs:integer) "
                    f"then string-join(for $n in sort(for $a in {gt} return xs:integer($a)) return string($n), ' ') "
                    f"else string-join(sort({gt}), ' ')")
    variables = ["me", "mem", "ring", "tid", "formed", "aru", "dlv", "safe", "lastAru", "prevTop", "qn", "k", "start", "p",
                 "nr", "rx", "need", "skip", "next", "tries", "from", "lim",
                 "grp", "cnt", "down", "seenRing", "maxRing", "fresh", "add", "jn", "jw",
                 "hbi", "full", "ntc", "lim2", "annRing", "cfgRing", "cfgMem", "cfgNew", "cfgAt", "cfgPend",
                 "tRing", "tTid", "tSeq", "tAru", "tAid", "tRtr", "tMem", "tRp", "tRlo", "tRtop", "tMiss", "tRby", "tSk",
                 "tNew",
                 "sRing", "sTid", "sSeq", "sAru", "sAid", "sRtr", "sMem", "sRp", "sRlo", "sRtop", "sMiss", "sRby", "sSk",
                 "sNew"]
    strings = {"me", "mem", "rx", "need", "skip", "next", "tAid", "tRtr", "tMem", "tMiss", "tRby", "tSk",
               "sAid", "sRtr", "sMem", "sMiss", "sRby", "sSk", "grp", "cnt", "down", "add", "cfgMem", "cfgNew",
               "tNew", "sNew", "hbi", "fresh"}
    datamodel = "\n".join(f'    <data id="{v}" expr="{"&apos;&apos;" if v in strings else "0"}"/>' for v in variables)
    removal = "\n".join([
        assign("mem", f"string-join({MEMBERS}[. ne string($next)], ' ')", 10),
        assign("ring", "max((xs:integer($ring), xs:integer($maxRing))) + 1", 10),
        assign("sRing", "$ring", 10),
        assign("sMem", "$mem", 10),
        assign("sTid", "$tid + 1", 10),
        assign("tid", "$sTid", 10),
        assign("sRp", "1", 10),
        assign("sRlo", "$safe", 10),
        assign("sRtop", "$sSeq", 10),
        assign("sRby", "$me", 10),
        assign("sMiss", "''", 10),
        assign("sSk", "''", 10),
        assign("sNew", "''", 10),
        assign("sAid", "if (string($sAid) = " + MEMBERS + ") then $sAid else ''", 10),
        assign("tries", "0", 10),
        assign("next", SUCC, 10),
    ])
    doc = f"""<?xml version="1.0" encoding="UTF-8"?>
<!--
  total-order: the Accelerated Ring protocol (seed 001, after Totem's single ring). The members
  (parameter Group) form a ring in address order; a token circulates (unicast to the next member)
  with the highest number assigned (seq), the all-received-up-to value (aru, with the member that
  lowered it), retransmission requests (rtr) and the member list. The application's messages wait
  in the history until the token comes; the holder numbers up to PersonalWindow of them (field ts,
  consecutive from the token's seq), passes the token before the last AcceleratedWindow of them are
  sent (the acceleration) and sends each to every member, itself included (receiveOwnUnicast).
  Members deliver in ts order: agreed once every lower number is held; a message with field
  safe=1 only when the token's aru shows every member holds it. A lost token is sent again until
  the next member acknowledges it. Membership: the members exchange heartbeats (heartbeat-fd's
  Interval and Threshold); a next member that is suspected (or never acknowledges, MaxResends) is
  removed, and the ring goes on without it after two recovery rotations that settle which numbers
  nobody holds; a member of Group outside the ring whose heartbeats arrive is admitted the same
  way. Each ring is announced to the application by a notice (MessageType 4: ring, mem, ts,
  joined) in its place of the order.
  GENERATED by services/src/main/scripts/gen-total-order.py: edit that and run it.
  See docs/services/total-order.md.
-->
<scxml version="1.0"
       xmlns="http://www.w3.org/2005/07/scxml"
       xmlns:action="http://my.custom-actions.domain/action"
       initial="idle" datamodel="xpath">
  <datamodel>
    <data name="service">
      <ServiceName>total-order</ServiceName>
      <ServiceID>30</ServiceID>
      <DeliveryMode>unicast</DeliveryMode>
      <Scope>node</Scope>
      <Description>Total-order multicast in a group (the Accelerated Ring protocol): a token circulating the members in address order carries the sequence number, the all-received line and retransmission requests; every member delivers every member's messages in one order, agreed or (field safe=1) safe; a lost token is resent; membership from heartbeats: a silent member is removed, a member back is admitted, and each ring is announced to the application in its place of the order.</Description>
      <Promises>no-duplicates</Promises>
      <Start>deployed</Start>
    </data>
    <data name="metaops">
      <messageStoreWillForwardMessage>true</messageStoreWillForwardMessage>
      <processIntermediateUnicastMessage>false</processIntermediateUnicastMessage>
      <receiveOwnUnicast>true</receiveOwnUnicast>
    </data>
    <data name="parameters">
      <Parameter name="Group" type="string" default="">The members' addresses, separated by spaces (tree ids or x,y), the same on every member; the ring is this list sorted (numerically for tree ids). Empty: this node alone.</Parameter>
      <Parameter name="PersonalWindow" type="integer" default="20">New messages a member sends per token visit (at most {MAX_WINDOW}).</Parameter>
      <Parameter name="AcceleratedWindow" type="integer" default="10">Of those, how many are sent after the token has been passed on.</Parameter>
      <Parameter name="RetransmitWindow" type="integer" default="16">Requested messages a member sends again per token visit (at most {MAX_RTX}).</Parameter>
      <Parameter name="MaxBacklog" type="integer" default="200">New messages are sent only while fewer than this many numbers lie above the token's aru: it bounds what every member holds (keep historyEntries above MaxBacklog plus the messages the application queues, plus 16).</Parameter>
      <Parameter name="TokenRetransmit" type="duration" default="50">The token is sent again this long after it was passed until the next member acknowledges it.</Parameter>
      <Parameter name="MaxResends" type="integer" default="40">Sends of one token without an acknowledgement after which the next member is removed from the ring even though its heartbeats arrive (a backstop: a silent member is removed as soon as the heartbeats suspect it; once the token has been round every member: until then members that have not started are waited for).</Parameter>
      <Parameter name="Interval" type="duration" default="100">Every member sends a heartbeat to every other member of Group this often, and ticks this often (heartbeat-fd's Interval).</Parameter>
      <Parameter name="Threshold" type="integer" default="8">Ticks in a row without a heartbeat from a member after which it is suspected (heartbeat-fd's Threshold): a member the token waits for that is suspected is removed; a member outside the ring that is not suspected is admitted.</Parameter>
      <Parameter name="TokenLoss" type="duration" default="2000">A member that has not had the token for this long sends its last token again (the holder may have failed after acknowledging it).</Parameter>
      <Parameter name="Hold" type="duration" default="20">An idle member (nothing to send, nothing missing, everything safe) keeps the token this long before passing it.</Parameter>
      <Parameter name="StartDelay" type="duration" default="200">The first member creates the token this long after deployment.</Parameter>
    </data>
    <data name="events">
      <Basic>
{events}
      </Basic>
    </data>
{datamodel}
  </datamodel>

  <state id="idle">
    <!-- the node's own instance, started on deployment: this member's place in the ring -->
    <transition event="deployed" target="member">
{assign("me", "string($_x?address)")}
{assign("mem", f"if (normalize-space($Group) = '') then string($_x?address) else {sorted_group}")}
{assign("next", SUCC)}
{assign("grp", f"if (normalize-space($Group) = '') then string($_x?address) else {sorted_group}")}
{assign("cnt", f"string-join(for $g in {GROUP} return concat($g, '=0'), ' ')")}
    </transition>
  </state>

  <state id="member" initial="run">
    <onentry>
      <if cond="string($me) = tokenize(string($mem), ' ')[1]">
        <send id="gen" event="gen" delayexpr="concat(string($StartDelay), 'ms')"/>
      </if>
      <send id="loss" event="loss" delayexpr="concat(string($TokenLoss), 'ms')"/>
      <send id="beat" event="beat" delayexpr="concat(string($Interval), 'ms')"/>
    </onentry>

    <state id="run">
      <!-- the first member makes the first token, unless a heartbeat told it a ring exists (it restarted) -->
      <transition event="gen" cond="number($tid) = 0 and number($maxRing) = 0">
{"".join(assign(v, e) + chr(10) for v, e in [("tRing", "1"), ("tTid", "0"), ("tSeq", "0"), ("tAru", "0"),
    ("tRp", "0"), ("tRlo", "0"), ("tRtop", "0"), ("tAid", "''"), ("tRtr", "''"), ("tMem", "$mem"),
    ("tMiss", "''"), ("tRby", "''"), ("tSk", "''")])}        <raise event="have"/>
      </transition>

      <!-- the application's message: queued until the token comes -->
      <transition event="data" cond="empty({LTS}) and string({LD}/Message/SourceAddress) = string($me)">
{assign("qn", "$qn + 1")}
      </transition>
      <!-- an unnumbered message of another node, a number already held, delivered or skipped -->
      <transition event="data" cond="empty({LTS}) or number({LTS}) le number($aru) or count({buf(C_H)}[{TS} = {LTS}]) gt 1 or string({LTS}) = tokenize(string($skip), ' ')">
{act("forgetEvents", [("Events", "xpath", f"{last_data(A_H)}")])}
      </transition>
      <transition event="data">
{assign("aru", ARU)}
        <raise event="deliver"/>
      </transition>

      <!-- a token already handled: acknowledged again (the acknowledgement was lost); an older
           ring's: dropped -->
      <transition event="token" cond="{stale}">
        <if cond="number({tf('ring')}) = number($ring)">
{ack}
        </if>
{forget_tokens}
      </transition>
      <transition event="token">
{ack}
{copy}
{forget_tokens}
        <cancel sendid="loss"/>
        <raise event="have"/>
      </transition>
      <transition event="have">
{have()}
      </transition>
      <transition event="hold" cond="not({SUPERSEDED})">
{send_token(10)}
      </transition>

      <!-- membership (heartbeat-fd's semantics, inside this service): a heartbeat to every other
           member each Interval; a member from which Threshold ticks in a row brought none is
           suspected (down) -->
      <transition event="beat">
        <if cond="exists({GROUP}[. ne string($me)])">
{act("sendControlMessage", [("Message/DeliveryMode", "value", "unicast"), ("Message/DestinationAddress", "xpath", f"{GROUP}[. ne string($me)]"), ("Message/MessageType", "value", str(BEAT)), ("Message/Fields/ring", "xpath", "$ring")], 10)}
        </if>
        <send id="beat" event="beat" delayexpr="concat(string($Interval), 'ms')"/>
{assign("cnt", "string-join(for $c in tokenize(string($cnt), ' ') return concat(substring-before($c, '='), '=', min((xs:integer(substring-after($c, '=')) + 1, xs:integer($Threshold)))), ' ')")}
{assign("down", "string-join(for $c in tokenize(string($cnt), ' ') return (if (xs:integer(substring-after($c, '=')) ge xs:integer($Threshold) and substring-before($c, '=') ne string($me)) then substring-before($c, '=') else ()), ' ')")}
      </transition>
      <transition event="hb">
{assign("hbi", f"string({C_H}/Event[@name='hb'][last()]/Message/SourceAddress)")}
{assign("maxRing", f"max((xs:integer($maxRing), xs:integer({C_H}/Event[@name='hb'][last()]/Message/Fields/Field[@name='ring'])))")}
{assign("fresh", f"string-join((tokenize(string($fresh), ' ')[. ne string($hbi)], if (number({C_H}/Event[@name='hb'][last()]/Message/Fields/Field[@name='ring']) = 0) then string($hbi) else ()), ' ')")}
        <!-- a member of this ring is in a newer one: this ring is superseded (a removed member's
             own rings do not count) -->
        <if cond="string($hbi) = {MEMBERS}">
{assign("seenRing", f"max((xs:integer($seenRing), xs:integer({C_H}/Event[@name='hb'][last()]/Message/Fields/Field[@name='ring'])))", 10)}
        </if>
{assign("cnt", "string-join(for $c in tokenize(string($cnt), ' ') return (if (substring-before($c, '=') = string($hbi)) then concat($hbi, '=0') else $c), ' ')")}
{assign("down", "string-join(tokenize(string($down), ' ')[. ne string($hbi)], ' ')")}
{act("forgetEvents", [("Events", "xpath", f"{A_H}/Event[@name='hb']")])}
      </transition>

      <!-- the next member has the token -->
      <transition event="tokack" cond="number({C_H}/Event[@name='tokack'][last()]/Message/Fields/Field[@name='tid']) = number($sTid)">
        <cancel sendid="resend"/>
{assign("tries", "0")}
{act("forgetEvents", [("Events", "xpath", f"{A_H}/Event[@name='tokack']")])}
      </transition>
      <transition event="tokack">
{act("forgetEvents", [("Events", "xpath", f"{A_H}/Event[@name='tokack']")])}
      </transition>

      <!-- no acknowledgement: again, until the next member is suspected (or MaxResends sends); then
           it is removed (once the ring has formed: before, a member that is not up yet is waited
           for); a superseded ring's token is not sent again -->
      <transition event="resend" cond="{SUPERSEDED}"/>
      <transition event="resend" cond="number($formed) = 1 and count({MEMBERS}) gt 1 and (string($next) = tokenize(string($down), ' ') or number($tries) + 1 ge number($MaxResends))">
{removal}
{send_token(10)}
      </transition>
      <transition event="resend">
{assign("tries", "$tries + 1")}
{send_token(10)}
      </transition>
      <!-- no token for TokenLoss: the last one again (its holder may have failed) -->
      <!-- (a newer ring that has not come for this long is taken as gone: its maker failed before its
           token went round) -->
      <transition event="loss" cond="number($sTid) gt 0">
{assign("seenRing", "$ring")}
{assign("tries", "0")}
{send_token(10)}
      </transition>
      <transition event="loss">
{assign("seenRing", "$ring")}
        <send id="loss" event="loss" delayexpr="concat(string($TokenLoss), 'ms')"/>
      </transition>

      <!-- deliver in ts order what may go: agreed up to the aru, safe only up to the safe line; a
           due configuration notice in its place of the order, after everything before the ring's
           start (its base is the last token, which is never forgotten; the notice carries only its
           own fields). Actions run after the whole step and see the variables as it left them, so
           the two ranges, before and after the notice, have variables of their own -->
      <transition event="deliver">
{assign("from", "$dlv")}
{assign("full", f"if (number($annRing) = 0 or number($jw) = 1) then xs:integer($dlv) else ({LIM})")}
{assign("ntc", f"if (number($cfgPend) = 1 and number($annRing) gt 0 and number($jw) = 0 and number($full) ge number($cfgAt) and exists({C_H}/Event[@name='token'])) then 1 else 0")}
{assign("lim", "if (number($cfgPend) = 1) then min((xs:integer($full), max((xs:integer($cfgAt), xs:integer($dlv))))) else xs:integer($full)")}
{assign("lim2", "if (number($ntc) = 1) then max((xs:integer($full), xs:integer($lim))) else xs:integer($lim)")}
        <if cond="number($lim) gt number($from)">
{act("toApplication", [("Message", "xpath", deliver_range("$from", "$lim"))], 10)}
        </if>
        <if cond="number($ntc) = 1">
{act("toApplication", [("Message", "xpath", f"{last_token(A_H)}/Message"), ("Message/MessageType", "value", str(NOTICE)),
     ("Message/Fields/ring", "xpath", "$cfgRing"), ("Message/Fields/ts", "xpath", "$cfgAt"),
     ("Message/Fields/mem", "xpath", "string($cfgMem)", "string"),
     ("Message/Fields/joined", "xpath", "if (string($cfgNew) = '') then () else string($cfgNew)", "string")], 10)}
{assign("cfgPend", "0", 10)}
        </if>
        <if cond="number($lim2) gt number($lim)">
{act("toApplication", [("Message", "xpath", deliver_range("$lim", "$lim2"))], 10)}
        </if>
{assign("dlv", "max((xs:integer($dlv), xs:integer($lim2)))")}
      </transition>
      <!-- what every member holds and this one delivered is needed no more -->
      <transition event="collect">
{act("forgetEvents", [("Events", "xpath", f"{buf(A_H)}[xs:integer({TS}) le min((xs:integer($dlv), xs:integer($safe)))]")])}
{assign("skip", "string-join(tokenize(string($skip), ' ')[xs:integer(.) gt min((xs:integer($dlv), xs:integer($safe)))], ' ')")}
      </transition>
    </state>
  </state>
</scxml>
"""
    OUT.write_text(doc, encoding="utf-8")


if __name__ == "__main__":
    main()
