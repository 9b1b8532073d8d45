package io.statecast.messagestore.cli;

import io.statecast.messagestore.deploy.SigningKey;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code statecast keygen --out PREFIX}: a new Ed25519 key pair for signing specs, written to
 * {@code PREFIX.key} (private, mode 600) and {@code PREFIX.pub} (public). Never overwrites.
 */
@Command(name = "keygen",
        description = "Generate an Ed25519 key pair for signing specs: PREFIX.key (private, mode 600) and PREFIX.pub "
                + "(public, for --trust and trustedKeys). Exit status 0: written, 1: writing failed, "
                + "2: bad usage or a file exists already (never overwritten).")
public final class KeygenCommand implements Callable<Integer> {

    @Option(names = "--out", required = true, paramLabel = "PREFIX", description = "Path prefix of the two files.")
    private Path prefix;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        SigningKey key = SigningKey.generate();
        try {
            key.write(prefix);
        } catch (FileAlreadyExistsException e) {
            spec.commandLine().getErr().println("keygen: " + e.getFile() + " exists already; not overwriting a key");
            spec.commandLine().getErr().flush();
            return CommandLine.ExitCode.USAGE;
        } catch (IOException e) {
            spec.commandLine().getErr().println("keygen: cannot write " + prefix + ".key/.pub: "
                    + io.statecast.overlay.io.FileErrors.describe(e));
            spec.commandLine().getErr().flush();
            return e instanceof java.nio.file.NoSuchFileException || e instanceof java.nio.file.AccessDeniedException
                    ? CommandLine.ExitCode.USAGE : CommandLine.ExitCode.SOFTWARE;
        }
        spec.commandLine().getOut().println("wrote " + prefix + ".key and " + prefix + ".pub (key id " + key.keyId() + ")");
        spec.commandLine().getOut().flush();
        return 0;
    }
}
