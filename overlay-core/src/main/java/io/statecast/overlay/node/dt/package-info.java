/**
 * The exact geometry of the Delaunay-triangulation (DT) overlay: predicates and the one
 * cocircularity rule ({@link io.statecast.overlay.node.dt.Predicates}), the local neighbour test
 * ({@link io.statecast.overlay.node.dt.NeighbourTest}), angular order and CW/CCW neighbours
 * ({@link io.statecast.overlay.node.dt.AngularOrder}), compass and greedy routing
 * ({@link io.statecast.overlay.node.dt.CompassRouting}) and the leader rule
 * ({@link io.statecast.overlay.node.dt.Leader}). Pure functions of coordinates: no I/O, no
 * threads, no floating point. Design: {@code docs/dt-geometry.md}.
 */
package io.statecast.overlay.node.dt;
