package io.statecast.messagestore.tools.scenario;

/**
 * Bounds on a scenario file, so that a hostile or mistaken file cannot exhaust memory or time.
 *
 * @param maxBytes  largest document, in characters (default 1 MiB)
 * @param maxNodes  most values (mappings, lists, scalars) in a document (default 200 000)
 * @param maxSteps  most steps (default 10 000)
 * @param maxCalls  most primitive calls one scenario may make in all (default 100 000); a spec in a
 *                  timer loop fails the scenario instead of running for ever
 * @param maxAdvanceMillis longest one step may advance the virtual clock (default one day)
 */
public record ScenarioLimits(int maxBytes, int maxNodes, int maxSteps, int maxCalls, long maxAdvanceMillis) {

    /** The defaults. */
    public static final ScenarioLimits DEFAULTS = new ScenarioLimits(1 << 20, 200_000, 10_000, 100_000, 86_400_000L);

    /** Requires positive bounds. */
    public ScenarioLimits {
        if (maxBytes <= 0 || maxNodes <= 0 || maxSteps <= 0 || maxCalls <= 0 || maxAdvanceMillis <= 0) {
            throw new IllegalArgumentException("scenario limits must be positive");
        }
    }
}
