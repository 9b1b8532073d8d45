package io.statecast.examples.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ControlCommandTest {

    @Test
    void shouldParseEveryCommand() throws ControlException {
        assertEquals(new ControlCommand.SendAll(3, 100), ControlCommand.parse("send-all 3 100"));
        assertEquals(new ControlCommand.SendAll(3, 100, 4242), ControlCommand.parse("send-all 3 100 4242"));
        assertEquals(new ControlCommand.SendTo("12,34", 1, 16), ControlCommand.parse("  send-to   12,34 1 16 "));
        assertEquals(new ControlCommand.SendTo("7", 2, 16, 10), ControlCommand.parse("send-to 7 2 16 10"));
        assertEquals(new ControlCommand.Flood(1000000, 65536), ControlCommand.parse("FLOOD 1000000 65536"));
        assertEquals(new ControlCommand.Stats(), ControlCommand.parse("stats"));
        assertEquals(new ControlCommand.Peers(12), ControlCommand.parse("peers 12"));
        assertEquals(new ControlCommand.Neighbours(), ControlCommand.parse("neighbours"));
        assertEquals(new ControlCommand.Neighbours(), ControlCommand.parse("neighbors"));
        assertEquals(new ControlCommand.Ping(null), ControlCommand.parse("ping"));
        assertEquals(new ControlCommand.Ping("t-1.x:2"), ControlCommand.parse("ping t-1.x:2"));
        assertEquals(new ControlCommand.Leave(), ControlCommand.parse("leave"));
        assertEquals(new ControlCommand.Quit(), ControlCommand.parse("quit"));
        assertEquals(new ControlCommand.Help(), ControlCommand.parse("help"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''                        | empty command",
        "launch                    | unknown command 'launch'",
        "send-all                  | usage: send-all N SIZE",
        "send-all 1 20 3 4         | usage: send-all N SIZE [SERVICE]",
        "send-all 1 100 -1         | SERVICE=-1 must be within 0..2147483647",
        "send-to 7 1 100 x         | SERVICE='x' is not an integer",
        "send-to 7 1 100 10 11     | usage: send-to ADDRESS N SIZE [SERVICE]",
        "send-all 1 100 x          | SERVICE='x' is not an integer",
        "send-all one 100          | N='one' is not an integer",
        "send-all 0 100            | N=0 must be within 1..1000000",
        "send-all 1000001 100      | N=1000001 must be within 1..1000000",
        "send-all 1 15             | SIZE=15 must be within 16..16777216",
        "send-all 1 99999999999    | SIZE='99999999999' is not an integer",
        "send-to 1 100             | usage: send-to ADDRESS N SIZE",
        "flood 1                   | usage: flood N SIZE",
        "stats please              | usage: stats",
        "quit now                  | usage: quit",
        "ping a b                  | usage: ping [TOKEN]",
        "ping ;rm                  | ping token must match",
    })
    void shouldRefuseBadLinesSayingWhy(String line, String expected) {
        ControlException e = assertThrows(ControlException.class, () -> ControlCommand.parse(line));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void shouldAbbreviateLongUnknownCommands() {
        ControlException e = assertThrows(ControlException.class, () -> ControlCommand.parse("z".repeat(1000)));
        assertTrue(e.getMessage().length() < 300, e.getMessage());
    }
}
