package io.statecast.messagestore.cli;

import io.statecast.messagestore.deploy.SigningKey;
import io.statecast.messagestore.deploy.SpecSignatures;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLimits;
import io.statecast.overlay.io.FileErrors;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code statecast spec sign --key PREFIX.key SPEC -o SIGNED}: writes SPEC with an Ed25519
 * signature element ({@link SpecSignatures}).
 */
@Command(name = "sign",
        description = "Sign a spec with an Ed25519 key (from 'statecast keygen'): writes the spec with a signature "
                + "element as the last child of its root. Exit status 0: signed, 1: the spec cannot be signed "
                + "(malformed, signed already), 2: bad usage or a file cannot be read.")
final class SpecSignCommand implements Callable<Integer> {

    @Option(names = "--key", required = true, paramLabel = "PREFIX.key", description = "The private key file.")
    private Path keyFile;

    @Option(names = {"-o", "--out"}, required = true, paramLabel = "SIGNED",
            description = "Where to write the signed spec ('-': standard output).")
    private String out;

    @Parameters(index = "0", paramLabel = "SPEC", description = "The spec to sign.")
    private Path file;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        Integer refused = InputFiles.refuseUnreadable(List.of(keyFile, file), err);
        if (refused != null) {
            return refused;
        }
        SigningKey key;
        byte[] doc;
        try {
            key = SigningKey.read(keyFile);
            doc = read(file, SpecLimits.DEFAULTS.maxBytes());
        } catch (IOException e) {
            err.println("spec sign: " + e.getMessage());
            err.flush();
            return CommandLine.ExitCode.USAGE;
        }
        byte[] signed;
        try {
            signed = SpecSignatures.sign(file.toString(), doc, key, SpecLimits.DEFAULTS);
        } catch (SpecException e) {
            err.println("spec sign: " + e.getMessage());
            err.flush();
            return CommandLine.ExitCode.SOFTWARE;
        }
        try {
            if (out.equals("-")) {
                System.out.write(signed);
                System.out.flush();
            } else {
                Path target = Path.of(out);
                Path dir = target.toAbsolutePath().getParent();
                Path tmp = Files.createTempFile(dir, ".sign-", ".tmp");
                try {
                    Files.write(tmp, signed);
                    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } finally {
                    Files.deleteIfExists(tmp);
                }
                err.println("signed " + file + " with key " + key.keyId() + " -> " + target);
                err.flush();
            }
        } catch (IOException e) {
            err.println("spec sign: cannot write " + out + ": " + FileErrors.describe(e));
            err.flush();
            return CommandLine.ExitCode.USAGE;
        }
        return 0;
    }

    static byte[] read(Path file, int maxBytes) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] b = in.readNBytes(maxBytes + 1);
            if (b.length > maxBytes) {
                throw new IOException(file + ": larger than the limit of " + maxBytes + " bytes");
            }
            return b;
        }
    }
}
