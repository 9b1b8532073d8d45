package io.statecast.overlay.socket;

import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.node.tree.TreeNode;
import java.util.EnumMap;
import java.util.Map;

/**
 * The built-in overlay nodes by {@link NodeType}: the spanning tree. (The Delaunay-triangulation
 * node registers here with one line when it lands.)
 */
public final class OverlayNodeFactories {

    private OverlayNodeFactories() {
    }

    /** A fresh, mutable map of the built-in factories. */
    public static Map<NodeType, OverlayNodeFactory> builtIn() {
        Map<NodeType, OverlayNodeFactory> m = new EnumMap<>(NodeType.class);
        m.put(NodeType.TREE, (config, address, env) -> new TreeNode((TreeAddress) address, config.treeSettings(), env));
        return m;
    }
}
