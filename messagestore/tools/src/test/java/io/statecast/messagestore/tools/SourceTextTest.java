package io.statecast.messagestore.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Columns from line numbers: the start tag asked for, else the line's first tag, else its text. */
class SourceTextTest {

    private static SourceText of(String s) {
        return SourceText.of(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldFindTheStartTagOfTheElementOnTheLine() {
        SourceText t = of("\uFEFF<a>\r\n  </x><action:execute name=\"t\"/>\r  text\n<state id=\"s\"><statex/>");
        assertEquals(7, t.column(2, "execute"), "any prefix, after an end tag");
        assertEquals(3, t.column(2, "set"), "not there: the first '<'");
        assertEquals(3, t.column(3, "state"), "no tag: the first non-blank character (a lone CR ends a line)");
        assertEquals(1, t.column(4, "state"));
        assertEquals(1, t.column(1, "a"), "the byte-order mark is not a column");
        assertEquals(0, t.column(0, "a"));
        assertEquals(0, t.column(9, "a"));
        assertEquals(0, SourceText.empty().column(1, "a"));
    }
}
