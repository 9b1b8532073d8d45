package io.statecast.messagestore.support;

import io.statecast.messagestore.instance.EndCause;
import io.statecast.messagestore.instance.InstanceLimits;
import io.statecast.messagestore.instance.ServiceInstance;
import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.instance.StandaloneEnvironment;
import io.statecast.overlay.forward.OverlayContext;
import java.util.ArrayList;
import java.util.List;

/** Runs instances directly on the test thread: timers fire on the overlay's (virtual) clock. */
public final class TestEnvironment extends StandaloneEnvironment {

    public final List<String> endings = new ArrayList<>();
    public final List<String> quarantines = new ArrayList<>();

    public TestEnvironment(OverlayContext overlay, InstanceLimits limits) {
        super(overlay, limits);
    }

    @Override
    public void ended(ServiceInstance instance, EndCause cause) {
        endings.add(instance.key() + " " + cause);
    }

    @Override
    public void quarantine(ServiceRuntime service, String reason) {
        quarantines.add(service.name() + ": " + reason);
        super.quarantine(service, reason);
    }
}
