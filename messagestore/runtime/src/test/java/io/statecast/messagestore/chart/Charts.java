package io.statecast.messagestore.chart;

import io.statecast.messagestore.spec.SpecDocuments;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLimits;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/** Builds charts from text and runs sessions on a virtual clock, for the engine's tests. */
final class Charts {

    static final ChartCompiler COMPILER = new ChartCompiler();

    private Charts() {
    }

    /** {@code body} inside an {@code <scxml datamodel="xpath">} element. */
    static String scxml(String attributes, String body) {
        return "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" datamodel=\"xpath\" " + attributes
                + ">\n" + body + "\n</scxml>";
    }

    static Chart compile(String text, ChartOptions options) throws SpecException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return COMPILER.compile("chart.scxml", SpecDocuments.read("chart.scxml", bytes, SpecLimits.DEFAULTS), options);
    }

    static Chart lenient(String text) throws SpecException {
        return compile(text, new ChartOptions(false, null));
    }

    /** A host on a virtual clock that records its log. */
    static class Host implements ChartHost {
        private record Task(long due, long seq, Runnable run) {
        }

        final List<String> log = new ArrayList<>();
        private final PriorityQueue<Task> tasks = new PriorityQueue<>((a, b) ->
                a.due != b.due ? Long.compare(a.due, b.due) : Long.compare(a.seq, b.seq));
        long now;
        private long seq;

        @Override
        public void log(String label, String value) {
            log.add(label + ": " + value);
        }

        @Override
        public Object schedule(long delayMillis, Runnable task) {
            Task t = new Task(now + delayMillis, seq++, task);
            tasks.add(t);
            return t;
        }

        @Override
        public void cancel(Object handle) {
            tasks.remove(handle);
        }

        int pending() {
            return tasks.size();
        }

        /** Advances the clock by {@code millis}, running what falls due, then the session's own events. */
        void advance(Session s, long millis) {
            long until = now + millis;
            while (!tasks.isEmpty() && tasks.peek().due <= until) {
                Task t = tasks.poll();
                now = t.due;
                t.run.run();
                s.processExternal();
            }
            now = until;
            s.processExternal();
        }
    }
}
