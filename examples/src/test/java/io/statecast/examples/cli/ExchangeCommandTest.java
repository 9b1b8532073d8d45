package io.statecast.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ExchangeCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = StatecastCommand.newCommandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void shouldRefuseBadArgumentsNamingThem() {
        assertEquals(2, run("exchange", "--size", "5"));
        assertTrue(err.toString().contains("--size=5 must be within 12..60000"), err.toString());
        assertEquals(2, run("exchange", "--loss", "1.5"));
        assertTrue(err.toString().contains("--loss=1.5 must be within 0..1"), err.toString());
        assertEquals(2, run("exchange", "--substrate", "smoke"));
    }

    @Test
    void payloadShouldRoundTripAndDetectCorruption() {
        byte[] p = ExchangeCommand.payload(123_456, 64, new SplittableRandom(1));
        assertEquals(123_456, ExchangeCommand.check(p));
        p[20] ^= 1;
        assertEquals(-1, ExchangeCommand.check(p));
    }

    @ParameterizedTest
    @ValueSource(strings = {"mem", "tcp", "udp"})
    void shouldExchangeWithoutCorruption(String substrate) {
        int status = run("exchange", "--substrate", substrate, "--messages", "5000", "--size", "100", "--seed", "7");

        assertEquals(0, status, out + "\n" + err);
        assertTrue(out.toString().contains("corrupt    0"), out.toString());
    }
}
