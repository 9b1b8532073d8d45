package io.statecast.messagestore.spec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Collections;
import java.util.Map;
import org.apache.commons.scxml.NotificationRegistry;
import org.apache.commons.scxml.SCInstance;
import org.apache.commons.scxml.SCXMLExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Trims what every Commons SCXML executor keeps for features specs cannot use. The executor's
 * {@code SCInstance} makes six maps per executor — five synchronized ones (per-state contexts,
 * history configurations, completions, invoker classes, invokers) and a listener registry's —
 * about 460 bytes in every live service instance, three of them and the registry for
 * {@code <history>}, {@code <invoke>} and listeners, which the validator refuses and the runtime
 * never registers. Here those four become one shared, read-only empty map (a write would fail
 * loudly: it would mean a spec the validator should have refused), about 300 bytes less per
 * instance. The contexts and completions maps, which the engine writes, stay as they are.
 *
 * <p>Commons SCXML offers no way to pass these in, so the fields are set through
 * {@link VarHandle}s looked up once; the per-executor cost is five field writes. Should the
 * lookup fail (another Commons SCXML version, a module that does not open the package), the
 * executors stay as Commons SCXML makes them: only the footprint differs.
 */
final class LeanInstanceState {

    private static final Logger LOG = LoggerFactory.getLogger(LeanInstanceState.class);
    /**
     * The shared empty map. Not synchronized: the engine reads it on every step
     * ({@code getInvokers().keySet()}), and one lock shared by every shard's executors would be
     * contended; an immutable map needs none.
     */
    private static final Map<Object, Object> NONE = Collections.emptyMap();
    private static final Handles HANDLES = Handles.lookUp();

    private LeanInstanceState() {
    }

    /** Trims {@code executor}'s instance state; call before the executor first runs. */
    static void trim(SCXMLExecutor executor) {
        Handles h = HANDLES;
        if (h == null) {
            return;
        }
        SCInstance si = (SCInstance) h.scInstance.get(executor);
        h.notificationRegistry.set(si, h.sharedRegistry);
        h.histories.set(si, NONE);
        h.invokerClasses.set(si, NONE);
        h.invokers.set(si, NONE);
    }

    /** Whether executors are trimmed in this JVM (false: the lookup failed and was logged). */
    static boolean active() {
        return HANDLES != null;
    }

    private record Handles(VarHandle scInstance, VarHandle notificationRegistry, VarHandle histories,
            VarHandle invokerClasses, VarHandle invokers, NotificationRegistry sharedRegistry) {

        static Handles lookUp() {
            try {
                MethodHandles.Lookup self = MethodHandles.lookup();
                MethodHandles.Lookup exec = MethodHandles.privateLookupIn(SCXMLExecutor.class, self);
                MethodHandles.Lookup inst = MethodHandles.privateLookupIn(SCInstance.class, self);
                MethodHandles.Lookup reg = MethodHandles.privateLookupIn(NotificationRegistry.class, self);
                NotificationRegistry shared = new NotificationRegistry();
                reg.findVarHandle(NotificationRegistry.class, "regs", Map.class).set(shared, NONE);
                return new Handles(exec.findVarHandle(SCXMLExecutor.class, "scInstance", SCInstance.class),
                        inst.findVarHandle(SCInstance.class, "notificationRegistry", NotificationRegistry.class),
                        inst.findVarHandle(SCInstance.class, "histories", Map.class),
                        inst.findVarHandle(SCInstance.class, "invokerClasses", Map.class),
                        inst.findVarHandle(SCInstance.class, "invokers", Map.class), shared);
            } catch (ReflectiveOperationException | RuntimeException e) {
                LOG.info("Commons SCXML executors keep their default state maps (about 460 bytes more per "
                        + "instance): {}", e.toString());
                return null;
            }
        }
    }
}
