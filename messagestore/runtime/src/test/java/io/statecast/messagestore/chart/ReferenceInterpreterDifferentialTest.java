package io.statecast.messagestore.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.apache.commons.scxml.Context;
import org.apache.commons.scxml.ErrorReporter;
import org.apache.commons.scxml.Evaluator;
import org.apache.commons.scxml.EventDispatcher;
import org.apache.commons.scxml.SCInstance;
import org.apache.commons.scxml.SCXMLExecutor;
import org.apache.commons.scxml.TriggerEvent;
import org.apache.commons.scxml.env.SimpleContext;
import org.apache.commons.scxml.env.SimpleDispatcher;
import org.apache.commons.scxml.io.SCXMLParser;
import org.apache.commons.scxml.model.CustomAction;
import org.apache.commons.scxml.model.SCXML;
import org.apache.commons.scxml.model.TransitionTarget;
import org.junit.jupiter.api.Test;
import org.xml.sax.InputSource;

/**
 * The engine against Commons SCXML 0.9 as the reference interpreter: random charts (compound
 * states up to three deep, a top-level final, targeted and targetless transitions, entry and exit
 * content) driven through random event sequences; after every event both must be in the same
 * atomic states, having run the same entry, exit and transition content in the same order.
 *
 * <p>The subset is the one where the two specifications agree: no conditions or datamodel (0.9
 * has no XPath), no eventless transitions or nested finals (0.9 predates the Recommendation's
 * algorithm there), no parallel states (0.9's {@code <parallel>} takes neither transitions nor
 * entry content: its draft differs), and at most one transition per state and event. The W3C
 * tests cover the rest.
 */
class ReferenceInterpreterDifferentialTest {

    private static final String MARK_NS = "urn:statecast:test";
    private static final String[] EVENTS = {"a", "b", "c", "d"};
    private static final int CHARTS = 300;
    private static final int EVENTS_PER_CHART = 40;

    @Test
    void shouldAgreeWithTheReferenceInterpreterOnRandomChartsAndEvents() throws Exception {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random random = new Random(seed);
        for (int n = 0; n < CHARTS; n++) {
            String text = randomChart(random);
            List<String> events = new ArrayList<>();
            for (int i = 0; i < EVENTS_PER_CHART; i++) {
                events.add(EVENTS[random.nextInt(EVENTS.length)]);
            }
            String context = "seed " + seed + ", chart " + n + " (rerun with -Dstatecast.seed=" + seed + "):\n" + text
                    + "\nevents " + events;
            compare(text, events, context);
        }
    }

    private static void compare(String text, List<String> events, String context) throws Exception {
        // the engine
        Chart chart = Charts.compile(text, new ChartOptions(true, null, false,
                e -> MARK_NS.equals(e.getNamespaceURI()) ? e.getAttribute("name") : null));
        List<String> oursTrace = new ArrayList<>();
        Charts.Host host = new Charts.Host() {
            @Override
            public void custom(Object payload) {
                oursTrace.add((String) payload);
            }
        };
        Session ours = new Session(chart, host, ChartLimits.DEFAULTS, "diff");
        // the reference
        SCXML model = SCXMLParser.parse(new InputSource(new StringReader(text)), null,
                List.of(new CustomAction(MARK_NS, "mark", Mark.class)));
        SCXMLExecutor ref = new SCXMLExecutor(new NoEvaluator(), new SimpleDispatcher(), new QuietReporter());
        ref.setStateMachine(model);
        Context root = new SimpleContext();
        List<String> refTrace = new ArrayList<>();
        root.set("trace", refTrace);
        ref.setRootContext(root);

        ours.start();
        ref.go();
        assertEquals(refTrace, oursTrace, "entry content at start\n" + context);
        assertEquals(states(ref), new TreeSet<>(ours.activeAtomicStates()), "start\n" + context);
        for (int i = 0; i < events.size(); i++) {
            oursTrace.clear();
            refTrace.clear();
            boolean refEnded = ref.getCurrentStatus().isFinal();
            ours.process(ChartEvent.external(events.get(i)));
            if (!refEnded) {
                ref.triggerEvent(new TriggerEvent(events.get(i), TriggerEvent.SIGNAL_EVENT));
            }
            String where = "after event " + i + " (" + events.get(i) + ")\n" + context;
            assertEquals(refTrace, oursTrace, "content run " + where);
            assertEquals(states(ref), new TreeSet<>(ours.activeAtomicStates()), "states " + where);
        }
    }

    private static TreeSet<String> states(SCXMLExecutor e) {
        TreeSet<String> ids = new TreeSet<>();
        for (Object o : e.getCurrentStatus().getStates()) {
            ids.add(((TransitionTarget) o).getId());
        }
        return ids;
    }

    // ---- random charts ---------------------------------------------------------------------

    private static String randomChart(Random r) {
        List<String> ids = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        int top = 2 + r.nextInt(3);
        List<StringBuilder> pending = new ArrayList<>();
        for (int i = 0; i < top; i++) {
            state(r, body, ids, 1, pending);
        }
        ids.add("end");
        // transitions are written once every id exists, so any state can be a target
        String out = body.toString();
        for (String id : new ArrayList<>(ids)) {
            if (id.equals("end")) {
                continue;
            }
            StringBuilder ts = new StringBuilder();
            List<String> used = new ArrayList<>();
            int k = r.nextInt(3);
            for (int t = 0; t < k; t++) {
                String ev = EVENTS[r.nextInt(EVENTS.length)];
                if (used.contains(ev)) {
                    continue;
                }
                used.add(ev);
                String target = r.nextInt(5) == 0 ? null : ids.get(r.nextInt(ids.size()));
                ts.append("<transition event=\"").append(ev).append('"');
                if (target != null) {
                    ts.append(" target=\"").append(target).append('"');
                }
                ts.append("><m:mark name=\"t ").append(id).append(' ').append(ev).append("\"/></transition>");
            }
            out = out.replace("<!--T " + id + "-->", ts.toString());
        }
        return "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" xmlns:m=\"" + MARK_NS + "\" version=\"1.0\" "
                + "initialstate=\"" + ids.get(0) + "\">" + out + "<final id=\"end\"/></scxml>";
    }

    private static void state(Random r, StringBuilder out, List<String> ids, int depth, List<StringBuilder> pending) {
        String id = "s" + ids.size();
        ids.add(id);
        boolean compound = depth < 3 && r.nextInt(3) == 0;
        out.append("<state id=\"").append(id).append('"');
        int childStart = ids.size();
        StringBuilder children = new StringBuilder();
        if (compound) {
            int n = 2 + r.nextInt(2);
            for (int i = 0; i < n; i++) {
                state(r, children, ids, depth + 1, pending);
            }
            // the default initial state: one of the direct children, not always the first
            List<String> direct = new ArrayList<>();
            for (int i = childStart; i < ids.size(); i++) {
                if (children.indexOf("<state id=\"" + ids.get(i) + "\"") >= 0 && isDirectChild(children, ids.get(i))) {
                    direct.add(ids.get(i));
                }
            }
            out.append(" initial=\"").append(direct.get(r.nextInt(direct.size()))).append('"');
        }
        out.append('>');
        out.append("<onentry><m:mark name=\"enter ").append(id).append("\"/></onentry>");
        out.append("<onexit><m:mark name=\"exit ").append(id).append("\"/></onexit>");
        out.append("<!--T ").append(id).append("-->");
        out.append(children);
        out.append("</state>");
    }

    /** Whether {@code id}'s element is at nesting depth 0 of {@code children}. */
    private static boolean isDirectChild(StringBuilder children, String id) {
        int at = children.indexOf("<state id=\"" + id + "\"");
        String before = children.substring(0, at);
        int open = before.split("<state ", -1).length - 1;
        int close = before.split("</state>", -1).length - 1;
        return open == close;
    }

    // ---- the reference's plumbing --------------------------------------------------------------

    /** {@code <m:mark name>}: appends its name to the trace in the executor's root context. */
    public static final class Mark extends org.apache.commons.scxml.model.Action {
        private static final long serialVersionUID = 1L;
        private String name;

        public void setName(String name) {
            this.name = name;
        }

        public String getName() {
            return name;
        }

        @Override
        @SuppressWarnings({"rawtypes", "unchecked"})
        public void execute(EventDispatcher d, ErrorReporter e, SCInstance instance,
                org.apache.commons.logging.Log log, java.util.Collection derived) {
            ((List<String>) instance.getRootContext().get("trace")).add(name);
        }
    }

    /** The test's charts have no expressions. */
    private static final class NoEvaluator implements Evaluator, java.io.Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Object eval(Context ctx, String expr) {
            return null;
        }

        @Override
        public Boolean evalCond(Context ctx, String expr) {
            return Boolean.TRUE;
        }

        @Override
        public org.w3c.dom.Node evalLocation(Context ctx, String expr) {
            return null;
        }

        @Override
        public Context newContext(Context parent) {
            return new SimpleContext(parent);
        }
    }

    private static final class QuietReporter implements ErrorReporter, java.io.Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public void onError(String code, String detail, Object context) {
            throw new AssertionError("the reference reported " + code + ": " + detail);
        }
    }
}
