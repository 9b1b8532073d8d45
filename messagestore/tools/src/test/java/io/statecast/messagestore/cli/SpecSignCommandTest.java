package io.statecast.messagestore.cli;

import static io.statecast.messagestore.cli.CommandRun.run;
import static io.statecast.messagestore.cli.CommandRun.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecSignCommandTest {

    @Test
    void keygenSignVerifyWithTheCliConvention(@TempDir Path dir) throws Exception {
        Path spec = Path.of(SpecSignCommandTest.class.getClassLoader().getResource("specs/minimal.scxml").toURI());
        String prefix = dir.resolve("alice").toString();
        CommandRun k = run(new KeygenCommand(), "--out", prefix);
        assertEquals(0, k.exit(), k.out());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(prefix + ".key"))));
        CommandRun again = run(new KeygenCommand(), "--out", prefix);
        assertEquals(2, again.exit(), again.out());
        assertTrue(again.out().contains(prefix + ".key exists already"), again.out());
        assertEquals(0, run(new KeygenCommand(), "--out", dir.resolve("mallory").toString()).exit());

        Path signed = dir.resolve("signed.scxml");
        CommandRun s = spec("sign", "--key", prefix + ".key", spec.toString(), "-o", signed.toString());
        assertEquals(0, s.exit(), s.out());
        CommandRun v = spec("verify", "--trust", prefix + ".pub", signed.toString());
        assertEquals(0, v.exit(), v.out());
        assertTrue(v.out().contains("signed by trusted key"), v.out());
        // the signed spec still validates
        assertEquals(0, spec("validate", signed.toString()).exit());

        CommandRun unsigned = spec("verify", "--trust", prefix + ".pub", spec.toString());
        assertEquals(1, unsigned.exit(), unsigned.out());
        assertTrue(unsigned.out().contains("not signed"), unsigned.out());
        CommandRun other = spec("verify", "--trust", dir.resolve("mallory.pub").toString(), signed.toString());
        assertEquals(1, other.exit(), other.out());
        Path tampered = Files.writeString(dir.resolve("t.scxml"), Files.readString(signed).replace("default=\"100\"",
                "default=\"1\""));
        CommandRun t = spec("verify", "--trust", prefix + ".pub", tampered.toString());
        assertEquals(1, t.exit(), t.out());
        assertTrue(t.out().contains("does not match the document"), t.out());

        CommandRun twice = spec("sign", "--key", prefix + ".key", signed.toString(), "-o", dir.resolve("x").toString());
        assertEquals(1, twice.exit(), twice.out());
        CommandRun pubAsKey = spec("sign", "--key", prefix + ".pub", spec.toString(), "-o",
                dir.resolve("y").toString());
        assertEquals(2, pubAsKey.exit(), pubAsKey.out());
        CommandRun missing = spec("verify", "--trust", dir.resolve("none.pub").toString(), signed.toString());
        assertEquals(2, missing.exit(), missing.out());
        assertTrue(missing.out().contains("no such file"), missing.out());
    }
}
