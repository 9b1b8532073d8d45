package io.statecast.messagestore.instance;

import io.statecast.overlay.substrate.TimerService;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

/**
 * The timers one instance has set: per timer id, the handle to cancel it and the generation its
 * expiry must carry. An instance sets a handful at most (the shipped services two or three at a
 * time), so three parallel arrays searched linearly replace a map of boxed ids and entry records:
 * fewer objects for every lingering instance to carry through young collections, and none made
 * per set.
 *
 * <p>Confined to the instance's thread.
 */
final class ArmedTimers {

    private static final int[] NO_IDS = new int[0];
    private static final TimerService.Timer[] NO_HANDLES = new TimerService.Timer[0];
    private static final long[] NO_GENERATIONS = new long[0];

    private int[] ids = NO_IDS;
    private TimerService.Timer[] handles = NO_HANDLES;
    private long[] generations = NO_GENERATIONS;
    private int size;

    /** Number of timers set. */
    int size() {
        return size;
    }

    /** The generation timer {@code id} is set with, or -1 when it is not set. */
    long generation(int id) {
        int i = indexOf(id);
        return i < 0 ? -1 : generations[i];
    }

    /** Whether timer {@code id} is set. */
    boolean contains(int id) {
        return indexOf(id) >= 0;
    }

    /** Sets timer {@code id}, replacing (without cancelling) a setting it has. */
    void put(int id, TimerService.Timer handle, long generation) {
        int i = indexOf(id);
        if (i < 0) {
            if (size == ids.length) {
                int n = Math.max(4, size * 2);
                ids = Arrays.copyOf(ids, n);
                handles = Arrays.copyOf(handles, n);
                generations = Arrays.copyOf(generations, n);
            }
            i = size++;
            ids[i] = id;
        }
        handles[i] = handle;
        generations[i] = generation;
    }

    /** Removes timer {@code id} and returns its handle (not cancelled), or {@code null}. */
    TimerService.Timer remove(int id) {
        int i = indexOf(id);
        if (i < 0) {
            return null;
        }
        TimerService.Timer h = handles[i];
        int last = --size;
        ids[i] = ids[last];
        handles[i] = handles[last];
        generations[i] = generations[last];
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
            out.add(ids[i]);
        }
        return out;
    }

    private int indexOf(int id) {
        for (int i = 0; i < size; i++) {
            if (ids[i] == id) {
                return i;
            }
        }
        return -1;
    }
}
