/**
 * The spanning-tree overlay: {@link io.statecast.overlay.node.tree.TreeNode} (integer ids, the root
 * is the largest), its published view {@link io.statecast.overlay.node.tree.TreeTopology}, and its
 * protocol messages {@link io.statecast.overlay.node.tree.TreeMessages}.
 */
package io.statecast.overlay.node.tree;
