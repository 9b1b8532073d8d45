package io.statecast.specserver;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.socket.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection after an error response without destroying that response. When a server
 * closes a socket that still has unread request bytes (the rest of a body it refused), the kernel
 * answers with a reset, and a reset can make the client drop the response it has not read yet. So
 * we shut down our sending side (the client sees the end of the response), keep reading and
 * dropping what the client still sends, and close when the client closes or after
 * {@value #LINGER_MS} ms, whichever comes first. Nothing read is buffered: the handlers upstream
 * are in discard mode when this is used.
 */
final class LingeringClose {

    /** Longest time a refused connection is drained before it is closed. */
    static final long LINGER_MS = 2000;

    private LingeringClose() {
    }

    /**
     * @param written the write of the final response
     */
    static void afterWrite(ChannelFuture written) {
        Channel ch = written.channel();
        written.addListener(f -> {
            if (!f.isSuccess() || !(ch instanceof SocketChannel socket) || !ch.isActive()) {
                ch.close();
                return;
            }
            socket.shutdownOutput().addListener(s -> {
                if (!s.isSuccess()) {
                    ch.close();
                    return;
                }
                ch.eventLoop().schedule(() -> {
                    ch.close();
                }, LINGER_MS, TimeUnit.MILLISECONDS);
                ch.config().setAutoRead(true);
            });
        });
    }
}
