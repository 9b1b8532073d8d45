package io.statecast.messagestore.instance;

import io.statecast.messagestore.spec.ActionTemplate;
import java.util.Arrays;

/**
 * The actions the engine produced and the instance has yet to run, shared by every instance of
 * one environment (one shard): an instance's step appends its actions above a mark, runs them
 * and truncates back to the mark. A step that begins while another runs its actions (an
 * environment that delivers at once) takes its own mark above and leaves what lies below alone,
 * so steps nest like calls. Shared because a queue per instance — a deque and its array — was
 * two objects that every lingering instance carried and the collector traced, for a queue that
 * is empty between steps.
 *
 * <p>Confined to the environment's thread.
 */
public final class ActionQueue {

    private ActionTemplate[] items = new ActionTemplate[16];
    private int size;

    /** The mark a step begins at: the number of actions queued now. */
    int mark() {
        return size;
    }

    /** Number of actions queued. */
    int size() {
        return size;
    }

    /** Action {@code i} (0-based, below {@link #size()}). */
    ActionTemplate get(int i) {
        return items[i];
    }

    /** Appends {@code action}. */
    void add(ActionTemplate action) {
        if (size == items.length) {
            items = Arrays.copyOf(items, size * 2);
        }
        items[size++] = action;
    }

    /** Drops every action at or above {@code mark} (a step's, once it ran them). */
    void truncate(int mark) {
        if (mark < 0 || mark > size) {
            throw new IllegalArgumentException("mark " + mark + " outside 0.." + size);
        }
        Arrays.fill(items, mark, size, null);
        size = mark;
    }
}
