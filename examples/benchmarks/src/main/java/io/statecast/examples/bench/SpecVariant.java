package io.statecast.examples.bench;

import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.event.TimerEventDefinition;
import io.statecast.messagestore.spec.ServiceSpec;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The same service spelled differently: every event renamed, every variable its expressions bind
 * (not parameters or datamodel variables) renamed, comments and other spacing inside its XQuery and XPath, double-quoted literals in its
 * queries. The runtime must run it exactly as fast as the original (the benchmark compares them):
 * nothing may depend on how a spec's expressions are written.
 */
public final class SpecVariant {

    private static final String NAME_CHARS = "A-Za-z0-9_.\\-";
    private static final Pattern VARIABLE = Pattern.compile("\\$([A-Za-z_][" + NAME_CHARS + "]*)");
    private static final Pattern XPATH_ATTRIBUTE = Pattern.compile("xpath=\"([^\"]*)\"");
    private static final Pattern DATA_ID = Pattern.compile("<data\\s+id=\"([^\"]+)\"");
    private static final Pattern XQUERY = Pattern.compile("(<XQuery>)(.*?)(</XQuery>)", Pattern.DOTALL);

    private SpecVariant() {
    }

    /**
     * The variant of {@code text}, the spec {@code parsed} was loaded from.
     *
     * @return the variant's text
     */
    public static String of(String text, ServiceSpec parsed) {
        Set<String> events = new LinkedHashSet<>();
        for (MessageEventDefinition d : parsed.messageEvents()) {
            events.add(d.name());
        }
        for (TimerEventDefinition d : parsed.timerEvents()) {
            events.add(d.name());
        }
        for (CompositeEventDefinition d : parsed.compositeEvents()) {
            events.add(d.name());
        }
        String out = text;
        for (String e : events) {
            // whole words only: one name may be part of another (acktimeout, maxacktimeout)
            out = Pattern.compile("(?<![" + NAME_CHARS + "])" + Pattern.quote(e) + "(?![" + NAME_CHARS + "])")
                    .matcher(out).replaceAll(Matcher.quoteReplacement("ev-" + new StringBuilder(e).reverse()));
        }
        // parameters and datamodel variables keep their names (a variable is declared by its
        // <data id> and written by <assign>s, which this respelling does not touch)
        Set<String> parameters = new LinkedHashSet<>(parsed.parameters().names());
        Matcher data = DATA_ID.matcher(text);
        while (data.find()) {
            parameters.add(data.group(1));
        }
        out = replaceIn(XPATH_ATTRIBUTE, out, 1, x -> respace(renameVariables(x, parameters), false));
        out = replaceIn(XQUERY, out, 2, x -> {
            String cdata = "<![CDATA[";
            String t = x.strip();
            if (t.startsWith(cdata) && t.endsWith("]]>")) {
                String inner = t.substring(cdata.length(), t.length() - 3);
                return cdata + respace(renameVariables(inner, parameters), true) + "]]>";
            }
            return respace(renameVariables(x, parameters), true);
        });
        return out;
    }

    private interface Edit {
        String apply(String s);
    }

    private static String replaceIn(Pattern p, String text, int group, Edit edit) {
        Matcher m = p.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String whole = m.group();
            int from = m.start(group) - m.start();
            int to = m.end(group) - m.start();
            String replaced = whole.substring(0, from) + edit.apply(m.group(group)) + whole.substring(to);
            m.appendReplacement(sb, Matcher.quoteReplacement(replaced));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private static String renameVariables(String expression, Set<String> parameters) {
        Matcher m = VARIABLE.matcher(expression);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            m.appendReplacement(sb, Matcher.quoteReplacement(parameters.contains(name) ? m.group()
                    : "$ " + "my_" + name.toUpperCase(java.util.Locale.ROOT) + "_2"));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /**
     * Other spacing and a comment in every predicate; in a query (CDATA) string literals in double
     * quotes. Works on the shipped services' expressions, whose literals hold no brackets.
     */
    private static String respace(String expression, boolean query) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < expression.length(); i++) {
            char c = expression.charAt(i);
            switch (c) {
                case '[' -> sb.append("[ (: variant :) ");
                case ']' -> sb.append("  ]");
                case ',' -> sb.append(query ? " ,\n      " : " ,   ");
                case '\'' -> sb.append(query ? '"' : '\'');
                default -> sb.append(c);
            }
        }
        return (query ? "(: a variant of the shipped query :)\n" : "(: variant :) ") + sb;
    }
}
