package io.statecast.it.testbed;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Finds the highest sustainable send rate for one hop count and service: climbs a ladder of rates
 * until one is not sustainable (or, if the lowest already fails, halves it down to a floor), then
 * bisects between the best sustainable and the lowest unsustainable rate a few times.
 */
final class SustainableSearch {

    /** What a search found. */
    record Outcome(int hops, String service, Double sustainableMbps, Double lowestUnsustainableMbps, List<RunResult> runs) {
    }

    /** Runs an experiment at a rate. */
    @FunctionalInterface
    interface Runner {
        RunResult run(double rateMbps) throws IOException, InterruptedException;
    }

    private final List<Double> ladder;
    private final int refinements;
    private final double floorMbps;

    /**
     * @param ladder      rates to try, ascending, Mbit/s
     * @param refinements bisection steps after the ladder
     * @param floorMbps   lowest rate tried when even the ladder's first fails
     */
    SustainableSearch(List<Double> ladder, int refinements, double floorMbps) {
        if (ladder.isEmpty()) {
            throw new IllegalArgumentException("no rates to try");
        }
        List<Double> sorted = new ArrayList<>(ladder);
        sorted.sort(Double::compare);
        this.ladder = List.copyOf(sorted);
        this.refinements = refinements;
        this.floorMbps = floorMbps;
    }

    Outcome search(int hops, String service, Runner runner) throws IOException, InterruptedException {
        Objects.requireNonNull(runner, "runner");
        List<RunResult> runs = new ArrayList<>();
        Double lo = null;
        Double hi = null;
        for (double r : ladder) {
            RunResult res = runner.run(r);
            runs.add(res);
            if (res.sustainable()) {
                lo = r;
            } else {
                hi = r;
                break;
            }
        }
        if (lo == null) {
            for (double r = ladder.get(0) / 2; r >= floorMbps; r /= 2) {
                RunResult res = runner.run(r);
                runs.add(res);
                if (res.sustainable()) {
                    lo = r;
                    break;
                }
                hi = r;
            }
        }
        for (int k = 0; k < refinements && lo != null && hi != null && hi / lo > 1.05; k++) {
            double mid = Math.round((lo + hi) / 2 * 100) / 100.0;
            RunResult res = runner.run(mid);
            runs.add(res);
            if (res.sustainable()) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return new Outcome(hops, service, lo, hi, List.copyOf(runs));
    }
}
