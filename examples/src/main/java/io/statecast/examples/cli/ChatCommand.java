package io.statecast.examples.cli;

import io.statecast.examples.chat.Chat;
import io.statecast.overlay.socket.OverlayConfigException;
import io.statecast.overlay.socket.OverlayJoinException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code statecast chat --config FILE}: the chat example over an overlay. */
@Command(name = "chat", mixinStandardHelpOptions = true,
        description = "Chat over an overlay: lines from stdin are multicast, received messages printed. "
                + "/to ID text, /who, /stats, /quit.")
final class ChatCommand implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "overlay configuration (.yaml or .json)")
    private Path config;

    @Override
    public Integer call() throws Exception {
        try {
            return Chat.run(config, System.out);
        } catch (OverlayConfigException | OverlayJoinException | IOException e) {
            System.err.println("statecast chat: " + e.getMessage());
            return 1;
        }
    }
}
