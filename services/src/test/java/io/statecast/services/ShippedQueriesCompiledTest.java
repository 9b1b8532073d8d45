package io.statecast.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.statecast.messagestore.event.CompiledExpression;
import io.statecast.messagestore.event.CompositeEventDefinition;
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
 * Every composite query and action XPath of these shipped services is in the compiled subset
 * (runs as Java over the history, not on Saxon): under overload the acknowledgement services'
 * timers fire by the thousand, and an expression Saxon evaluates there cost a forwarding node a
 * sixth of its I/O thread on the 5-hop testbed. (best-effort-ordering and incast use
 * {@code sort}, {@code for}, arithmetic and casts, which the subset leaves to Saxon.)
 */
class ShippedQueriesCompiledTest {

    @ParameterizedTest
    @ValueSource(strings = {"h2h-ack", "e2e-ack", "dup-elim", "handshake", "leaky-bucket", "message-selection", "sync"})
    void everyQueryAndActionPathShouldBeCompiled(String service) throws Exception {
        List<String> all = new ArrayList<>();
        List<String> onSaxon = new ArrayList<>();
        try (SpecLoader loader = new SpecLoader()) {
            ServiceSpec spec = loader.load(Path.of("src/main/resources/services", service + ".scxml"));
            for (CompositeEventDefinition c : spec.compositeEvents()) {
                all.add(c.query().text());
                if (c.query().compiled() == null) {
                    onSaxon.add(c.query().text() + ": " + CompiledExpression.outsideSubset(c.query().text(), true,
                            c.query().parameters()));
                }
            }
            for (ActionTemplate a : spec.actions()) {
                for (FieldAssignment f : a.assignments()) {
                    if (f.value() instanceof FieldValue.HistoryQuery q) {
                        all.add(q.path().text());
                        if (q.path().compiled() == null) {
                            onSaxon.add(q.path().text() + ": " + CompiledExpression.outsideSubset(q.path().text(),
                                    false, java.util.Set.copyOf(spec.parameters().names())));
                        }
                    }
                }
            }
        }
        assertFalse(all.isEmpty(), service + " has expressions");
        assertEquals(List.of(), onSaxon, service + ": expressions Saxon would evaluate");
    }
}
