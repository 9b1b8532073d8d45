package io.statecast.overlay.substrate;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Event-loop plumbing shared by the UDP and TCP interfaces. */
final class NettyLoops {

    private static final Logger LOG = LoggerFactory.getLogger(NettyLoops.class);
    /** Longest wait for a channel or a group to close. */
    private static final long CLOSE_WAIT_MILLIS = 5_000;

    private NettyLoops() {
    }

    /** A one-thread NIO group of daemon threads named {@code name-…}. */
    static EventLoopGroup newGroup(String name) {
        return new NioEventLoopGroup(1, new DefaultThreadFactory(name, true));
    }

    /** Closes {@code channel}, waiting for it unless called on its own event loop. */
    static void close(Channel channel) {
        if (channel == null) {
            return;
        }
        var f = channel.close();
        if (!channel.eventLoop().inEventLoop() && !f.awaitUninterruptibly(CLOSE_WAIT_MILLIS)) {
            LOG.warn("{} did not close within {} ms", channel, CLOSE_WAIT_MILLIS);
        }
    }

    /** Shuts an owned group down at once, waiting for it unless called on one of its threads. */
    static void shutdown(EventLoopGroup group) {
        var f = group.shutdownGracefully(0, CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        boolean own = false;
        for (var e : group) {
            own |= e.inEventLoop();
        }
        if (!own && !f.awaitUninterruptibly(CLOSE_WAIT_MILLIS + 1_000)) {
            LOG.warn("event loop group did not terminate in time");
        }
    }
}
