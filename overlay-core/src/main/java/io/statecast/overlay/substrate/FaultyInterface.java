package io.statecast.overlay.substrate;

import io.netty.buffer.ByteBuf;
import io.statecast.overlay.address.SubstrateAddress;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Wraps any {@link SubstrateInterface} and applies a {@link FaultModel} to the frames it receives
 * (the link {@code sender -> this interface}) and, optionally, to those it sends
 * ({@code this interface -> destination}). This is how a demo over real UDP or TCP injects loss at
 * one node's input, below the adapter and everything above it.
 *
 * <p>Frames without delay pass on the calling thread (the inner interface's I/O thread on input,
 * the sender's thread on output). Delayed, reordered and duplicate copies are handed on later from
 * the given {@link TimerService}'s thread. A dropped outgoing frame is reported as sent
 * ({@link #send} returns true), as a lossy network would; the model's {@link FaultStats} count it.
 */
public final class FaultyInterface implements SubstrateInterface {

    private final SubstrateInterface inner;
    private final TimerService timers;
    private final FaultModel input;
    private final FaultModel output;
    private volatile boolean closed;

    /**
     * @param inner  the interface to wrap; this wrapper starts and closes it
     * @param timers runs delayed deliveries
     * @param input  faults on received frames, or {@code null} for none
     * @param output faults on sent frames, or {@code null} for none
     */
    public FaultyInterface(SubstrateInterface inner, TimerService timers, FaultModel input, FaultModel output) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.timers = Objects.requireNonNull(timers, "timers");
        this.input = input;
        this.output = output;
    }

    /** Faults at the input only. */
    public static FaultyInterface atInput(SubstrateInterface inner, TimerService timers, FaultModel input) {
        return new FaultyInterface(inner, timers, Objects.requireNonNull(input, "input"), null);
    }

    /** The wrapped interface. */
    public SubstrateInterface inner() {
        return inner;
    }

    /** The model applied to received frames, or {@code null}. */
    public FaultModel inputFaults() {
        return input;
    }

    /** The model applied to sent frames, or {@code null}. */
    public FaultModel outputFaults() {
        return output;
    }

    @Override
    public SubstrateAddress localAddress() {
        return inner.localAddress();
    }

    @Override
    public SubstrateAddress.Scheme scheme() {
        return inner.scheme();
    }

    @Override
    public void start(FrameReceiver receiver) throws IOException {
        Objects.requireNonNull(receiver, "receiver");
        if (input == null) {
            inner.start(receiver);
            return;
        }
        inner.start((frame, from) -> {
            FaultModel.Fate fate = input.decide(from, inner.localAddress());
            apply(fate, frame, copy -> deliver(receiver, copy, from));
        });
    }

    private void deliver(FrameReceiver receiver, ByteBuf frame, SubstrateAddress from) {
        if (closed) {
            frame.release();
            return;
        }
        receiver.onFrame(frame, from);
    }

    @Override
    public boolean send(SubstrateAddress to, ByteBuf frame) {
        if (output == null) {
            return inner.send(to, frame);
        }
        if (closed || to.scheme() != scheme()) {
            return inner.send(to, frame); // the inner interface counts and releases
        }
        FaultModel.Fate fate = output.decide(inner.localAddress(), to);
        if (fate.copies() == 1 && fate.delayNanos() == 0) {
            return inner.send(to, frame);
        }
        apply(fate, frame, copy -> {
            if (closed) {
                copy.release();
            } else {
                inner.send(to, copy);
            }
        });
        return true;
    }

    /** Hands {@code frame} to {@code sink} as {@code fate} says; releases it when dropped. */
    private void apply(FaultModel.Fate fate, ByteBuf frame, java.util.function.Consumer<ByteBuf> sink) {
        switch (fate.copies()) {
            case 0 -> frame.release();
            case 1 -> later(fate.delayNanos(), frame, sink);
            default -> {
                ByteBuf second = frame.copy();
                later(fate.delayNanos(), frame, sink);
                later(fate.duplicateDelayNanos(), second, sink);
            }
        }
    }

    private void later(long delayNanos, ByteBuf frame, java.util.function.Consumer<ByteBuf> sink) {
        if (delayNanos == 0) {
            sink.accept(frame);
        } else {
            timers.schedule(delayNanos, TimeUnit.NANOSECONDS, () -> sink.accept(frame));
        }
    }

    @Override
    public boolean isWritable(SubstrateAddress to) {
        return inner.isWritable(to);
    }

    @Override
    public InterfaceMetrics metrics() {
        return inner.metrics();
    }

    @Override
    public void close() {
        closed = true;
        inner.close();
    }

    @Override
    public String toString() {
        return "Faulty[" + inner + "]";
    }
}
