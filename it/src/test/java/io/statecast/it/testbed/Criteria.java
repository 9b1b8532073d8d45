package io.statecast.it.testbed;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * When a send rate is <em>sustainable</em> (the blueprint: the delay does not grow and nothing is
 * lost), made measurable:
 * <ol>
 *   <li>every receiver reported, and none missed a message;</li>
 *   <li>at every receiver the delay does not grow: the least-squares slope of delay over send
 *       time, fitted to the second half of the sequence numbers (the first half holds the
 *       start-up transient), is at most {@code maxSlopeMsPerS}. A system that keeps only
 *       {@code 1 - f} of the offered rate builds delay at {@code 1000 f / (1 - f)} ms per second,
 *       so the default of 5 ms/s catches an overload of half a percent;</li>
 *   <li>the sender achieved at least {@code minSendRatio} of the rate (a sender starved of CPU
 *       does not test the rate it was given).</li>
 * </ol>
 *
 * @param maxSlopeMsPerS most delay growth allowed, ms per second of sending
 * @param minSendRatio   least achieved / target send rate
 */
record Criteria(double maxSlopeMsPerS, double minSendRatio) {

    static final Criteria DEFAULT = new Criteria(5.0, 0.98);

    Criteria {
        if (!(maxSlopeMsPerS > 0)) {
            throw new IllegalArgumentException("max slope " + maxSlopeMsPerS + " must be > 0");
        }
        if (!(minSendRatio > 0 && minSendRatio <= 1)) {
            throw new IllegalArgumentException("min send ratio " + minSendRatio + " must be within (0, 1]");
        }
    }

    /** The verdict: empty if sustainable, else the reasons. */
    List<String> failures(RunResult r) {
        List<String> why = new ArrayList<>();
        if (r.sender() == null) {
            why.add("the sender wrote no report (exit " + r.senderExit() + ")");
        }
        for (RunResult.Receiver rc : r.receivers()) {
            if (rc.summary() == null) {
                why.add("node " + rc.node() + " wrote no report (exit " + rc.exit() + ")");
                continue;
            }
            if (rc.missing() != 0) {
                why.add("node " + rc.node() + " missed " + rc.missing());
            }
            double slope = rc.get("delaySlopeMsPerS");
            if (Double.isNaN(slope) || slope > maxSlopeMsPerS) {
                why.add(String.format(Locale.ROOT, "node %d delay grows %.1f ms/s", rc.node(), slope));
            }
        }
        double target = r.experiment().messagesPerSecond();
        double achieved = r.achievedMessagesPerSecond();
        if (!Double.isInfinite(target) && !(achieved >= minSendRatio * target)) {
            why.add(String.format(Locale.ROOT, "sender reached %.0f of %.0f msgs/s", achieved, target));
        }
        return why;
    }
}
