/**
 * The blueprint's <em>adapter</em> and its substrate interfaces: the bottom layer of an overlay
 * socket.
 *
 * <ul>
 *   <li>{@link io.statecast.overlay.substrate.Adapter}: owns the interfaces, the codec, the
 *       {@link io.statecast.overlay.address.AddressRepository address repository} and the
 *       {@link io.statecast.overlay.substrate.TimerService timer service}; decodes and
 *       bound-checks every received frame, hands protocol messages and application messages to an
 *       {@link io.statecast.overlay.substrate.AdapterListener}, and counts every drop by cause
 *       ({@link io.statecast.overlay.substrate.AdapterMetrics}).</li>
 *   <li>{@link io.statecast.overlay.substrate.SubstrateInterface}: moves opaque frames.
 *       {@link io.statecast.overlay.substrate.UdpInterface} (a datagram per frame, small frames
 *       for one destination packed together), {@link io.statecast.overlay.substrate.TcpInterface}
 *       (length-prefixed frames over one connection per peer), both Netty channel pipelines of a
 *       codec and handlers, and {@link io.statecast.overlay.substrate.MemInterface} on a
 *       {@link io.statecast.overlay.substrate.MemNetwork} (in-process, deterministic on a
 *       {@link io.statecast.overlay.substrate.VirtualTimerService}).</li>
 *   <li>{@link io.statecast.overlay.substrate.FaultModel}: seeded loss, duplication, reordering,
 *       delay and blackholes, per link in a {@code MemNetwork} or at any interface's input or
 *       output through {@link io.statecast.overlay.substrate.FaultyInterface}.</li>
 * </ul>
 *
 * <p><b>Threading.</b> Frames are delivered, and listeners called, on the delivering interface's
 * I/O thread (a Netty event loop) or, in memory, on the timer service's thread; they must not
 * block. Sending never blocks and may happen on any thread. Timer tasks run one at a time on the
 * timer service's thread.
 *
 * <p><b>Buffers.</b> Whoever holds a frame releases it: {@code send} takes ownership of the frame
 * it is given; a {@link io.statecast.overlay.substrate.FrameReceiver} owns every frame it is handed.
 */
package io.statecast.overlay.substrate;
