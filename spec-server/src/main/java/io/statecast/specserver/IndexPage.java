package io.statecast.specserver;

import java.util.List;
import java.util.function.Function;

/**
 * The human-readable page at {@code /}: a table of the stored services and each one's state
 * diagram (inline SVG from {@link DiagramCache}), no scripts, no external assets. Every value from
 * a spec is escaped, names included (they come from uploaded documents); the SVG is written by
 * {@code spec render}, which escapes every text it takes from the spec and writes no scripts,
 * styles or references.
 */
final class IndexPage {

    private IndexPage() {
    }

    static String render(List<StoredSpec> services, Function<StoredSpec, DiagramCache.Diagram> diagrams) {
        StringBuilder b = new StringBuilder(512 + services.size() * 256);
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Statecast spec server</title>")
                .append("<style>body{font-family:sans-serif;margin:2em}td,th{padding:.2em .8em;text-align:left}"
                        + "code{font-size:.85em}"
                        + ".diagram svg{max-width:100%;height:auto}.note{color:#666;font-style:italic}</style></head><body>\n")
                .append("<h1>Statecast spec server</h1>\n<p>")
                .append(services.size()).append(services.size() == 1 ? " service" : " services")
                .append(". JSON: <a href=\"/services\">/services</a>, <a href=\"/health\">/health</a>.</p>\n");
        if (!services.isEmpty()) {
            b.append("<table><thead><tr><th>ServiceID</th><th>name</th><th>scope</th><th>size</th>"
                    + "<th>stored at</th><th>SHA-256</th></tr></thead><tbody>\n");
            for (StoredSpec s : services) {
                String id = Integer.toString(s.serviceId());
                b.append("<tr><td><a href=\"/services/").append(escape(id)).append("\">").append(escape(id)).append("</a></td><td>")
                        .append(escape(s.metadata().name())).append("</td><td>")
                        .append(escape(s.metadata().scope())).append("</td><td>")
                        .append(s.size()).append("</td><td>")
                        .append(escape(s.storedAt().toString())).append("</td><td><code>")
                        .append(escape(s.sha256())).append("</code></td></tr>\n");
            }
            b.append("</tbody></table>\n");
            for (StoredSpec s : services) {
                String id = Integer.toString(s.serviceId());
                b.append("<h2 id=\"service-").append(escape(id)).append("\">").append(escape(s.metadata().name()))
                        .append(" (ServiceID ").append(escape(id)).append(")</h2>\n");
                DiagramCache.Diagram d = diagrams.apply(s);
                if (d.svg() != null) {
                    b.append("<div class=\"diagram\">").append(d.svg()).append("</div>\n");
                } else {
                    b.append("<p class=\"note\">").append(escape(d.note())).append("</p>\n");
                }
            }
        }
        return b.append("</body></html>\n").toString();
    }

    /** Escapes for both text and quoted attribute context. */
    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> {
                    if (c < 0x20 && c != '\t' && c != '\n') {
                        b.append("&#xfffd;");
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }
}
