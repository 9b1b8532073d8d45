package io.statecast.overlay.message;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.address.TreeAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Seeded generator of valid {@link WireMessage}s covering every header variant: both kinds, all
 * delivery modes, both address families, optional destination and root, payload, FSM, fields and
 * unknown extensions in any order, boundary values of every numeric field.
 */
final class RandomMessages {

    private static final int[] EDGE_INTS = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE};
    private static final long[] EDGE_LONGS = {0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE};

    private final Random random;
    private final int maxPayloadBytes;

    /**
     * @param random          the seeded source of every choice
     * @param maxPayloadBytes largest payload, protocol body or unknown-extension body generated
     */
    RandomMessages(Random random, int maxPayloadBytes) {
        this.random = random;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    /** A protocol message (about one in six) or an application message. */
    WireMessage next() {
        return random.nextInt(6) == 0 ? protocol() : application();
    }

    ProtocolMessage protocol() {
        return new ProtocolMessage(random.nextInt(256), bytes(size(maxPayloadBytes)));
    }

    OverlayMessage application() {
        DeliveryMode mode = DeliveryMode.values()[random.nextInt(DeliveryMode.values().length)];
        LogicalAddress.Family family = LogicalAddress.Family.values()[random.nextInt(LogicalAddress.Family.values().length)];
        LogicalAddress destination = mode == DeliveryMode.UNICAST || random.nextBoolean() ? address(family) : null;
        LogicalAddress root = random.nextBoolean() ? address(family) : null;
        int hopLimit = switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> OverlayMessage.MAX_HOP_LIMIT;
            default -> random.nextInt(OverlayMessage.MAX_HOP_LIMIT + 1);
        };
        List<Extension> extensions = new ArrayList<>();
        if (random.nextInt(4) != 0) {
            extensions.add(new PayloadExtension(bytes(size(maxPayloadBytes))));
        }
        if (random.nextBoolean()) {
            extensions.add(new FsmExtension(anInt(), (byte) anInt(), aLong()));
            if (random.nextBoolean()) {
                extensions.add(new FieldsExtension(fields()));
            }
        }
        int unknown = random.nextInt(10) == 0
                ? MessageCodec.MAX_EXTENSIONS - extensions.size()
                : random.nextInt(3);
        for (int i = 0; i < unknown; i++) {
            int unknownType = 3 + random.nextInt(252); // 3 (the flood id) or 5..255: 4 is the fields extension
            extensions.add(new UnknownExtension(unknownType >= 4 ? unknownType + 1 : unknownType, bytes(random.nextInt(Math.min(65, maxPayloadBytes + 1)))));
        }
        Collections.shuffle(extensions, random);
        return new OverlayMessage(mode, hopLimit, address(family), destination, address(family), root, extensions);
    }

    /**
     * The same kind of message as {@link #next()}, with its payload (or protocol body) grown so
     * that the frame is {@code codec.maxMessageBytes() - slack} bytes.
     */
    WireMessage nearMax(MessageCodec codec, int slack) {
        WireMessage m = next();
        if (m instanceof ProtocolMessage p) {
            int fixed = codec.encodedSize(new ProtocolMessage(p.type(), new byte[0]));
            return new ProtocolMessage(p.type(), bytes(codec.maxMessageBytes() - slack - fixed));
        }
        OverlayMessage o = (OverlayMessage) m;
        List<Extension> others = new ArrayList<>();
        for (Extension e : o.extensions()) {
            if (!(e instanceof PayloadExtension)) {
                others.add(e);
            }
        }
        if (others.size() == MessageCodec.MAX_EXTENSIONS) {
            // drop an unknown extension (the chain is full of them), never the FSM one fields need
            for (int i = others.size() - 1; i >= 0; i--) {
                if (others.get(i) instanceof UnknownExtension) {
                    others.remove(i);
                    break;
                }
            }
        }
        int index = random.nextInt(others.size() + 1);
        others.add(index, new PayloadExtension(new byte[0]));
        int fixed = codec.encodedSize(withExtensions(o, others));
        others.set(index, new PayloadExtension(bytes(codec.maxMessageBytes() - slack - fixed)));
        return withExtensions(o, others);
    }

    private static OverlayMessage withExtensions(OverlayMessage o, List<Extension> extensions) {
        return new OverlayMessage(o.mode(), o.hopLimit(), o.source(), o.destination(), o.previousHop(), o.root(), extensions);
    }

    private static final String NAME_START = "ABCXYZabcxyz_";
    private static final String NAME_REST = NAME_START + "0189";

    /**
     * Non-empty fields of every type, with edge values; at most about 400 bytes so frames stay
     * within small test maxima (sixteen fields come with short names and values).
     */
    MessageFields fields() {
        boolean many = random.nextInt(10) == 0;
        int count = many ? MessageFields.MAX_FIELDS : 1 + random.nextInt(3);
        int valueMax = many ? 8 : 16;
        java.util.Map<String, MessageField> map = new java.util.HashMap<>();
        while (map.size() < count) {
            int nameLength = many ? 1 + random.nextInt(4)
                    : random.nextInt(8) == 0 ? MessageFields.MAX_NAME_BYTES : 1 + random.nextInt(8);
            StringBuilder name = new StringBuilder().append(NAME_START.charAt(random.nextInt(NAME_START.length())));
            while (name.length() < nameLength) {
                name.append(NAME_REST.charAt(random.nextInt(NAME_REST.length())));
            }
            map.put(name.toString(), field(valueMax));
        }
        return MessageFields.of(map);
    }

    private MessageField field(int valueMax) {
        return switch (random.nextInt(4)) {
            case 0 -> new MessageField.Int(aLong());
            case 1 -> {
                StringBuilder t = new StringBuilder();
                String alphabet = "aZ9 é€\uD83D\uDE00<&";
                while (t.length() < random.nextInt(valueMax / 2 + 1)) {
                    t.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
                // never split a surrogate pair
                String s = t.toString().replace("\uD83D\uDE00", "").replace("\uD83D", "").replace("\uDE00", "");
                yield new MessageField.Text(s);
            }
            case 2 -> new MessageField.Bytes(bytes(random.nextInt(valueMax + 1)));
            default -> {
                List<MessageField.Range> ranges = new ArrayList<>();
                long at = random.nextBoolean() ? 0 : random.nextInt(1000);
                for (int i = random.nextInt(valueMax / 16 + 2); i > 0; i--) {
                    long last = at + random.nextInt(5);
                    ranges.add(new MessageField.Range(at, last));
                    at = last + 2 + random.nextInt(3);
                }
                yield new MessageField.Ranges(ranges);
            }
        };
    }

    private LogicalAddress address(LogicalAddress.Family family) {
        return switch (family) {
            case DT -> new DtAddress(anInt(), anInt());
            case TREE -> new TreeAddress(aLong());
        };
    }

    /** Mostly small sizes, sometimes 0 or the maximum, sometimes anything up to the maximum. */
    private int size(int max) {
        return switch (random.nextInt(8)) {
            case 0 -> 0;
            case 1 -> max;
            case 2, 3 -> random.nextInt(Math.min(32, max) + 1);
            default -> random.nextInt(max + 1);
        };
    }

    private int anInt() {
        return random.nextInt(4) == 0 ? EDGE_INTS[random.nextInt(EDGE_INTS.length)] : random.nextInt();
    }

    private long aLong() {
        return random.nextInt(4) == 0 ? EDGE_LONGS[random.nextInt(EDGE_LONGS.length)] : random.nextLong();
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
