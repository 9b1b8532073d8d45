package io.statecast.messagestore.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code <Promises>} in the service section: read, and refused when it names nothing known. */
class PromisesDeclarationTest {

    private static SpecLoader loader;

    @BeforeAll
    static void start() {
        loader = new SpecLoader();
    }

    @AfterAll
    static void stop() {
        loader.close();
    }

    /** The minimal fixture with {@code promises} closing its service section. */
    private static byte[] spec(String promises) {
        String text = new String(TestResources.bytes("specs/minimal.scxml"), StandardCharsets.UTF_8)
                .replace("<DeliveryMode>unicast</DeliveryMode>", "<DeliveryMode>unicast</DeliveryMode>" + promises);
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldReadThePromisesInAnyOrderAndSpacing() throws Exception {
        ServiceSpec s = loader.load(spec("<Promises>\n no-duplicates   every-message </Promises>"), "good.scxml");
        assertEquals(Set.of(Promise.EVERY_MESSAGE, Promise.NO_DUPLICATES), s.service().promises());
    }

    @Test
    void shouldPromiseNothingWithoutTheElement() throws Exception {
        assertEquals(Set.of(), loader.load(spec(""), "plain.scxml").service().promises());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "<Promises>reliable</Promises>                    | unknown promise 'reliable' (known: every-message, no-duplicates, source-order)",
        "<Promises>source-order source-order</Promises>   | promise source-order is listed twice",
        "<Promises> </Promises>                           | <Promises> is empty",
    })
    void shouldRefuseABadDeclarationNamingIt(String declaration, String expected) {
        List<Problem> problems = loader.validate(spec(declaration), "bad.scxml");
        String all = problems.stream().map(p -> p.format("bad.scxml")).collect(Collectors.joining("\n"));
        List<Problem> errors = problems.stream().filter(Problem::isError).toList();
        assertEquals(1, errors.size(), all);
        assertTrue(errors.get(0).message().contains(expected), all);
        assertEquals(8, errors.get(0).line(), "the error points at the <Promises> element: " + all);
    }
}
