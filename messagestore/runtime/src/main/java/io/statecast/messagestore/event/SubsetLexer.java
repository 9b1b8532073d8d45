package io.statecast.messagestore.event;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits XPath/XQuery text into the tokens of the subset {@link SubsetParser} reads. Whitespace
 * and comments {@code (: … :)} (nested) separate tokens and are dropped. Anything the subset has
 * no token for (decimal and double literals, entity references in strings, operators such as
 * {@code +}, {@code |}, {@code ::}) throws {@link SubsetParser.Unsupported}: the expression is
 * then Saxon's.
 */
final class SubsetLexer {

    /** Token kinds. */
    enum Kind {
        NAME, STRING, INTEGER, SYMBOL, END
    }

    /**
     * A token.
     *
     * @param kind  its kind
     * @param text  the name, the string's value, the digits or the symbol
     * @param start offset in the text (for messages)
     */
    record Token(Kind kind, String text, int start) {
        boolean is(String symbolOrName) {
            return (kind == Kind.SYMBOL || kind == Kind.NAME) && text.equals(symbolOrName);
        }
    }

    private SubsetLexer() {
    }

    /** The tokens of {@code text}, ending with an {@link Kind#END} token. */
    static List<Token> tokens(String text, boolean xquery) throws SubsetParser.Unsupported {
        return tokens(text, xquery, false);
    }

    /** {@link #tokens(String, boolean)}; with {@code lookups}, {@code ?} is a symbol too ({@code $_x?history}). */
    static List<Token> tokens(String text, boolean xquery, boolean lookups) throws SubsetParser.Unsupported {
        List<Token> out = new ArrayList<>();
        int n = text.length();
        int i = 0;
        while (true) {
            i = skipSpaceAndComments(text, i);
            if (i >= n) {
                out.add(new Token(Kind.END, "", n));
                return out;
            }
            char ch = text.charAt(i);
            int start = i;
            if (isNameStart(ch)) {
                i = nameEnd(text, i);
                // a prefixed name (fn:count) has no space around the colon
                if (i + 1 < n && text.charAt(i) == ':' && isNameStart(text.charAt(i + 1))) {
                    i = nameEnd(text, i + 1);
                }
                out.add(new Token(Kind.NAME, text.substring(start, i), start));
            } else if (ch >= '0' && ch <= '9') {
                while (i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
                    i++;
                }
                if (i < n && (text.charAt(i) == '.' || text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
                    throw new SubsetParser.Unsupported("decimal and double literals", start);
                }
                out.add(new Token(Kind.INTEGER, text.substring(start, i), start));
            } else if (ch == '\'' || ch == '"') {
                StringBuilder sb = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) {
                        throw new SubsetParser.Unsupported("an unterminated string", start);
                    }
                    char c = text.charAt(i);
                    if (c == ch) {
                        if (i + 1 < n && text.charAt(i + 1) == ch) { // a doubled quote is one quote
                            sb.append(ch);
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    if (xquery && c == '&') {
                        throw new SubsetParser.Unsupported("entity references in strings", i);
                    }
                    sb.append(c);
                    i++;
                }
                out.add(new Token(Kind.STRING, sb.toString(), start));
            } else {
                String two = i + 1 < n ? text.substring(i, i + 2) : "";
                String sym;
                if (two.equals("//") || two.equals("!=") || two.equals("<=") || two.equals(">=") || two.equals(":=")) {
                    sym = two;
                } else if (two.equals("..") || two.equals("::") || two.equals("||")) {
                    throw new SubsetParser.Unsupported("'" + two + "'", i);
                } else if ("/[](),@.*=<>$;|".indexOf(ch) >= 0 || (lookups && ch == '?')) {
                    sym = String.valueOf(ch);
                } else {
                    throw new SubsetParser.Unsupported("'" + ch + "'", i);
                }
                if (sym.equals(".") && i + 1 < n && text.charAt(i + 1) >= '0' && text.charAt(i + 1) <= '9') {
                    throw new SubsetParser.Unsupported("decimal literals", i);
                }
                i += sym.length();
                out.add(new Token(Kind.SYMBOL, sym, start));
            }
        }
    }

    private static int skipSpaceAndComments(String text, int i) throws SubsetParser.Unsupported {
        int n = text.length();
        while (i < n) {
            char ch = text.charAt(i);
            if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
                i++;
            } else if (ch == '(' && i + 1 < n && text.charAt(i + 1) == ':') {
                int depth = 0;
                int start = i;
                do {
                    if (i + 1 >= n) {
                        throw new SubsetParser.Unsupported("an unterminated comment", start);
                    }
                    if (text.charAt(i) == '(' && text.charAt(i + 1) == ':') {
                        depth++;
                        i += 2;
                    } else if (text.charAt(i) == ':' && text.charAt(i + 1) == ')') {
                        depth--;
                        i += 2;
                    } else {
                        i++;
                    }
                } while (depth > 0);
            } else {
                return i;
            }
        }
        return i;
    }

    private static boolean isNameStart(char ch) {
        return ch == '_' || Character.isLetter(ch);
    }

    private static int nameEnd(String text, int i) {
        int n = text.length();
        i++;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '_' || c == '-' || c == '.' || Character.isLetterOrDigit(c)) {
                i++;
            } else {
                break;
            }
        }
        return i;
    }
}
