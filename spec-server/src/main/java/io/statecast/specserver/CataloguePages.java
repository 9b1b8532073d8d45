package io.statecast.specserver;

import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The HTML catalogue: a paginated list of the stored services at {@code /} and one page per
 * service at {@code /catalogue/{id}} with its description, parameters, diagram, versions and a
 * download link. Plain server-rendered HTML with one inline style sheet: no scripts, no external
 * assets. Everything taken from a spec is hostile and escaped, names and descriptions included;
 * the inline SVG is written by {@code spec render}, which escapes every text it takes from the spec
 * and writes no scripts, styles or references.
 */
final class CataloguePages {

    private static final String STYLE = "body{font-family:system-ui,sans-serif;margin:0;color:#1b1f24;background:#fafbfc}"
            + "header{background:#24292f;color:#fff;padding:.8em 2em}header a{color:#fff;text-decoration:none}"
            + "header h1{font-size:1.3em;margin:0}main{padding:1em 2em;max-width:72em}"
            + "table{border-collapse:collapse;width:100%;background:#fff}"
            + "th,td{padding:.4em .8em;text-align:left;vertical-align:top;border-bottom:1px solid #d0d7de}"
            + "th{background:#f0f2f4}code{font-size:.85em}.note{color:#57606a;font-style:italic}"
            + ".id{color:#57606a;font-weight:normal;font-size:.7em}.description{white-space:pre-wrap}"
            + ".diagram{background:#fff;border:1px solid #d0d7de;padding:1em;overflow:auto}"
            + ".diagram svg{max-width:100%;height:auto}.pages a{margin:0 .5em}"
            + ".download{display:inline-block;padding:.4em 1em;background:#1f6feb;color:#fff;border-radius:4px;text-decoration:none}"
            + "dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dt{font-weight:bold}dd{margin:0}";

    private CataloguePages() {
    }

    /**
     * One page of the list.
     *
     * @param services the services on this page
     * @param page this page's number, from 1
     * @param pages how many pages there are (at least 1)
     * @param total how many services are stored
     * @param summaries the short description of a service, empty while it is being described
     * @return the HTML page
     */
    static String list(List<StoredSpec> services, int page, int pages, int total, Function<StoredSpec, Optional<String>> summaries) {
        StringBuilder b = head("Services", 1024 + services.size() * 512);
        b.append("<p>").append(total).append(total == 1 ? " service" : " services");
        if (pages > 1) {
            b.append(", page ").append(page).append(" of ").append(pages);
        }
        b.append(". JSON: <a href=\"/services\">/services</a>, <a href=\"/health\">/health</a>.</p>\n");
        if (!services.isEmpty()) {
            b.append("<table class=\"services\"><thead><tr><th>service</th><th>ServiceID</th><th>description</th>"
                    + "<th>latest version</th></tr></thead><tbody>\n");
            for (StoredSpec s : services) {
                String id = Integer.toString(s.serviceId());
                b.append("<tr><td><a class=\"service\" href=\"/catalogue/").append(id).append("\">")
                        .append(escape(s.metadata().name())).append("</a></td><td>").append(id).append("</td><td>");
                Optional<String> summary = summaries.apply(s);
                if (summary.isEmpty()) {
                    b.append("<span class=\"note\">being described: reload in a moment</span>");
                } else {
                    b.append(escape(summary.get()));
                }
                b.append("</td><td>");
                version(b, s);
                b.append("</td></tr>\n");
            }
            b.append("</tbody></table>\n");
        }
        if (pages > 1) {
            b.append("<nav class=\"pages\">");
            if (page > 1) {
                b.append("<a rel=\"prev\" href=\"/?page=").append(page - 1).append("\">previous</a>");
            }
            b.append("page ").append(page).append(" of ").append(pages);
            if (page < pages) {
                b.append("<a rel=\"next\" href=\"/?page=").append(page + 1).append("\">next</a>");
            }
            b.append("</nav>\n");
        }
        return tail(b);
    }

    /**
     * The page of one service.
     *
     * @param s the service as stored now
     * @param described its description and diagram, empty while it is being described
     * @return the HTML page
     */
    static String service(StoredSpec s, Optional<Catalogue.Described> described) {
        String id = Integer.toString(s.serviceId());
        StringBuilder b = head(s.metadata().name(), 4096 + described.flatMap(Catalogue.Described::svg).map(String::length).orElse(0));
        b.append("<h2>").append(escape(s.metadata().name())).append(" <span class=\"id\">ServiceID ").append(id).append("</span></h2>\n");
        Optional<Catalogue.Entry> entry = described.map(Catalogue.Described::entry);
        if (entry.isEmpty()) {
            b.append("<p class=\"note\">This version is being described; reload in a moment for its description, "
                    + "parameters and diagram.</p>\n");
        } else if (!entry.get().description().isEmpty()) {
            b.append("<p class=\"description\">").append(escape(entry.get().description())).append("</p>\n");
        }
        b.append("<dl><dt>scope</dt><dd>").append(escape(s.metadata().scope())).append("</dd>");
        entry.filter(Catalogue.Entry::loaded).ifPresent(e ->
                b.append("<dt>delivery modes</dt><dd>").append(escape(String.join(", ", e.deliveryModes()))).append("</dd>"));
        b.append("<dt>promises</dt><dd>").append(s.metadata().promises().isEmpty() ? "none (best effort)"
                : escape(String.join(", ", s.metadata().promises()))).append("</dd></dl>\n");
        b.append("<p><a class=\"download\" href=\"/services/").append(id).append("\" download=\"service-").append(id)
                .append(".scxml\">Download the spec</a> (").append(s.size()).append(" bytes, SCXML)</p>\n");

        b.append("<h3>State diagram</h3>\n");
        Optional<String> svg = described.flatMap(Catalogue.Described::svg);
        if (svg.isPresent()) {
            b.append("<div class=\"diagram\">").append(svg.get()).append("</div>\n");
        } else if (entry.isPresent()) {
            b.append("<p class=\"note\">").append(escape(entry.get().diagramNote())).append("</p>\n");
        } else {
            b.append("<p class=\"note\">not drawn yet</p>\n");
        }

        if (entry.isPresent() && entry.get().loaded()) {
            b.append("<h3>Parameters</h3>\n");
            List<Catalogue.Param> params = entry.get().parameters();
            if (params.isEmpty()) {
                b.append("<p class=\"note\">none</p>\n");
            } else {
                b.append("<table class=\"parameters\"><thead><tr><th>name</th><th>type</th><th>default</th>"
                        + "<th>description</th></tr></thead><tbody>\n");
                for (Catalogue.Param p : params) {
                    b.append("<tr><td><code>").append(escape(p.name())).append("</code></td><td>").append(escape(p.type()))
                            .append("</td><td><code>").append(escape(p.defaultValue())).append("</code></td><td>")
                            .append(escape(p.description())).append("</td></tr>\n");
                }
                b.append("</tbody></table>\n");
            }
        }

        b.append("<h3>Versions</h3>\n<table class=\"versions\"><thead><tr><th>version</th><th>SHA-256</th><th>size</th>"
                + "<th></th></tr></thead><tbody>\n<tr><td>");
        version(b, s);
        b.append(" (latest)</td><td><code>").append(escape(s.sha256())).append("</code></td><td>").append(s.size())
                .append("</td><td><a href=\"/services/").append(id).append("\">raw</a></td></tr>\n</tbody></table>\n");
        return tail(b);
    }

    /** The short form of a version: its stored time and the first 12 hex digits of its SHA-256. */
    private static void version(StringBuilder b, StoredSpec s) {
        b.append("<time datetime=\"").append(escape(s.storedAt().toString())).append("\">")
                .append(escape(DateTimeFormatter.ISO_INSTANT.format(s.storedAt().truncatedTo(ChronoUnit.SECONDS))))
                .append("</time> <code>").append(escape(s.sha256().substring(0, Math.min(12, s.sha256().length())))).append("</code>");
    }

    private static StringBuilder head(String title, int capacity) {
        return new StringBuilder(capacity)
                .append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>")
                .append(escape(title)).append(" — Statecast spec server</title><style>").append(STYLE)
                .append("</style></head><body>\n<header><h1><a href=\"/\">Statecast spec server</a></h1></header>\n<main>\n");
    }

    private static String tail(StringBuilder b) {
        return b.append("</main></body></html>\n").toString();
    }

    /** Escapes for both text and quoted attribute context; control characters become U+FFFD. */
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
                    if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
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
