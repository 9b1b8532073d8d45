/**
 * The blueprint's <em>overlay node</em>: the {@link io.statecast.overlay.node.OverlayNode}
 * contract shared by every kind of overlay, the immutable
 * {@link io.statecast.overlay.node.Topology} snapshot other threads read, the node states, and
 * what a node is built on. Implementations live in sub-packages: {@code tree} (a spanning tree of
 * integer identifiers) and {@code dt} (the Delaunay triangulation).
 */
package io.statecast.overlay.node;
