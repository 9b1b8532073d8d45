package io.statecast.overlay.socket;

/** The kind of overlay a socket joins; each has its own overlay node and logical-address family. */
public enum NodeType {
    /** Delaunay triangulation of 2-D integer coordinates (HyperCast's DT). */
    DT,
    /** A spanning tree over integer ids, rooted at the largest. */
    TREE
}
