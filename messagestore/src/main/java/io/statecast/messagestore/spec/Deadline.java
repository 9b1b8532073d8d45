package io.statecast.messagestore.spec;

import java.time.Duration;

/** A point in time after which loading a spec gives up. */
final class Deadline {

    private final long deadlineNanos;
    private final Duration budget;

    private Deadline(Duration budget) {
        this.budget = budget;
        this.deadlineNanos = System.nanoTime() + budget.toNanos();
    }

    static Deadline after(Duration budget) {
        return new Deadline(budget);
    }

    boolean passed() {
        return System.nanoTime() - deadlineNanos > 0;
    }

    /** The message used when the deadline passes during {@code what}. */
    String message(String what) {
        return "loading took longer than " + budget.toMillis() + " ms (while " + what + ")";
    }
}
