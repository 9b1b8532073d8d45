package io.statecast.examples.cli;

import io.statecast.examples.chat.Chat;
import io.statecast.overlay.socket.OverlayConfigException;
import io.statecast.overlay.socket.OverlayJoinException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code statecast chat --config FILE}: the chat example over an overlay. */
@Command(name = "chat", mixinStandardHelpOptions = true,
        description = {"Chat over an overlay: lines from stdin are multicast, received messages printed. "
                + "/to ID text, /who, /stats, /quit.",
            "Exit status: 0 after /quit or the end of input, 1 if the join fails, 2 for a bad configuration."})
final class ChatCommand implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "overlay configuration (.yaml or .json)")
    private Path config;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        try {
            return Chat.run(config, System.out);
        } catch (OverlayConfigException e) {
            spec.commandLine().getErr().println("statecast chat: " + e.getMessage());
            return CommandLine.ExitCode.USAGE;
        } catch (OverlayJoinException | IOException e) {
            spec.commandLine().getErr().println("statecast chat: " + e.getMessage());
            return CommandLine.ExitCode.SOFTWARE;
        }
    }
}
