/**
 * Simulation of whole DT overlays on the in-memory substrate with a virtual clock:
 * {@link io.statecast.overlay.sim.DtSimulation} (sockets on one {@code MemNetwork}, churn, faults),
 * {@link io.statecast.overlay.sim.DtSimRun} (one mass-join run and its
 * {@link io.statecast.overlay.sim.SimReport}), {@link io.statecast.overlay.sim.DelaunayCheck} (an
 * independent judge of the result). The {@code statecast sim} command that runs them is the
 * launcher's (examples).
 */
package io.statecast.overlay.sim;
