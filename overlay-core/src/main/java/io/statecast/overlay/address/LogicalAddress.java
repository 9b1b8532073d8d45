package io.statecast.overlay.address;

/**
 * The blueprint's <em>logical address</em>: the identity of an overlay node, independent of the
 * substrate addresses it can be reached at. One overlay uses one family of logical address.
 *
 * <p>Every logical address encodes in exactly {@link #ENCODED_BYTES} bytes on the wire, so a
 * header's size depends only on which addresses it carries, not on their family.
 */
public sealed interface LogicalAddress permits DtAddress, TreeAddress {

    /** Bytes one logical address takes in a message header. */
    int ENCODED_BYTES = 8;

    /** The family, as written in the one-byte address-family field of a message header. */
    Family family();

    /** The address packed into 64 bits: the form written on the wire. */
    long toBits();

    /** Rebuilds an address of the given family from its {@link #toBits()} form. */
    static LogicalAddress fromBits(Family family, long bits) {
        return switch (family) {
            case DT -> new DtAddress((int) (bits >> 32), (int) bits);
            case TREE -> new TreeAddress(bits);
        };
    }

    /** Address families; the code is the value written on the wire. */
    enum Family {
        /** 2-D integer coordinates of a Delaunay-triangulation overlay. */
        DT(1),
        /** Integer identifier of a spanning-tree overlay. */
        TREE(2);

        private final int code;

        Family(int code) {
            this.code = code;
        }

        /** The wire code of this family. */
        public int code() {
            return code;
        }

        /** The family with this wire code, or {@code null} if there is none. */
        public static Family ofCode(int code) {
            return switch (code) {
                case 1 -> DT;
                case 2 -> TREE;
                default -> null;
            };
        }
    }
}
