package io.statecast.examples.demo;

import java.util.ArrayList;
import java.util.List;

/**
 * The demo's verdict: the run passes when every promise the service's spec declares
 * ({@code <Promises>}) held at every receiver. A service that promises nothing (and best-effort
 * delivery without a service) passes whatever was lost; corrupt payloads fail any service, since
 * no spec may alter what the application sent.
 *
 * @param broken one line per promise that did not hold; empty when the run passed
 */
record DemoVerdict(List<String> broken) {

    /** Copies the list. */
    DemoVerdict {
        broken = List.copyOf(broken);
    }

    /**
     * @param service    what the run sent with
     * @param missing    deliveries missing over all receivers
     * @param duplicates deliveries received more than once over all receivers
     * @param corrupt    deliveries whose payload did not check out
     */
    static DemoVerdict of(DemoService service, long missing, long duplicates, long corrupt) {
        List<String> broken = new ArrayList<>();
        if (service.promises().contains(DemoService.EVERY_MESSAGE) && missing > 0) {
            broken.add(String.format("%s promises every message, %,d deliveries are missing", service.describe(), missing));
        }
        if (service.promises().contains(DemoService.NO_DUPLICATES) && duplicates > 0) {
            broken.add(String.format("%s promises no duplicates, %,d deliveries were duplicates", service.describe(),
                    duplicates));
        }
        if (service.serviceId() != null && corrupt > 0) {
            broken.add(String.format("%s delivered %,d corrupt payloads", service.describe(), corrupt));
        }
        return new DemoVerdict(broken);
    }

    /** Whether every promise held. */
    boolean passed() {
        return broken.isEmpty();
    }
}
