package io.statecast.messagestore.event;

import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.message.DeliveryMode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The acknowledgement services' composite query — "every node this one sent the message to has
 * acknowledged it" — answered from the history's Java objects without Saxon. Two shapes are
 * recognised (whitespace aside), the ones {@code h2h-ack} and {@code e2e-ack} ship with:
 *
 * <pre>
 * let $node := /HistoryOfEvents/Node[last()],
 *     $payload := /HistoryOfEvents/Event[@name = 'P'][1]/Message,
 *     $expected := if ($payload/DeliveryMode = 'unicast') then $node/Parent/LogicalAddress
 *                  else $node/Children/LogicalAddress,
 *     $acked := /HistoryOfEvents/Event[@name = 'A']/Message/SourceAddress
 * return exists($node) and (every $c in $expected satisfies $c = $acked)
 *
 * let $node := /HistoryOfEvents/Node[last()],
 *     $acked := /HistoryOfEvents/Event[@name = 'A']/Message/SourceAddress
 * return exists($node) and (every $c in $node/Children/LogicalAddress satisfies $c = $acked)
 * </pre>
 *
 * The same two shapes returning {@code $expected[not(. = $acked)]} (or
 * {@code $node/Children/LogicalAddress[not(. = $acked)]}) instead select the nodes that have
 * not acknowledged ({@link #silentOf}, {@link #silent}): the destinations of the services' ACK
 * Requests, evaluated on every {@code TimeoutACK} round of every waiting instance.
 *
 * <p>Anything else — other variable names, comments, a prolog — is left to Saxon. Why: on the
 * ttcp loopback run this query was 30–40 % of a shard's CPU time per relayed message (a Saxon
 * controller, the {@code <Message>} children built for every acknowledgement). The answer is
 * the one Saxon gives on the history document; a test checks this on random histories. Only
 * entries with an XML form count, as for Saxon, and the comparison {@code $c = $acked} compares
 * address texts, which is address equality (a DT address's text holds a comma, a tree
 * address's does not).
 */
public final class AckQueryFastPath {

    private static final String NAME = "(?:'([A-Za-z_][A-Za-z0-9_-]*)'|\"([A-Za-z_][A-Za-z0-9_-]*)\")";
    private static final String NODE = "\\s*let\\s+\\$node\\s*:=\\s*/HistoryOfEvents/Node\\[\\s*last\\(\\s*\\)\\s*\\]\\s*,";
    private static final String ACKED = "\\s*\\$acked\\s*:=\\s*/HistoryOfEvents/Event\\[\\s*@name\\s*=\\s*" + NAME
            + "\\s*\\]/Message/SourceAddress\\s+return\\s+exists\\s*\\(\\s*\\$node\\s*\\)\\s+and\\s*\\(\\s*every\\s+\\$c\\s+in\\s+";
    private static final String SATISFIES = "\\s+satisfies\\s+\\$c\\s*=\\s*\\$acked\\s*\\)\\s*";
    private static final String ACKED_RETURN = "\\s*\\$acked\\s*:=\\s*/HistoryOfEvents/Event\\[\\s*@name\\s*=\\s*" + NAME
            + "\\s*\\]/Message/SourceAddress\\s+return\\s+";
    private static final String NOT_ACKED = "\\s*\\[\\s*not\\s*\\(\\s*\\.\\s*=\\s*\\$acked\\s*\\)\\s*\\]\\s*";
    private static final Pattern BY_MODE = Pattern.compile(NODE
            + "\\s*\\$payload\\s*:=\\s*/HistoryOfEvents/Event\\[\\s*@name\\s*=\\s*" + NAME
            + "\\s*\\]\\s*\\[\\s*1\\s*\\]/Message\\s*,"
            + "\\s*\\$expected\\s*:=\\s*if\\s*\\(\\s*\\$payload/DeliveryMode\\s*=\\s*(?:'unicast'|\"unicast\")\\s*\\)"
            + "\\s*then\\s+\\$node/Parent/LogicalAddress\\s+else\\s+\\$node/Children/LogicalAddress\\s*,"
            + ACKED + "\\$expected" + SATISFIES);
    private static final Pattern CHILDREN = Pattern.compile(NODE + ACKED + "\\$node/Children/LogicalAddress" + SATISFIES);
    private static final Pattern SILENT_BY_MODE = Pattern.compile(NODE
            + "\\s*\\$payload\\s*:=\\s*/HistoryOfEvents/Event\\[\\s*@name\\s*=\\s*" + NAME
            + "\\s*\\]\\s*\\[\\s*1\\s*\\]/Message\\s*,"
            + "\\s*\\$expected\\s*:=\\s*if\\s*\\(\\s*\\$payload/DeliveryMode\\s*=\\s*(?:'unicast'|\"unicast\")\\s*\\)"
            + "\\s*then\\s+\\$node/Parent/LogicalAddress\\s+else\\s+\\$node/Children/LogicalAddress\\s*,"
            + ACKED_RETURN + "\\$expected" + NOT_ACKED);
    private static final Pattern SILENT_CHILDREN = Pattern.compile(NODE + ACKED_RETURN + "\\$node/Children/LogicalAddress"
            + NOT_ACKED);

    /** The payload event whose delivery mode picks parent or children; null: always the children. */
    private final String payloadEvent;
    private final String ackEvent;

    private AckQueryFastPath(String payloadEvent, String ackEvent) {
        this.payloadEvent = payloadEvent;
        this.ackEvent = ackEvent;
    }

    /** The fast path for {@code text}, or {@code null} when Saxon must evaluate it. */
    public static AckQueryFastPath of(String text) {
        Matcher m = BY_MODE.matcher(text);
        if (m.matches()) {
            return new AckQueryFastPath(either(m, 1), either(m, 3));
        }
        m = CHILDREN.matcher(text);
        if (m.matches()) {
            return new AckQueryFastPath(null, either(m, 1));
        }
        return null;
    }

    /**
     * The fast path for an XPath selecting the nodes that have not acknowledged (the shapes above
     * with the {@code [not(. = $acked)]} return), or {@code null} when Saxon must evaluate it.
     */
    public static AckQueryFastPath silentOf(String text) {
        Matcher m = SILENT_BY_MODE.matcher(text);
        if (m.matches()) {
            return new AckQueryFastPath(either(m, 1), either(m, 3));
        }
        m = SILENT_CHILDREN.matcher(text);
        if (m.matches()) {
            return new AckQueryFastPath(null, either(m, 1));
        }
        return null;
    }

    private static String either(Matcher m, int group) {
        return m.group(group) != null ? m.group(group) : m.group(group + 1);
    }

    /** The query's truth on {@code history} (as {@link CompiledQuery#isTrue} reads Saxon's result). */
    public boolean evaluate(History history) {
        List<LogicalAddress> expected = expected(history);
        if (expected == null) {
            return false;
        }
        List<HistoryEntry> entries = history.entries();
        for (int c = 0, k = expected.size(); c < k; c++) {
            if (!acknowledged(history, entries, expected.get(c))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The expected nodes that have not acknowledged, in the node record's order (Saxon's
     * document order; an address listed twice is selected twice), as a path of {@link #silentOf}
     * selects them; empty without a node record.
     */
    public List<LogicalAddress> silent(History history) {
        List<LogicalAddress> expected = expected(history);
        if (expected == null) {
            return List.of();
        }
        List<HistoryEntry> entries = history.entries();
        List<LogicalAddress> out = null;
        for (int c = 0, k = expected.size(); c < k; c++) {
            LogicalAddress who = expected.get(c);
            if (!acknowledged(history, entries, who)) {
                if (out == null) {
                    out = new ArrayList<>(k - c);
                }
                out.add(who);
            }
        }
        return out == null ? List.of() : out;
    }

    /** Whom the node expects acknowledgements from; {@code null} without a node record. */
    private List<LogicalAddress> expected(History history) {
        List<HistoryEntry> entries = history.entries();
        NodeSnapshot node = null;
        // Event[@name = P][1]: the first such event, a timer event too (it has no Message)
        HistoryEntry first = null;
        for (int i = 0, n = entries.size(); i < n; i++) {
            if (!history.hasXml(i)) {
                continue;
            }
            HistoryEntry e = entries.get(i);
            if (e instanceof HistoryEntry.NodeRecord r) {
                node = r.node();
            } else if (first == null && payloadEvent != null && payloadEvent.equals(name(e))) {
                first = e;
            }
        }
        if (node == null) {
            return null;
        }
        if (first instanceof HistoryEntry.MessageEvent payload && payload.message().mode() == DeliveryMode.UNICAST) {
            return node.parent() == null ? List.of() : List.of(node.parent());
        }
        return node.children();
    }

    private static String name(HistoryEntry e) {
        if (e instanceof HistoryEntry.MessageEvent m) {
            return m.name();
        }
        return e instanceof HistoryEntry.TimerEvent t ? t.name() : null;
    }

    private boolean acknowledged(History history, List<HistoryEntry> entries, LogicalAddress who) {
        for (int i = 0, n = entries.size(); i < n; i++) {
            if (entries.get(i) instanceof HistoryEntry.MessageEvent me && me.name().equals(ackEvent)
                    && history.hasXml(i) && who.equals(me.message().source())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "AckQueryFastPath[" + (payloadEvent == null ? "children" : "by mode of " + payloadEvent) + ", acks "
                + ackEvent + "]";
    }
}
