package io.statecast.examples.hello;

import io.statecast.overlay.message.OverlayMessage;
import io.statecast.overlay.socket.OverlayConfig;
import io.statecast.overlay.socket.OverlaySocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The smallest application of a delivery service, as docs/authoring.md shows it: a receiver and
 * a sender in one process, the sender multicasting with h2h-ack (ServiceID 1), the receiver
 * getting the message from its MessageStore. Run with the sample configurations:
 * {@code java … io.statecast.examples.hello.ServiceHello examples/configs/founder.yaml examples/configs/joiner.yaml}.
 */
public final class ServiceHello {

    private ServiceHello() {
    }

    /**
     * Sends "hello" from a node of {@code senderConfig} to the node of {@code receiverConfig}.
     *
     * @return what the receiver got, or {@code null} if nothing came within 30 s
     */
    public static String run(OverlayConfig receiverConfig, OverlayConfig senderConfig) throws Exception {
        // docs/authoring.md shows this block as written
        try (OverlaySocket receiver = OverlaySocket.create(receiverConfig);
             OverlaySocket sender = OverlaySocket.create(senderConfig)) {
            receiver.join();                                   // first: the sender joins through it
            sender.join();
            sender.sendToAll("hello".getBytes(StandardCharsets.UTF_8), 1);   // multicast with h2h-ack
            OverlayMessage m = receiver.receive(30, TimeUnit.SECONDS);       // once, from its MessageStore
            return m == null ? null : new String(m.payload(), StandardCharsets.UTF_8);
        }
        // end of the block docs/authoring.md shows
    }

    /**
     * Runs it.
     *
     * @param args the receiver's and the sender's configuration files
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: ServiceHello RECEIVER_CONFIG SENDER_CONFIG");
            System.exit(2);
        }
        String got = run(OverlayConfig.load(Path.of(args[0])), OverlayConfig.load(Path.of(args[1])));
        System.out.println(got == null ? "nothing arrived" : "received: " + got);
        System.exit(got == null ? 1 : 0);
    }
}
