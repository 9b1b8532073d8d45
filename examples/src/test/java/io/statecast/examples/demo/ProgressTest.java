package io.statecast.examples.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The progress display: a bar redrawn in place on a terminal, plain lines elsewhere. */
class ProgressTest {

    @Test
    void theLineShouldShowTheShareDeliveredAndTheCounts() {
        assertEquals("[###############---------------]  50%  sent 10,000/10,000  delivered 25,000/50,000  12.3 s",
                Progress.line(10_000, 10_000, 25_000, 50_000, 12.34));
        assertTrue(Progress.line(0, 10, 0, 0, 0).startsWith("[" + "#".repeat(30) + "] 100%"), "nothing expected: done");
    }

    @Test
    void aTerminalShouldGetOneLineRedrawnInPlace() {
        StringWriter w = new StringWriter();
        Progress p = new Progress(new PrintWriter(w), true, 1_000);
        p.update(1, 10, 1, 20, 0.1);
        p.update(2, 10, 3, 20, 0.2);
        p.finish(10, 10, 20, 20, 1.0);
        String s = w.toString();
        assertTrue(s.startsWith("\r["), s);
        assertEquals(3, s.chars().filter(c -> c == '\r').count(), s);
        assertEquals(1, s.chars().filter(c -> c == '\n').count(), "one line in the end: " + s);
    }

    @Test
    void aPipeShouldGetPlainLinesAtMostEveryPeriod() {
        StringWriter w = new StringWriter();
        Progress p = new Progress(new PrintWriter(w), false, 3_600_000);
        p.update(1, 10, 1, 20, 0.1);
        p.update(2, 10, 3, 20, 0.2);
        p.finish(10, 10, 20, 20, 1.0);
        String s = w.toString();
        assertFalse(s.contains("\r"), s);
        assertEquals(1, s.lines().count(), "within the period only the final line: " + s);
        assertTrue(s.contains("delivered 20/20"), s);
    }
}
