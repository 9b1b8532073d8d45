package io.statecast.messagestore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SpecSignCommandTest {

    private record Run(int exit, String out) {
    }

    private static Run run(Object command, String... args) {
        StringWriter out = new StringWriter();
        CommandLine cl = new CommandLine(command);
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(out));
        int exit = cl.execute(args);
        return new Run(exit, out.toString());
    }

    @Test
    void keygenSignVerifyWithTheCliConvention(@TempDir Path dir) throws Exception {
        Path spec = Path.of(SpecSignCommandTest.class.getClassLoader().getResource("specs/minimal.scxml").toURI());
        String prefix = dir.resolve("alice").toString();
        Run k = run(new KeygenCommand(), "--out", prefix);
        assertEquals(0, k.exit(), k.out());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(prefix + ".key"))));
        Run again = run(new KeygenCommand(), "--out", prefix);
        assertEquals(2, again.exit(), again.out());
        assertTrue(again.out().contains(prefix + ".key exists already"), again.out());
        assertEquals(0, run(new KeygenCommand(), "--out", dir.resolve("mallory").toString()).exit());

        Path signed = dir.resolve("signed.scxml");
        Run s = run(new SpecCommand(), "sign", "--key", prefix + ".key", spec.toString(), "-o", signed.toString());
        assertEquals(0, s.exit(), s.out());
        Run v = run(new SpecCommand(), "verify", "--trust", prefix + ".pub", signed.toString());
        assertEquals(0, v.exit(), v.out());
        assertTrue(v.out().contains("signed by trusted key"), v.out());
        // the signed spec still validates
        assertEquals(0, run(new SpecCommand(), "validate", signed.toString()).exit());

        Run unsigned = run(new SpecCommand(), "verify", "--trust", prefix + ".pub", spec.toString());
        assertEquals(1, unsigned.exit(), unsigned.out());
        assertTrue(unsigned.out().contains("not signed"), unsigned.out());
        Run other = run(new SpecCommand(), "verify", "--trust", dir.resolve("mallory.pub").toString(), signed.toString());
        assertEquals(1, other.exit(), other.out());
        Path tampered = Files.writeString(dir.resolve("t.scxml"), Files.readString(signed).replace("default=\"100\"",
                "default=\"1\""));
        Run t = run(new SpecCommand(), "verify", "--trust", prefix + ".pub", tampered.toString());
        assertEquals(1, t.exit(), t.out());
        assertTrue(t.out().contains("does not match the document"), t.out());

        Run twice = run(new SpecCommand(), "sign", "--key", prefix + ".key", signed.toString(), "-o", dir.resolve("x").toString());
        assertEquals(1, twice.exit(), twice.out());
        Run pubAsKey = run(new SpecCommand(), "sign", "--key", prefix + ".pub", spec.toString(), "-o", dir.resolve("y").toString());
        assertEquals(2, pubAsKey.exit(), pubAsKey.out());
        Run missing = run(new SpecCommand(), "verify", "--trust", dir.resolve("none.pub").toString(), signed.toString());
        assertEquals(2, missing.exit(), missing.out());
        assertTrue(missing.out().contains("no such file"), missing.out());
    }
}
