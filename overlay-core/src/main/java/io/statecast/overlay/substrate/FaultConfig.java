package io.statecast.overlay.substrate;

import java.time.Duration;
import java.util.Objects;

/**
 * What a {@link FaultModel} does to the frames of one link (or of every link without its own
 * setting). Each frame is treated independently, in this order:
 * <ol>
 *   <li><b>loss</b>: dropped with probability {@code lossProbability};</li>
 *   <li><b>delay</b>: a surviving frame is delivered after {@code fixedDelay} plus a delay drawn
 *       uniformly from {@code [0, jitter]};</li>
 *   <li><b>reordering</b>: with probability {@code reorderProbability} the frame is held back by a
 *       further delay drawn uniformly from {@code (0, reorderDelay]}, so that frames sent after it
 *       within that time overtake it. Reordering is thus defined as <em>extra delay</em>, not as a
 *       window: a frame is counted as reordered when it is held back, whether or not a later frame
 *       actually overtakes it (that needs traffic within the extra delay);</li>
 *   <li><b>duplication</b>: with probability {@code duplicateProbability} a second copy is
 *       delivered, after its own delay drawn as in step 2 (not reordered).</li>
 * </ol>
 * Jitter alone also reorders frames sent closer together than the jitter.
 *
 * @param lossProbability      0..1; default 0
 * @param duplicateProbability 0..1; default 0
 * @param reorderProbability   0..1; default 0; above 0 needs a positive {@code reorderDelay}
 * @param reorderDelay         largest extra delay of a reordered frame, 0..1 h; default 0
 * @param fixedDelay           delay of every frame, 0..1 h; default 0
 * @param jitter               largest uniform extra delay of every frame, 0..1 h; default 0
 */
public record FaultConfig(
        double lossProbability,
        double duplicateProbability,
        double reorderProbability,
        Duration reorderDelay,
        Duration fixedDelay,
        Duration jitter) {

    /** Longest delay of any kind; declared before {@link #NONE}, which is validated against it. */
    private static final Duration MAX_DELAY = Duration.ofHours(1);

    /** No faults and no delay. */
    public static final FaultConfig NONE = new FaultConfig(0, 0, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO);

    /** Validates every field, naming it and its limit on failure. */
    public FaultConfig {
        probability("lossProbability", lossProbability);
        probability("duplicateProbability", duplicateProbability);
        probability("reorderProbability", reorderProbability);
        delay("reorderDelay", reorderDelay);
        delay("fixedDelay", fixedDelay);
        delay("jitter", jitter);
        if (reorderProbability > 0 && reorderDelay.isZero()) {
            throw new IllegalArgumentException("reorderProbability=" + reorderProbability + " needs reorderDelay > 0");
        }
    }

    private static void probability(String name, double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(name + "=" + p + " must be within 0..1");
        }
    }

    private static void delay(String name, Duration d) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.compareTo(MAX_DELAY) > 0) {
            throw new IllegalArgumentException(name + "=" + d + " must be within 0..1 h");
        }
    }

    /** Only loss. */
    public static FaultConfig loss(double probability) {
        return NONE.withLoss(probability);
    }

    /** This configuration with another loss probability. */
    public FaultConfig withLoss(double probability) {
        return new FaultConfig(probability, duplicateProbability, reorderProbability, reorderDelay, fixedDelay, jitter);
    }

    /** This configuration with another duplication probability. */
    public FaultConfig withDuplication(double probability) {
        return new FaultConfig(lossProbability, probability, reorderProbability, reorderDelay, fixedDelay, jitter);
    }

    /** This configuration with reordering: probability and largest extra delay. */
    public FaultConfig withReordering(double probability, Duration extraDelay) {
        return new FaultConfig(lossProbability, duplicateProbability, probability, extraDelay, fixedDelay, jitter);
    }

    /** This configuration with another delay distribution: {@code fixed} plus uniform {@code [0, jitter]}. */
    public FaultConfig withDelay(Duration fixed, Duration jitter) {
        return new FaultConfig(lossProbability, duplicateProbability, reorderProbability, reorderDelay, fixed, jitter);
    }

    /** Whether every frame passes at once, unchanged. */
    public boolean isNone() {
        return lossProbability == 0 && duplicateProbability == 0 && reorderProbability == 0
                && fixedDelay.isZero() && jitter.isZero();
    }
}
