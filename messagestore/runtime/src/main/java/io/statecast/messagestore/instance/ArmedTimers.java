package io.statecast.messagestore.instance;

import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

/**
 * The timers one instance has set: one {@link ArmedTimer} handle per timer id, which carries the
 * id and the generation its expiry must bring back. An instance sets a handful at most (the
 * shipped services two or three at a time), so one array searched linearly replaces a map of
 * boxed ids and entry records, and the handles' own fields replace parallel arrays of ids and
 * generations: fewer objects for every lingering instance to carry through collections, and none
 * made per set.
 *
 * <p>Confined to the instance's thread.
 */
final class ArmedTimers {

    private static final ArmedTimer[] NONE = new ArmedTimer[0];

    private ArmedTimer[] handles = NONE;
    private int size;

    /** Number of timers set. */
    int size() {
        return size;
    }

    /** The generation timer {@code id} is set with, or -1 when it is not set. */
    long generation(int id) {
        int i = indexOf(id);
        return i < 0 ? -1 : handles[i].generation();
    }

    /** Whether timer {@code id} is set. */
    boolean contains(int id) {
        return indexOf(id) >= 0;
    }

    /** Sets timer {@code handle.timerId()}, replacing (without cancelling) a setting it has. */
    void put(ArmedTimer handle) {
        int i = indexOf(handle.timerId());
        if (i < 0) {
            if (size == handles.length) {
                handles = Arrays.copyOf(handles, Math.max(4, size * 2));
            }
            i = size++;
        }
        handles[i] = handle;
    }

    /** Removes timer {@code id} and returns its handle (not cancelled), or {@code null}. */
    ArmedTimer remove(int id) {
        int i = indexOf(id);
        if (i < 0) {
            return null;
        }
        ArmedTimer h = handles[i];
        int last = --size;
        handles[i] = handles[last];
        handles[last] = null;
        return h;
    }

    /** Cancels every timer and forgets them. */
    void cancelAll() {
        for (int i = 0; i < size; i++) {
            handles[i].cancel();
            handles[i] = null;
        }
        size = 0;
    }

    /** The ids set, in order. */
    Set<Integer> ids() {
        Set<Integer> out = new TreeSet<>();
        for (int i = 0; i < size; i++) {
            out.add(handles[i].timerId());
        }
        return out;
    }

    private int indexOf(int id) {
        for (int i = 0; i < size; i++) {
            if (handles[i].timerId() == id) {
                return i;
            }
        }
        return -1;
    }
}
