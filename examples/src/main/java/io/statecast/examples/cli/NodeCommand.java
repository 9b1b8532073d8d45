package io.statecast.examples.cli;

import io.statecast.examples.node.NodeRunner;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;

/** {@code statecast node --config FILE}: one overlay node process with a line protocol for automation. */
@Command(name = "node", mixinStandardHelpOptions = true,
        description = {
            "Run one overlay node until stopped (SIGTERM, 'quit', or the end of --control input): join, serve, leave.",
            "Events go to stdout as lines (READY, STATE, NEIGHBOURS, JOINED, RECV, ...); see docs/node.md.",
            "Exit status: 0 after a graceful stop, 1 if an interface cannot be opened or the join fails, 2 for a bad configuration."
        })
final class NodeCommand implements Callable<Integer> {

    /** Where commands come from. */
    enum Control { stdin, none }

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "overlay configuration (.yaml, .yml or .json)")
    private Path config;

    @Option(names = "--status-file", paramLabel = "FILE",
            description = "keep a JSON status document here, replaced atomically on every change (at most 4 times a second)")
    private Path statusFile;

    @Option(names = "--control", defaultValue = "none", paramLabel = "SOURCE",
            description = "stdin: read commands from standard input, whose end stops the node; none: ignore it (default: ${DEFAULT-VALUE})")
    private Control control;

    @Option(names = "--input-loss", defaultValue = "0", paramLabel = "P",
            description = "drop each frame the node's UDP interfaces receive with probability P, 0..0.5, for tests of loss between processes (default: ${DEFAULT-VALUE})")
    private double inputLoss;

    @Option(names = "--loss-seed", defaultValue = "1", paramLabel = "N", description = "seeds --input-loss (default: ${DEFAULT-VALUE})")
    private long lossSeed;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        if (!(inputLoss >= 0 && inputLoss <= 0.5)) {
            throw new ParameterException(spec.commandLine(), "--input-loss=" + inputLoss + " must be within 0..0.5");
        }
        return new NodeRunner(new NodeRunner.Options(config, statusFile, control == Control.stdin, inputLoss, lossSeed),
                System.in, System.out, System.err).run();
    }
}
