package io.statecast.messagestore.tools;

import io.statecast.messagestore.spec.Problem.Severity;

/**
 * What the authoring tools ({@code spec lint}, {@code spec check}) report about a spec: a rule, a
 * severity and a one-line message at a position in a named file. Both tools print it in the same
 * compiler-like form, so editors and CI logs can jump to it.
 */
public interface SpecFinding {

    /** @return the spec as named on the command line */
    String file();

    /** @return 1-based line, 0 when the finding has no position */
    int line();

    /** @return 1-based column, 0 when unknown */
    int column();

    /** @return error or warning */
    Severity severity();

    /** @return one line saying what is wrong */
    String message();

    /** @return the identifier of the rule that found it, as printed in brackets */
    String ruleId();

    /** @return whether it is an error */
    default boolean isError() {
        return severity() == Severity.ERROR;
    }

    /** @return {@code file:line:column: severity: message [rule]}; unknown parts of the position are left out */
    default String headline() {
        StringBuilder sb = new StringBuilder(file());
        if (line() > 0) {
            sb.append(':').append(line());
            if (column() > 0) {
                sb.append(':').append(column());
            }
        }
        return sb.append(": ").append(severity().label()).append(": ").append(message()).append(" [")
                .append(ruleId()).append(']').toString();
    }

    /**
     * Folds a message onto one line, so that one finding is one line of output.
     *
     * @param message any text
     * @return the text with line breaks and the blanks around them replaced by one space
     */
    static String oneLine(String message) {
        return message.replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }

    /**
     * A column is meaningful only on a known line.
     *
     * @param line   the clamped line
     * @param column the column given
     * @return the column to keep
     */
    static int column(int line, int column) {
        return line == 0 ? 0 : Math.max(0, column);
    }
}
