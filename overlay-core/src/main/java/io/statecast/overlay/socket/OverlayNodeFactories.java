package io.statecast.overlay.socket;

import io.statecast.overlay.address.DtAddress;
import io.statecast.overlay.address.TreeAddress;
import io.statecast.overlay.node.dt.DtNode;
import io.statecast.overlay.node.tree.TreeNode;
import java.util.EnumMap;
import java.util.Map;

/**
 * The built-in overlay nodes by {@link NodeType}: the Delaunay triangulation and the spanning tree.
 */
public final class OverlayNodeFactories {

    private OverlayNodeFactories() {
    }

    /** A fresh, mutable map of the built-in factories. */
    public static Map<NodeType, OverlayNodeFactory> builtIn() {
        Map<NodeType, OverlayNodeFactory> m = new EnumMap<>(NodeType.class);
        m.put(NodeType.DT, (config, address, env) -> new DtNode((DtAddress) address, config.dtSettings(), env));
        m.put(NodeType.TREE, (config, address, env) -> new TreeNode((TreeAddress) address, config.treeSettings(), env));
        return m;
    }
}
