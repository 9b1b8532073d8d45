package io.statecast.examples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.FieldAssignment;
import io.statecast.messagestore.spec.FieldValue;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecLimits;
import io.statecast.messagestore.spec.SpecLoader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's respelled h2h-ack really is spelled differently (other event and variable
 * names, comments, spacing) and still has every composite query and action XPath compiled to
 * Java, none on Saxon: the compiler is not keyed to the shipped text.
 */
class SpecVariantTest {

    @Test
    void aRenamedCommentedRespacedH2hAckShouldHaveEveryExpressionCompiled() throws Exception {
        SpecLimits d = SpecLimits.DEFAULTS;
        try (SpecLoader loader = new SpecLoader(new SpecLimits(d.maxBytes(), d.maxElements(), d.maxDepth(),
                Duration.ofMinutes(2), d.queries()))) {
            ServiceSpec shipped = loader.load(MessageStoreBenchmark.resource("/services/h2h-ack.scxml"), "h2h-ack");
            byte[] bytes = MessageStoreBenchmark.variantOfH2h(loader);
            ServiceSpec variant = loader.load(bytes, "variant");
            String text = new String(bytes, StandardCharsets.UTF_8);

            List<String> original = expressions(shipped);
            List<String> respelled = expressions(variant);
            assertEquals(original.size(), respelled.size());
            for (int i = 0; i < original.size(); i++) {
                assertNotEquals(original.get(i), respelled.get(i), "not respelled");
                assertTrue(respelled.get(i).contains("(:"), "no comment in " + respelled.get(i));
            }
            for (String renamed : List.of("payloadmessage", "h2hackmessage", "$node", "$acked", "$expected")) {
                assertFalse(text.contains(renamed), renamed + " is still in the variant");
            }
            assertEquals(List.of(), onSaxon(variant), "expressions of the variant Saxon would evaluate");
            assertEquals(List.of(), onSaxon(shipped), "expressions of h2h-ack Saxon would evaluate");
        }
    }

    private static List<String> expressions(ServiceSpec spec) {
        List<String> out = new ArrayList<>();
        for (CompositeEventDefinition c : spec.compositeEvents()) {
            out.add(c.query().text());
        }
        for (ActionTemplate a : spec.actions()) {
            for (FieldAssignment f : a.assignments()) {
                if (f.value() instanceof FieldValue.HistoryQuery q) {
                    out.add(q.path().text());
                }
            }
        }
        return out;
    }

    private static List<String> onSaxon(ServiceSpec spec) {
        List<String> out = new ArrayList<>();
        for (CompositeEventDefinition c : spec.compositeEvents()) {
            if (c.query().compiled() == null) {
                out.add(c.query().text());
            }
        }
        for (ActionTemplate a : spec.actions()) {
            for (FieldAssignment f : a.assignments()) {
                if (f.value() instanceof FieldValue.HistoryQuery q && q.path().compiled() == null) {
                    out.add(q.path().text());
                }
            }
        }
        return out;
    }
}
