package io.statecast.messagestore.tools.lint;

import io.statecast.messagestore.spec.Problem;
import io.statecast.messagestore.tools.SourceText;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Names the loader's problems with lint rules, so that {@code spec lint} reports validation
 * problems in the same form as its own findings. The loader's messages are matched by their
 * wording ({@code SpecValidator}); what matches no pattern is {@link Rule#INVALID} or
 * {@link Rule#SPEC_WARNING}. {@code LintRulesTest} pins every pattern to a fixture, so a change of
 * wording in the loader fails a test rather than silently changing rule ids.
 */
final class ValidationRules {

    private record Pattern2Rule(Pattern pattern, Rule rule, String element) {
    }

    private static final List<Pattern2Rule> PATTERNS = List.of(
            new Pattern2Rule(Pattern.compile("^transition on undeclared event "), Rule.UNDECLARED_EVENT, "transition"),
            new Pattern2Rule(Pattern.compile("constituent '[^']*' is not a declared basic event"),
                    Rule.UNDECLARED_EVENT, "ConstituentBasicEvent"),
            new Pattern2Rule(Pattern.compile("is declared but no transition"), Rule.UNUSED_EVENT, "Event"),
            new Pattern2Rule(Pattern.compile("is unreachable from the initial state"), Rule.UNREACHABLE_STATE,
                    "state"),
            new Pattern2Rule(Pattern.compile("^setTimer sets timer \\d+ but no basic event declares"),
                    Rule.UNDECLARED_TIMER, "execute"),
            new Pattern2Rule(Pattern.compile("which no setTimer sets$"), Rule.TIMER_NEVER_SET, "Event"));

    private ValidationRules() {
    }

    /** The rule a loader problem falls under. */
    static Rule classify(Problem p) {
        for (Pattern2Rule r : PATTERNS) {
            if (r.rule.severity() == p.severity() && r.pattern.matcher(p.message()).find()) {
                return r.rule;
            }
        }
        return p.isError() ? Rule.INVALID : Rule.SPEC_WARNING;
    }

    /** The problem as a finding, with a column looked up when the loader gave only a line. */
    static Finding toFinding(Problem p, String file, SourceText text) {
        Rule rule = classify(p);
        int column = p.column();
        if (column == 0 && p.line() > 0) {
            String element = "";
            for (Pattern2Rule r : PATTERNS) {
                if (r.rule == rule) {
                    element = r.element;
                    break;
                }
            }
            column = text.column(p.line(), element);
        }
        return new Finding(rule, p.severity(), file, p.line(), column, p.message());
    }
}
