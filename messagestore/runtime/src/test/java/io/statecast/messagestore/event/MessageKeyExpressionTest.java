package io.statecast.messagestore.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.messagestore.support.Messages;
import io.statecast.overlay.message.DeliveryMode;
import io.statecast.overlay.message.Extension;
import io.statecast.overlay.message.FieldsExtension;
import io.statecast.overlay.message.FsmExtension;
import io.statecast.overlay.message.MessageField;
import io.statecast.overlay.message.MessageFields;
import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.message.PayloadExtension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A {@code <ScopeKey>} gives the same key (or no key) whether it runs compiled to Java or on
 * Saxon, on random messages (random field names, types and values, random headers) and random
 * key expressions built from the subset's constructs.
 */
class MessageKeyExpressionTest {

    private static final long SEED = Long.getLong("statecast.seed", System.nanoTime());
    private static final Set<String> PARAMETERS = Set.of("Stream", "Limit");
    private static final QueryBindings BINDINGS = QueryBindings.of(Map.of("Stream", "s7", "Limit", 3L));
    private static XQueryEngine engine;
    private final QueryEvaluator evaluator = new QueryEvaluator(EvaluationGuard.NONE);

    @BeforeAll
    static void start() {
        engine = new XQueryEngine();
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    /** Templates in the compiled subset; {@code N} and {@code M} stand for field names. */
    private static final String[] SUBSET = {
        "Fields/Field[@name='{N}']", "Fields/Field[@name = \"{N}\"]/@type", "SourceAddress", "DestinationAddress",
        "(DestinationAddress, RootAddress)[1]", "(Fields/Field[@name='{N}'], SourceAddress)[1]",
        "Fields/Field[@name='{N}'] | SourceAddress", "Fields/Field", "Fields/Field[1]", "Fields/Field[last()]/@name",
        "Fields/Field[@type='integer'][1]", "count(Fields/Field)", "exists(Fields/Field[@name='{N}'])",
        "Fields/Field[@name='{N}'] = Fields/Field[@name='{M}']", "MessageIdentifier", "MessageType", "MessageKind",
        "Payload", "HopLimit", "DeliveryMode", "PreviousHopAddress", "ServiceIdentifier",
        "if (exists(DestinationAddress)) then DestinationAddress else RootAddress",
        "if (Fields/Field[@name='{N}']) then Fields/Field[@name='{N}'] else $Stream", "$Stream", "$Limit",
        "/HistoryOfEvents/Event[@name='message']/Message/SourceAddress", "//Field[@name='{N}']", ".",
        "Fields", "*[3]", "Fields/*[@name='{M}']", "some $f in Fields/Field satisfies $f = 'x'",
        "let $s := SourceAddress return ($s, $s)[1]", "Fields/Field[@name='{N}'][. != '']", "()",
    };
    /** Templates Saxon evaluates (outside the subset): still one evaluation path, checked for sanity. */
    private static final String[] SAXON = {
        "concat(SourceAddress, '/', Fields/Field[@name='{N}'])", "string-join(Fields/Field/@name, ',')",
        "Fields/Field[@name='{N}'] + 1", "upper-case(DeliveryMode)", "map { 'a': 1 }",
    };

    @Test
    void shouldGiveTheSameKeyCompiledAndOnSaxon() throws Exception {
        Random rnd = new Random(SEED);
        int keyed = 0;
        for (int round = 0; round < 400; round++) {
            List<String> names = names(rnd);
            OverlayMessage m = message(rnd, names);
            String template = SUBSET[rnd.nextInt(SUBSET.length)];
            String text = template.replace("{N}", names.get(rnd.nextInt(names.size())))
                    .replace("{M}", names.get(rnd.nextInt(names.size())));
            CompiledPath path = engine.compilePath(text, PARAMETERS);
            String where = text + " on " + m + " (seed " + SEED + ", round " + round + ")";
            assertNotNull(path.compiled(), "in the subset: " + where);
            CompiledPath saxon = new CompiledPath(path.text(), path.executable(), path.reads(), null);
            String want = outcome(new MessageKeyExpression(saxon), m);
            assertEquals(want, outcome(new MessageKeyExpression(path), m), where);
            if (!want.equals("no key")) {
                keyed++;
            }
        }
        // both kinds of outcome were compared, not only "no key"
        assertTrue(keyed > 100 && keyed < 380, keyed + " of 400 keyed (seed " + SEED + ")");
    }

    @Test
    void shouldKeyOnSaxonOutsideTheSubset() throws Exception {
        OverlayMessage m = withFields(Map.of("grp", new MessageField.Int(42), "s", new MessageField.Text("a")));
        assertNull(engine.compilePath(SAXON[0], PARAMETERS).compiled());
        assertEquals("3/", key(SAXON[0].replace("{N}", "nope"), m));
        assertEquals("3/42", key(SAXON[0].replace("{N}", "grp"), m));
        assertEquals("grp,s", key(SAXON[1], m));
        assertEquals("43", key(SAXON[2].replace("{N}", "grp"), m));
        assertEquals("UNICAST", key(SAXON[3], m));
        assertEquals("no key", key(SAXON[4], m));
    }

    @Test
    void shouldGiveNoKeyForAnEmptyValueSeveralItemsOrALongValue() throws Exception {
        OverlayMessage m = withFields(Map.of("a", new MessageField.Text("x".repeat(257)), "b",
                new MessageField.Text("y".repeat(256)), "c", new MessageField.Int(1)));
        for (boolean compiled : new boolean[] {true, false}) {
            assertEquals("no key", key("Fields/Field[@name='absent']", m, compiled));
            assertEquals("no key", key("Fields/Field", m, compiled), "three fields");
            assertEquals("no key", key("Fields/Field[@name='a']", m, compiled), "257 chars > 256");
            assertEquals("y".repeat(256), key("Fields/Field[@name='b']", m, compiled), "256 chars: a key");
            assertEquals("1", key("Fields/Field[@name='c']", m, compiled));
        }
    }

    @Test
    void shouldRefuseWhatTheSandboxRefuses() {
        assertThrows(QueryException.class, () -> engine.compilePath("doc('file:///etc/passwd')/x", PARAMETERS));
        assertThrows(QueryException.class, () -> engine.compilePath("Fields/Field[", PARAMETERS));
    }

    /** The key as the store computes it (compiled when in the subset). */
    private String key(String text, OverlayMessage m) throws Exception {
        return outcome(new MessageKeyExpression(engine.compilePath(text, PARAMETERS)), m);
    }

    /** The key compiled to Java ({@code compiled}, which the expression must allow) or on Saxon. */
    private String key(String text, OverlayMessage m, boolean compiled) throws Exception {
        CompiledPath path = engine.compilePath(text, PARAMETERS);
        if (!compiled) {
            path = new CompiledPath(path.text(), path.executable(), path.reads(), null);
        } else {
            assertNotNull(path.compiled(), "in the subset: " + text);
        }
        return outcome(new MessageKeyExpression(path), m);
    }

    private String outcome(MessageKeyExpression key, OverlayMessage m) throws EvaluationException {
        try {
            return key.keyOf(m, this, evaluator, BINDINGS);
        } catch (MessageKeyExpression.NoKey e) {
            return "no key";
        }
    }

    /** Two to five random field names (letters, digits, _), distinct. */
    private static List<String> names(Random rnd) {
        List<String> out = new ArrayList<>();
        String first = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
        String rest = first + "0123456789";
        while (out.size() < 2 + rnd.nextInt(4)) {
            StringBuilder sb = new StringBuilder().append(first.charAt(rnd.nextInt(first.length())));
            for (int i = 0, n = rnd.nextInt(8); i < n; i++) {
                sb.append(rest.charAt(rnd.nextInt(rest.length())));
            }
            String name = sb.toString();
            if (!out.contains(name)) {
                out.add(name);
            }
        }
        return out;
    }

    /** A message with random headers and a random subset of {@code names} as fields of random types. */
    private static OverlayMessage message(Random rnd, List<String> names) {
        DeliveryMode mode = DeliveryMode.values()[rnd.nextInt(3)];
        List<Extension> ext = new ArrayList<>();
        ext.add(new FsmExtension(1, (byte) (rnd.nextBoolean() ? 0x80 : rnd.nextInt(256)), rnd.nextLong()));
        if (rnd.nextBoolean()) {
            byte[] b = new byte[rnd.nextInt(6)];
            rnd.nextBytes(b);
            ext.add(new PayloadExtension(b));
        }
        Map<String, MessageField> fields = new HashMap<>();
        for (String name : names) {
            if (rnd.nextInt(3) == 0) {
                continue;
            }
            fields.put(name, switch (rnd.nextInt(5)) {
                case 0 -> new MessageField.Int(rnd.nextInt(3) == 0 ? rnd.nextInt(3) : rnd.nextLong());
                case 1 -> new MessageField.Text(text(rnd));
                case 2 -> {
                    byte[] b = new byte[rnd.nextInt(5)];
                    rnd.nextBytes(b);
                    yield new MessageField.Bytes(b);
                }
                case 3 -> new MessageField.Text(rnd.nextBoolean() ? "x" : "s7");
                default -> MessageField.Ranges.of(List.of(new MessageField.Range(rnd.nextInt(5), 5 + rnd.nextInt(5))));
            });
        }
        if (!fields.isEmpty()) {
            ext.add(new FieldsExtension(MessageFields.of(fields)));
        }
        return new OverlayMessage(mode, rnd.nextInt(256), Messages.a(rnd.nextInt(9)),
                mode == DeliveryMode.UNICAST ? Messages.a(rnd.nextInt(9)) : null, Messages.a(rnd.nextInt(9)),
                rnd.nextBoolean() ? Messages.a(rnd.nextInt(9)) : null, ext);
    }

    /** Random text: empty, ASCII, markup characters, non-ASCII, long. */
    private static String text(Random rnd) {
        return switch (rnd.nextInt(4)) {
            case 0 -> "";
            case 1 -> "a <&> \u00e9 \"'" + rnd.nextInt(9);
            case 2 -> "x".repeat(250 + rnd.nextInt(10));
            default -> Long.toString(rnd.nextLong(), 36);
        };
    }

    private static OverlayMessage withFields(Map<String, MessageField> fields) {
        return new OverlayMessage(DeliveryMode.UNICAST, 8, Messages.a(3), Messages.a(4), Messages.a(3), null,
                List.of(new FsmExtension(1, (byte) 0x80, 9), new FieldsExtension(MessageFields.of(fields))));
    }
}
