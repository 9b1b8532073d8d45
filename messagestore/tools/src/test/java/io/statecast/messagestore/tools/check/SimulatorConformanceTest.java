package io.statecast.messagestore.tools.check;

import io.statecast.messagestore.support.Keys;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.statecast.messagestore.event.EvaluationGuard;
import io.statecast.messagestore.event.QueryEvaluator;
import io.statecast.messagestore.instance.ActionQueue;
import io.statecast.messagestore.instance.ArmedTimer;
import io.statecast.messagestore.instance.EndCause;
import io.statecast.messagestore.instance.InstanceEnvironment;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.ServiceInstance;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.metrics.Counters;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.overlay.testkit.RecordingOverlay;
import io.statecast.messagestore.support.Specs;
import io.statecast.messagestore.tools.SpecGraph;
import io.statecast.overlay.forward.OverlayContext;
import io.statecast.overlay.substrate.VirtualTimerService;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The checker's {@link Simulator}, which resumes instances from snapshots, behaves step for step
 * like the runtime's {@link ServiceInstance} driven with the same inputs: same states, same
 * pending timers, same end, same messages sent. Random walks (seeded; the seed is in every
 * message), each snapshot step preceded by an unrelated step from another snapshot, so a restore
 * that left anything of the previous step behind would show.
 */
class SimulatorConformanceTest {

    private static final int WALKS = 150;
    private static final int LENGTH = 8;

    /** Captures the timers an instance sets so the test can expire the one it chooses. */
    private static final class Env implements InstanceEnvironment {
        final RecordingOverlay overlay;
        final Map<Integer, Long> generations = new HashMap<>();
        final ActionQueue actions = new ActionQueue();
        final List<String> endings = new ArrayList<>();

        Env(RecordingOverlay overlay) {
            this.overlay = overlay;
        }

        @Override
        public OverlayContext overlay() {
            return overlay;
        }

        @Override
        public QueryEvaluator evaluator() {
            return new QueryEvaluator(EvaluationGuard.NONE);
        }

        @Override
        public InstanceLimits limits() {
            return InstanceLimits.DEFAULTS;
        }

        @Override
        public Counters nodeCounters() {
            return new Counters();
        }

        @Override
        public ArmedTimer schedule(ServiceInstance instance, int timerId, long generation, long delay) {
            generations.put(timerId, generation);
            return ArmedTimer.of(timerId, generation, () -> generations.remove(timerId, generation));
        }

        @Override
        public ActionQueue actionQueue() {
            return actions;
        }

        @Override
        public void ended(ServiceInstance instance, EndCause cause) {
            endings.add(cause.name());
        }

        @Override
        public void quarantine(ServiceRuntime service, String reason) {
            throw new AssertionError("quarantined: " + reason);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"specs/blueprint-h2h.scxml", "check/clean-ack.scxml", "specs/ack-service.scxml",
        "check/never-handled.scxml"})
    void shouldStepLikeTheRuntime(String resource) {
        long seed = Long.getLong("statecast.seed", System.nanoTime());
        Random random = new Random(seed);
        ServiceSpec spec = Specs.load(resource);
        AbstractNode node = AbstractNode.of(3, Alphabet.family(spec));
        List<Input.Arrival> alphabet = Alphabet.of(spec, node);
        Simulator sim = new Simulator(spec, SpecGraph.of(spec), node);
        ServiceRuntime runtime = new ServiceRuntime(spec);
        for (int walk = 0; walk < WALKS; walk++) {
            RecordingOverlay overlay = new RecordingOverlay(node.self(), new VirtualTimerService(), node);
            Env env = new Env(overlay);
            ServiceInstance real = new ServiceInstance(Keys.message(spec.service().serviceId(),
                    Alphabet.MESSAGE_ID), runtime, env);
            real.start();
            overlay.drain();
            List<Snapshot> seen = new ArrayList<>();
            Snapshot s = sim.start().after();
            seen.add(s);
            List<String> path = new ArrayList<>();
            for (int i = 0; i < LENGTH && !s.ended(); i++) {
                List<Input> inputs = new ArrayList<>(alphabet);
                if (i > 0) {
                    for (Integer t : s.timers().keySet()) {
                        inputs.add(new Input.Expiry(t));
                    }
                }
                Input in = inputs.get(random.nextInt(inputs.size()));
                path.add(in.label());
                String where = resource + " seed " + seed + " walk " + walk + " path " + path;
                Snapshot other = seen.get(random.nextInt(seen.size()));
                if (!other.ended()) {
                    sim.step(other, alphabet.get(random.nextInt(alphabet.size()))); // dirties the engine
                }
                Outcome o = sim.step(s, in);
                if (in instanceof Input.Arrival a) {
                    real.onMessage(a.message(), a.fires());
                } else {
                    int id = ((Input.Expiry) in).timerId();
                    real.onTimer(id, env.generations.remove(id));
                }
                s = o.after();
                seen.add(s);
                assertEquals(real.ended() != null, s.ended(), where);
                if (!s.ended()) {
                    assertEquals(real.states(), new TreeSet<>(s.configuration()), where);
                    assertEquals(real.timersSet(), s.timers().keySet(), where);
                    assertEquals(env.generations.keySet(), s.timers().keySet(), where);
                }
                List<String> sent = new ArrayList<>();
                for (RecordingOverlay.Call c : overlay.drain()) {
                    sent.add(c.getClass().getSimpleName());
                }
                List<String> emitted = new ArrayList<>();
                for (Outcome.Call c : o.calls()) {
                    if (c.emits()) {
                        emitted.add(switch (c.primitive()) {
                            case SEND_DATA_MESSAGE -> "SendData";
                            case SEND_CONTROL_MESSAGE -> "SendControl";
                            case FORWARD_MESSAGE -> "Forward";
                            default -> "ToApplication";
                        });
                    }
                }
                assertEquals(sent, emitted, where);
            }
        }
    }
}
