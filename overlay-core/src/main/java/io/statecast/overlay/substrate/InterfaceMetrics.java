package io.statecast.overlay.substrate;

/** Counters of one {@link SubstrateInterface}. (Stub: the substrate work fills this in.) */
public final class InterfaceMetrics {
}
