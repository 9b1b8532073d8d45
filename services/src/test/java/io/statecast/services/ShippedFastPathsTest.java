package io.statecast.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.statecast.messagestore.event.FastPath;
import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.FieldAssignment;
import io.statecast.messagestore.spec.FieldValue;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every action XPath of the acknowledgement services is answered from the history's Java objects:
 * under overload their timers fire by the thousand (ACK Requests, Resets), and a path Saxon
 * evaluates there cost a forwarding node a sixth of its I/O thread on the 5-hop testbed.
 */
class ShippedFastPathsTest {

    @ParameterizedTest
    @ValueSource(strings = {"h2h-ack", "e2e-ack"})
    void everyActionPathShouldTakeTheFastPath(String service) throws Exception {
        List<String> paths = new ArrayList<>();
        List<String> slow = new ArrayList<>();
        try (SpecLoader loader = new SpecLoader()) {
            ServiceSpec spec = loader.load(Path.of("src/main/resources/services", service + ".scxml"));
            for (ActionTemplate a : spec.actions()) {
                for (FieldAssignment f : a.assignments()) {
                    if (f.value() instanceof FieldValue.HistoryQuery q) {
                        paths.add(q.path().text());
                        if (FastPath.of(q.path().text()) == null) {
                            slow.add(q.path().text());
                        }
                    }
                }
            }
        }
        assertFalse(paths.isEmpty(), service + " has action paths");
        assertEquals(List.of(), slow, service + ": paths Saxon would evaluate");
    }
}
