package io.statecast.messagestore.spec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Collections;
import java.util.HashMap;
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
 * about 460 bytes in every live service instance, most of them for {@code <history>},
 * {@code <invoke>} and listeners, which the validator refuses and the runtime never registers.
 * Here the history and invoker maps and the listener registry become one shared, read-only
 * empty map (a write would fail loudly: it would mean a spec the validator should have refused),
 * and the contexts and completions plain, small maps (an executor is confined to one thread).
 *
 * <p>Commons SCXML offers no way to pass these in, so the fields are set through
 * {@link VarHandle}s looked up once; the per-executor cost is seven field writes. Should the
 * lookup fail (another Commons SCXML version, a module that does not open the package), the
 * executors stay as Commons SCXML makes them: only the footprint differs.
 */
final class LeanInstanceState {

    private static final Logger LOG = LoggerFactory.getLogger(LeanInstanceState.class);
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
        h.histories.set(si, Collections.emptyMap());
        h.invokerClasses.set(si, Collections.emptyMap());
        h.invokers.set(si, Collections.emptyMap());
        h.contexts.set(si, new HashMap<>(4));
        h.completions.set(si, new HashMap<>(2));
    }

    /** Whether executors are trimmed in this JVM (false: the lookup failed and was logged). */
    static boolean active() {
        return HANDLES != null;
    }

    private record Handles(VarHandle scInstance, VarHandle notificationRegistry, VarHandle histories,
            VarHandle invokerClasses, VarHandle invokers, VarHandle contexts, VarHandle completions,
            NotificationRegistry sharedRegistry) {

        static Handles lookUp() {
            try {
                MethodHandles.Lookup self = MethodHandles.lookup();
                MethodHandles.Lookup exec = MethodHandles.privateLookupIn(SCXMLExecutor.class, self);
                MethodHandles.Lookup inst = MethodHandles.privateLookupIn(SCInstance.class, self);
                MethodHandles.Lookup reg = MethodHandles.privateLookupIn(NotificationRegistry.class, self);
                NotificationRegistry shared = new NotificationRegistry();
                reg.findVarHandle(NotificationRegistry.class, "regs", Map.class).set(shared, Collections.emptyMap());
                return new Handles(exec.findVarHandle(SCXMLExecutor.class, "scInstance", SCInstance.class),
                        inst.findVarHandle(SCInstance.class, "notificationRegistry", NotificationRegistry.class),
                        inst.findVarHandle(SCInstance.class, "histories", Map.class),
                        inst.findVarHandle(SCInstance.class, "invokerClasses", Map.class),
                        inst.findVarHandle(SCInstance.class, "invokers", Map.class),
                        inst.findVarHandle(SCInstance.class, "contexts", Map.class),
                        inst.findVarHandle(SCInstance.class, "completions", Map.class), shared);
            } catch (ReflectiveOperationException | RuntimeException e) {
                LOG.info("Commons SCXML executors keep their default state maps (about 460 bytes more per "
                        + "instance): {}", e.toString());
                return null;
            }
        }
    }
}
