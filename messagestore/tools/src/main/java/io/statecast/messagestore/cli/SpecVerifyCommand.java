package io.statecast.messagestore.cli;

import io.statecast.messagestore.deploy.SpecSignatures;
import io.statecast.messagestore.deploy.TrustedKeys;
import io.statecast.messagestore.spec.SpecLimits;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code statecast spec verify --trust KEY.pub… SPEC…}: checks each spec's signature against the
 * trusted public keys, as a node with {@code trustedKeys} does.
 */
@Command(name = "verify",
        description = "Check that specs are signed by a trusted key, as nodes with trustedKeys and spec servers with "
                + "--trust do. Exit status 0: every spec is validly signed, 1: one is not, 2: bad usage or a file "
                + "cannot be read.")
final class SpecVerifyCommand implements Callable<Integer> {

    @Option(names = "--trust", required = true, paramLabel = "KEY.pub",
            description = "A public key file to trust; repeat for several.")
    private List<Path> trust;

    @Parameters(arity = "1..*", paramLabel = "SPEC", description = "Specs to check.")
    private List<Path> files;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        List<Path> all = new ArrayList<>(trust);
        all.addAll(files);
        Integer refused = InputFiles.refuseUnreadable(all, err);
        if (refused != null) {
            return refused;
        }
        TrustedKeys keys;
        try {
            keys = TrustedKeys.read(trust);
        } catch (IOException e) {
            err.println("spec verify: " + e.getMessage());
            err.flush();
            return CommandLine.ExitCode.USAGE;
        }
        int failed = 0;
        for (Path f : files) {
            byte[] doc;
            try {
                doc = SpecSignCommand.read(f, SpecLimits.DEFAULTS.maxBytes());
            } catch (IOException e) {
                err.println("spec verify: " + e.getMessage());
                err.flush();
                return CommandLine.ExitCode.USAGE;
            }
            SpecSignatures.Verdict v = SpecSignatures.verify(f.toString(), doc, keys, SpecLimits.DEFAULTS);
            if (v.valid()) {
                out.println(v.message());
            } else {
                failed++;
                out.println(v.message());
            }
        }
        out.flush();
        return failed > 0 ? CommandLine.ExitCode.SOFTWARE : 0;
    }
}
