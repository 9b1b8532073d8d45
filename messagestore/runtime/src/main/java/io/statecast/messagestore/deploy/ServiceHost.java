package io.statecast.messagestore.deploy;

import io.statecast.messagestore.instance.ServiceRuntime;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecLimits;
import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.overlay.address.LogicalAddress;
import java.util.Optional;

/**
 * What a run-time deployment ({@link SpecDownloader}) does with the store that runs the services:
 * look a service up, check and install a spec, give up on a service's held messages, and ask a
 * node for a spec. The {@code MessageStore} implements it; this package knows the store only
 * through it.
 */
public interface ServiceHost {

    /** The service loaded under {@code serviceId}, or {@code null}. */
    ServiceRuntime service(int serviceId);

    /** The limits on the specs the store loads (the most bytes a spec document may have). */
    SpecLimits specLimits();

    /** The loader that validates every spec the store loads. */
    SpecLoader loader();

    /**
     * Why the store would not trust {@code document} read from the network, or empty when it
     * trusts it; a refusal is counted.
     *
     * @param source names the document in the reason
     */
    Optional<String> distrust(byte[] document, String source);

    /**
     * Installs a loaded spec; the messages held for its service are processed.
     *
     * @throws ServiceLoadException when the store refuses it
     */
    void install(ServiceSpec spec) throws ServiceLoadException;

    /**
     * Drops every message held for {@code serviceId}: its spec could not be obtained.
     *
     * @return how many were dropped
     */
    int dropHeld(int serviceId);

    /**
     * Sends a Service Request message for {@code serviceId} unicast to {@code destination}.
     *
     * @return substrate transmissions made; 0 when the store is not open or closed
     */
    int sendServiceRequest(int serviceId, LogicalAddress destination);
}
