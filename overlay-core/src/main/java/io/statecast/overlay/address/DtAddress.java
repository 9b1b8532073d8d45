package io.statecast.overlay.address;

/**
 * Logical address of a node in a Delaunay-triangulation overlay: integer coordinates in the plane.
 *
 * @param x horizontal coordinate
 * @param y vertical coordinate
 */
public record DtAddress(int x, int y) implements LogicalAddress {

    @Override
    public Family family() {
        return Family.DT;
    }

    @Override
    public long toBits() {
        return ((long) x << 32) | (y & 0xFFFF_FFFFL);
    }

    @Override
    public String toString() {
        return "(" + x + "," + y + ")";
    }
}
