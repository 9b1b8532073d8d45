package io.statecast.overlay.address;

/**
 * Logical address of a node in a spanning-tree overlay: an integer identifier.
 *
 * @param id the node's identifier; larger identifiers win root election
 */
public record TreeAddress(long id) implements LogicalAddress {

    @Override
    public Family family() {
        return Family.TREE;
    }

    @Override
    public long toBits() {
        return id;
    }

    @Override
    public String toString() {
        return "#" + id;
    }
}
