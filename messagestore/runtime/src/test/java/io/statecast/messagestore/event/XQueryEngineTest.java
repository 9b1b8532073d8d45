package io.statecast.messagestore.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Set;
import net.sf.saxon.s9api.DocumentBuilder;
import net.sf.saxon.s9api.XQueryEvaluator;
import net.sf.saxon.s9api.XdmNode;
import net.sf.saxon.s9api.XdmValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class XQueryEngineTest {

    private static XQueryEngine engine;

    @BeforeAll
    static void start() {
        engine = new XQueryEngine();
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    private static final String BLUEPRINT_QUERY = """
            let $x := //Node[last()]/Children/LogicalAddress,
                $y := //Event[@name="h2hackmessage"]/Message/SourceAddress
            for $i in $x return
              if ($i = $y) then <out>true</out> else <out>false</out>""";

    private static XdmNode history(String xml) throws Exception {
        DocumentBuilder b = engine.processor().newDocumentBuilder();
        return b.build(new javax.xml.transform.stream.StreamSource(new java.io.StringReader(xml)));
    }

    @Test
    void shouldEvaluateTheBlueprintCompositeQueryOverAHistory() throws Exception {
        CompiledQuery q = engine.compileQuery(BLUEPRINT_QUERY, Set.of());
        assertEquals(new HistoryReads(false, Set.of("h2hackmessage")), q.reads());

        String base = "<HistoryOfEvents><Node><LogicalAddress>1,1</LogicalAddress><Children>"
                + "<LogicalAddress>2,2</LogicalAddress><LogicalAddress>3,3</LogicalAddress></Children></Node>"
                + "<Event name='h2hackmessage'><Message><SourceAddress>2,2</SourceAddress></Message></Event>%s"
                + "</HistoryOfEvents>";
        XQueryEvaluator ev = q.executable().load();
        ev.setContextItem(history(String.format(base, "")));
        assertFalse(CompiledQuery.isTrue(ev.evaluate()), "one of two children acknowledged");
        ev.setContextItem(history(String.format(base,
                "<Event name='h2hackmessage'><Message><SourceAddress>3,3</SourceAddress></Message></Event>")));
        assertTrue(CompiledQuery.isTrue(ev.evaluate()), "both children acknowledged");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "doc('file:///etc/passwd')                          | fn:doc() is not allowed",
        "count(collection())                                | fn:collection() is not allowed",
        "unparsed-text('file:///etc/passwd')                | fn:unparsed-text() is not allowed",
        "environment-variable('HOME')                       | fn:environment-variable() is not allowed",
        "available-environment-variables()                  | fn:available-environment-variables() is not allowed",
        "parse-xml('<a/>')                                  | fn:parse-xml() is not allowed",
        "fn:doc#1('x')                                      | fn:doc() is not allowed",
        "let $f := function($g) { $g($g) } return $f($f)    | function items and dynamic function calls",
        "function-lookup(xs:QName('fn:doc'), 1)('x')        | fn:function-lookup() is not allowed",
        "let $f := function($g) { $g } return $f(1)('x')    | function items and dynamic function calls",
        "declare function local:f($n) { local:f($n) }; local:f(1) | recursive function local:f",
        "declare function local:f($n) { local:g($n) }; declare function local:g($n) { if ($n) then local:f($n) else 0 }; local:f(1) | recursive function",
        "count(for $i in 1 to 2000000000 where $i mod 7 = 3 return $i) | 2000000000 items",
        "for $i in 1 to count(//Event) return $i            | needs literal bounds",
        "import module namespace m = 'urn:x' at 'file:///tmp/m.xq'; 1 | XQuery does not compile",
        "declare variable $Secret external; $Secret         | external variable $Secret is not a declared parameter",
        "1 +                                                | XQuery does not compile",
    })
    void shouldRefuseWithAClearMessage(String query, String expected) {
        QueryException e = assertThrows(QueryException.class, () -> engine.compileQuery(query, Set.of("TimeoutACK")));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    /**
     * Saxon folds these to constants (doc() returns one document or fails, so exists() of it is
     * true), so the compiled tree no longer holds the call: the text is checked first.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "exists(doc('file:///etc/passwd'))                      | fn:doc() is not allowed",
        "empty(fn:doc('file:///etc/passwd'))                    | fn:doc() is not allowed",
        "count(Q{http://www.w3.org/2005/xpath-functions}doc('x')) = 1 | fn:doc() is not allowed",
        "declare namespace f = 'http://www.w3.org/2005/xpath-functions'; exists(f:unparsed-text('x')) | fn:unparsed-text() is not allowed",
        "true() or doc-available('file:///etc/passwd')         | fn:doc-available() is not allowed",
        "false() and exists(collection('x'))                    | fn:collection() is not allowed",
        "exists(uri-collection())                               | fn:uri-collection() is not allowed",
        "exists(unparsed-text-lines('x'))                       | fn:unparsed-text-lines() is not allowed",
        "exists(json-doc('x'))                                  | fn:json-doc() is not allowed",
        "exists(doc (: a comment :) ('x'))                      | fn:doc() is not allowed",
    })
    void shouldRefuseACallTheOptimiserWouldFoldAway(String query, String expected) {
        QueryException e = assertThrows(QueryException.class, () -> engine.compileQuery(query, Set.of()));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        QueryException p = assertThrows(QueryException.class, () -> engine.compilePath(
                query.startsWith("declare") ? "exists(Q{http://www.w3.org/2005/xpath-functions}unparsed-text('x'))"
                        : query, Set.of()));
        assertTrue(p.getMessage().contains("is not allowed"), p.getMessage());
    }

    @Test
    void shouldPointAtTheRefusedCallInsideTheExpression() {
        QueryException e = assertThrows(QueryException.class,
                () -> engine.compileQuery("let $a := 1\nreturn  exists(doc('x'))", Set.of()));
        assertEquals(2, e.line(), e.getMessage());
        assertEquals(16, e.column(), e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "'doc(1)'",
        "count(//doc)",
        "declare function local:doc($x) { $x }; local:doc(1)",
        "let $doc := 1 return $doc",
        "(: doc('x') :) 1",
        "count(//Event[@name = \"collection(\"])",
    })
    void shouldNotTakeWhatIsNoCallForOne(String query) throws Exception {
        engine.compileQuery(query, Set.of());
    }

    @Test
    void shouldRefuseOutsideAccessAtRunTimeEvenIfTheInspectionWereBypassed() throws Exception {
        // Second layer: the processor itself cannot reach files or the environment.
        net.sf.saxon.s9api.XQueryCompiler raw = engine.processor().newXQueryCompiler();
        net.sf.saxon.s9api.SaxonApiException e = assertThrows(net.sf.saxon.s9api.SaxonApiException.class,
                () -> quiet(raw.compile("doc('file:///etc/passwd')")).evaluate());
        assertFalse(e.getMessage().contains("root:"), e.getMessage());
        assertThrows(net.sf.saxon.s9api.SaxonApiException.class,
                () -> quiet(raw.compile("unparsed-text('file:///etc/passwd')")).evaluate());
        assertEquals(0, raw.compile("available-environment-variables()").load().evaluate().size());
        assertEquals("", raw.compile("string-join(environment-variable('PATH'))").load().evaluate().toString(),
                "no environment variable is exposed");
    }

    private static XQueryEvaluator quiet(net.sf.saxon.s9api.XQueryExecutable x) {
        XQueryEvaluator ev = x.load();
        ev.setErrorReporter(error -> { });
        return ev;
    }

    @Test
    void shouldReportThePositionOfACompileErrorInsideTheQuery() {
        QueryException e = assertThrows(QueryException.class,
                () -> engine.compileQuery("let $a := 1\nreturn $a +\n  ) ", Set.of()));
        assertEquals(3, e.line(), e.getMessage());
        assertTrue(e.column() > 0, e.getMessage());
    }

    @Test
    void shouldRefuseDeepNestingBeforeSaxonParsesIt() {
        String deep = "(".repeat(5000) + "1" + ")".repeat(5000);
        QueryException e = assertThrows(QueryException.class, () -> engine.compileQuery(deep, Set.of()));
        assertTrue(e.getMessage().contains("nested more than 48 levels"), e.getMessage());
    }

    @Test
    void shouldRefuseOverlongText() {
        String longQuery = "1" + " + 1".repeat(5000);
        QueryException e = assertThrows(QueryException.class, () -> engine.compileQuery(longQuery, Set.of()));
        assertTrue(e.getMessage().contains("longer than the limit"), e.getMessage());
    }

    @Test
    void shouldAcceptDeclaredParametersAsExternalVariablesAndXPathVariables() throws Exception {
        CompiledQuery q = engine.compileQuery("declare variable $TimeoutACK external; $TimeoutACK > 0",
                Set.of("TimeoutACK"));
        assertEquals(Set.of("TimeoutACK"), q.parameters());
        CompiledPath p = engine.compilePath("$TimeoutACK * 2", Set.of("TimeoutACK"));
        assertEquals(HistoryReads.NONE, p.reads());
        QueryException e = assertThrows(QueryException.class, () -> engine.compilePath("$Nope", Set.of("TimeoutACK")));
        assertTrue(e.getMessage().contains("Nope"), e.getMessage());
    }

    @ParameterizedTest(name = "{0} reads {1}")
    @CsvSource(delimiterString = " => ", value = {
        "/HistoryOfEvents/Event[@name='payloadmessage'][last()]/Message => payloadmessage",
        "/HistoryOfEvents/Event[@name='payloadmessage'][last()]/Message/PreviousHopAddress => payloadmessage",
        "//Event[@name = 'a']/Message/SourceAddress | //Event[@name='b'] => a;b",
        "//Node[last()]/Children/LogicalAddress => ",
        "count(//Event) => *",
        "//Message/SourceAddress => *",
        "/HistoryOfEvents/*[1] => *",
        "string(/) => *",
        "/HistoryOfEvents => *",
        "//Event[@name != 'a'] => *",
        "//text() => *",
        "//Node/following-sibling::*[1] => *",
        "//Node/../Event[@name='a'] => a",
        "//Node/.. => *",
        "/HistoryOfEvents/Event[@name='a' or @name='b'][last()]/Message => a;b",
        "/HistoryOfEvents/Event[@name=('a','c')]/Message => a;c",
        "/HistoryOfEvents/Event[@name='a' or position() = 1]/Message => *",
    })
    void shouldWorkOutWhichEventsAPathReads(String path, String expected) throws Exception {
        HistoryReads reads = engine.compilePath(path, Set.of()).reads();
        if ("*".equals(expected)) {
            assertTrue(reads.allEvents(), path + " -> " + reads);
        } else {
            Set<String> names = expected == null ? Set.of() : Set.of(expected.split(";"));
            assertEquals(new HistoryReads(false, names), reads, path);
        }
    }

    @Test
    void shouldTreatTheBlueprintTruthRuleStrictly() throws Exception {
        XdmValue empty = engine.processor().newXPathCompiler().evaluate("()", null);
        assertFalse(CompiledQuery.isTrue(empty));
        assertTrue(CompiledQuery.isTrue(engine.processor().newXPathCompiler().evaluate("true()", null)));
        assertFalse(CompiledQuery.isTrue(engine.processor().newXPathCompiler().evaluate("(true(), false())", null)));
        assertTrue(CompiledQuery.isTrue(engine.processor().newXPathCompiler().evaluate("('true', ' true ')", null)));
    }

    @Test
    void shouldAbandonAnEvaluationThatOverrunsItsDeadlineAndKeepWorking() throws Exception {
        CompiledQuery slow = engine.compileQuery(
                "count(for $a in 1 to 5000, $b in 1 to 5000 where $a * $b = -1 return 1)", Set.of());
        try (BoundedWorker worker = engine.newEvaluationWorker("test-eval")) {
            XQueryEvaluator ev = slow.executable().load();
            assertThrows(QueryTimeoutException.class,
                    () -> worker.call(ev::evaluate, Duration.ofMillis(20), "evaluating the slow query"));
            assertEquals(1, worker.abandonedThreads());
            CompiledQuery fast = engine.compileQuery("1 + 1", Set.of());
            XdmValue v = worker.call(() -> fast.executable().load().evaluate(), Duration.ofSeconds(10), "fast");
            assertEquals("2", v.toString());
        }
        // The abandoned thread finishes its (finite) query on its own; wait so it does not
        // compete with later tests for the CPU.
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("test-eval-1") && t.isAlive())) {
            assertTrue(System.nanoTime() < deadline, "abandoned evaluation thread still running after 120 s");
            Thread.onSpinWait();
            Thread.yield();
        }
    }
}
