package io.statecast.examples.ttcp;

import io.statecast.overlay.socket.OverlaySocket;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Samples, every period, what the blueprint plots over time: heap in use, the socket's
 * application queue, the MessageStore's backlogs, live instances and T_msg (when its
 * {@link StoreProbe} reads them), and the run's progress; beside them the process's CPU time and
 * the JIT's and the collectors' accumulated times, the machine's idle and steal time and the process's
 * context switches and a {@link SpeedCanary}'s time, which tell a start-of-run transient's cause
 * (compilation, collection, or the work itself) apart, and a costly stretch's: threads woken more
 * often, or a processor running the same code slower. Runs on its own daemon thread;
 * {@link #stop()} takes a last sample.
 */
final class Sampler {

    /**
     * One sample; store fields are null when the probe reads nothing. {@code cpuMicros} is the
     * process's CPU time, {@code jitMillis} the JIT's accumulated compilation time and
     * {@code gcMillis} the collectors' accumulated collection time (for ZGC its cycles' and pauses'
     * wall time), {@code machine} the machine's accumulated idle and steal time ({@link MachineCpuTime}),
     * {@code switches} the process's context switches ({@link ContextSwitches}), {@code canaryNanos}
     * the CPU time of the sampler's fixed work ({@link SpeedCanary}); the switches on every
     * {@value #SWITCHES_EVERY}th sample and the last; each is -1 where it is not measured.
     */
    record Sample(long tMicros, long heapUsedBytes, long heapCommittedBytes, int appQueue, long progress,
            StoreProbe.Snapshot store, long cpuMicros, long jitMillis, long gcMillis, MachineCpuTime.Times machine,
            ContextSwitches.Counts switches, long canaryNanos) {
    }

    /**
     * Samples between two readings of the context switches, and the last: reading every thread's
     * status takes about half a millisecond of CPU in a node's JVM, which on every sample would be
     * half a per cent of a core per node in runs that are measured by their CPU. The canary (0.1
     * ms) runs on every sample: a single reading can take an interrupt's work with it, so a
     * one-second run needs many for a median.
     */
    static final int SWITCHES_EVERY = 5;

    /** Most samples kept: at 100 ms, almost three hours. */
    static final int MAX_SAMPLES = 100_000;

    private final OverlaySocket socket;
    private final StoreProbe probe;
    private final EpochClock clock;
    private final LongSupplier progress;
    private final long periodMs;
    private final List<Sample> samples = new ArrayList<>();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final LongSupplier cpuNanos = CpuMeter.processCpuNanos();
    private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
    /** Used by the sampling thread, and by {@link #stop()}'s caller once that thread has ended. */
    private final ContextSwitches switches = new ContextSwitches();
    private final SpeedCanary canary = new SpeedCanary();
    private long samplesTaken;
    private ScheduledThreadPoolExecutor executor;
    private boolean started;
    private long dropped;

    Sampler(OverlaySocket socket, StoreProbe probe, EpochClock clock, LongSupplier progress, long periodMs) {
        this.socket = socket;
        this.probe = probe;
        this.clock = clock;
        this.progress = progress;
        this.periodMs = periodMs;
    }

    /**
     * Creates and starts the sampling thread without sampling yet, and waits while it compiles the
     * {@link SpeedCanary}'s work and its readings' code ({@link #warm()}), so that {@link #start()} only hands it
     * the periodic task: a receiver prepares before it joins and starts right after, keeping thread
     * creation off the path from join to the first message; the sender prepares before its warm-up
     * and starts at the run, so neither is compiled, nor the canary timed cold, in the measured run.
     */
    synchronized void prepare() {
        if (executor != null) {
            return;
        }
        executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "statecast-ttcp-sampler");
            t.setDaemon(true);
            return t;
        });
        executor.prestartCoreThread();
        Future<?> warmed = executor.submit(this::warm);
        try {
            warmed.get(); // about 0.1 s of CPU, done before a receiver joins so that none of it overlaps the join
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            // warming is an optimisation; a reading that fails here is skipped in sample() too
        }
    }

    /** Starts sampling now and every period after (prepares first if that was not done). */
    synchronized void start() {
        if (started) {
            return;
        }
        prepare();
        started = true;
        executor.scheduleAtFixedRate(() -> sample(false), 0, periodMs, TimeUnit.MILLISECONDS);
    }

    /** Readings a prepared sampler takes and throws away, so that its reading code is compiled before a run. */
    static final int WARM_READINGS = 20;

    /**
     * Runs on the sampling thread when it is prepared: compiles the canary's work and the readings'
     * code (the {@code /proc} files' parsing, the store's probe) before the samples that count. The
     * sender's sampler used to read for the first time as its measured run began, and the JIT's
     * work on that code (32 ms in a one-second run) fell into the run.
     */
    private void warm() {
        canary.warm();
        try {
            for (int i = 0; i < WARM_READINGS; i++) {
                MachineCpuTime.read();
                switches.read();
                probe.snapshot();
                memory.getHeapMemoryUsage();
                jitMillis();
                gcMillis();
            }
        } catch (RuntimeException e) {
            // a failing probe fails the same way in sample(), which skips that sample
        }
    }

    /** Stops sampling after one last sample; returns every sample, oldest first. */
    List<Sample> stop() {
        ScheduledExecutorService e;
        synchronized (this) {
            e = executor;
            executor = null;
            started = false;
        }
        if (e != null) {
            e.shutdownNow();
            try {
                e.awaitTermination(1, TimeUnit.SECONDS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        }
        sample(true);
        synchronized (this) {
            return List.copyOf(samples);
        }
    }

    /** Samples not kept because {@link #MAX_SAMPLES} were reached. */
    synchronized long dropped() {
        return dropped;
    }

    long periodMs() {
        return periodMs;
    }

    private long jitMillis() {
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    private long gcMillis() {
        long sum = 0;
        for (GarbageCollectorMXBean c : collectors) {
            long t = c.getCollectionTime();
            if (t < 0) {
                return -1;
            }
            sum += t;
        }
        return sum;
    }

    private void sample(boolean last) {
        Sample s;
        boolean readSwitches = last || samplesTaken++ % SWITCHES_EVERY == 0;
        try {
            MemoryUsage heap = memory.getHeapMemoryUsage();
            long cpu = cpuNanos.getAsLong();
            s = new Sample(clock.nowMicros(), heap.getUsed(), heap.getCommitted(), socket.statistics().queued(),
                    progress.getAsLong(), probe.snapshot(), cpu < 0 ? -1 : cpu / 1_000, jitMillis(), gcMillis(),
                    MachineCpuTime.read(), readSwitches ? switches.read() : ContextSwitches.Counts.UNKNOWN,
                    canary.run());
        } catch (RuntimeException e) {
            // a failing probe must not end the periodic task (the executor would cancel it silently)
            return;
        }
        synchronized (this) {
            if (samples.size() < MAX_SAMPLES) {
                samples.add(s);
            } else {
                dropped++;
            }
        }
    }
}
