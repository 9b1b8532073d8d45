package io.statecast.messagestore.spec;

import java.util.List;

/**
 * A spec was refused: the one checked exception of the spec-loading boundary. Carries every
 * problem found (errors and warnings), sorted by position.
 */
public final class SpecException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient List<Problem> problems;

    /**
     * @param source   names the spec (file name or URI) in the message
     * @param problems what is wrong; at least one should be an error
     */
    public SpecException(String source, List<Problem> problems) {
        super(summary(source, problems));
        this.problems = problems.stream().sorted().toList();
    }

    private static String summary(String source, List<Problem> problems) {
        long errors = problems.stream().filter(Problem::isError).count();
        Problem first = problems.stream().filter(Problem::isError).sorted().findFirst()
                .orElse(problems.isEmpty() ? null : problems.get(0));
        return source + ": " + errors + " error" + (errors == 1 ? "" : "s")
                + (first == null ? "" : "; first: " + first.format(source));
    }

    /** Every problem, sorted by position. */
    public List<Problem> problems() {
        return problems;
    }
}
