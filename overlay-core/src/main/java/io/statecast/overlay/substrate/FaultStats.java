package io.statecast.overlay.substrate;

/**
 * What a {@link FaultModel} has done so far, to check a run against its configuration.
 *
 * @param seen        frames the model decided on
 * @param lost        frames dropped by random loss
 * @param blackholed  frames dropped because their node or link was blackholed
 * @param duplicated  frames delivered twice
 * @param reordered   frames held back by the reordering delay
 * @param delivered   copies passed on: {@code seen - lost - blackholed + duplicated}
 */
public record FaultStats(long seen, long lost, long blackholed, long duplicated, long reordered, long delivered) {

    /** Lost frames as a fraction of frames seen that were not blackholed (0 when none). */
    public double lossRate() {
        long exposed = seen - blackholed;
        return exposed == 0 ? 0 : (double) lost / exposed;
    }

    /** Duplicated frames as a fraction of frames that survived loss (0 when none). */
    public double duplicationRate() {
        long survived = seen - blackholed - lost;
        return survived == 0 ? 0 : (double) duplicated / survived;
    }

    /** Reordered frames as a fraction of frames that survived loss (0 when none). */
    public double reorderRate() {
        long survived = seen - blackholed - lost;
        return survived == 0 ? 0 : (double) reordered / survived;
    }
}
