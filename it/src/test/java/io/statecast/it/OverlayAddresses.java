package io.statecast.it;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/** Distinct logical addresses for test nodes, drawn from a seeded generator. */
final class OverlayAddresses {

    private OverlayAddresses() {
    }

    /** {@code n} distinct addresses for nodes of {@code nodeType}: decimal ids (TREE) or points {@code x,y} (DT). */
    static List<String> distinct(String nodeType, int n, Random random) {
        Set<String> out = new LinkedHashSet<>();
        while (out.size() < n) {
            out.add(switch (nodeType) {
                case "TREE" -> Long.toString(1 + random.nextInt(1_000_000_000));
                case "DT" -> random.nextInt(10_001) + "," + random.nextInt(10_001);
                default -> throw new IllegalArgumentException("unknown node type " + nodeType);
            });
        }
        return List.copyOf(out);
    }
}
