package io.statecast.overlay.node.dt;

import io.statecast.overlay.address.DtAddress;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/** Point layouts for tests, degenerate ones in particular. */
final class Layouts {

    private Layouts() {
    }

    /** The w × h lattice {origin + (i·step, j·step)}. */
    static List<DtAddress> lattice(int w, int h, long originX, long originY, long step) {
        List<DtAddress> list = new ArrayList<>();
        for (int i = 0; i < w; i++) {
            for (int j = 0; j < h; j++) {
                list.add(new DtAddress((int) (originX + i * step), (int) (originY + j * step)));
            }
        }
        return list;
    }

    /** n points origin + i·(dx, dy), shuffled. */
    static List<DtAddress> line(int n, long originX, long originY, long dx, long dy, Random random) {
        List<DtAddress> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(new DtAddress((int) (originX + i * dx), (int) (originY + i * dy)));
        }
        Collections.shuffle(list, random);
        return list;
    }

    /** All lattice points on the circle x² + y² = r² around (cx, cy), scaled by {@code scale}. */
    static List<DtAddress> circle(int r, long cx, long cy, long scale) {
        List<DtAddress> list = new ArrayList<>();
        for (int x = -r; x <= r; x++) {
            for (int y = -r; y <= r; y++) {
                if (x * x + y * y == r * r) {
                    list.add(new DtAddress((int) (cx + x * scale), (int) (cy + y * scale)));
                }
            }
        }
        return list;
    }

    /** A random subset of size n of the points. */
    static List<DtAddress> sample(List<DtAddress> points, int n, Random random) {
        List<DtAddress> copy = new ArrayList<>(points);
        Collections.shuffle(copy, random);
        return new ArrayList<>(copy.subList(0, n));
    }
}
