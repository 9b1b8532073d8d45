package io.statecast.specserver;

import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLimits;
import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.messagestore.tools.render.RenderException;
import io.statecast.messagestore.tools.render.RenderFormat;
import io.statecast.messagestore.tools.render.Renderer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The state diagrams the index page shows: each stored spec rendered once per version, with the
 * MessageStore's loader and the {@code spec render} code, and remembered by the SHA-256 of the
 * document (so a replaced spec is drawn again and an unchanged one never is). A spec that does
 * not render gets a short note instead of a diagram, remembered the same way.
 *
 * <p>Rendering a large spec takes seconds (the layout is superlinear), so it runs on a worker
 * thread, never on an event loop, and one page renders at most {@link #RENDERS_PER_PAGE} specs
 * that are not cached yet; the rest show "not drawn yet" until a later request. Thread-safe.
 */
final class DiagramCache implements AutoCloseable {

    /** Most diagrams remembered (least recently used ones are forgotten). */
    static final int CAPACITY = 256;
    /** Most uncached specs one page request renders. */
    static final int RENDERS_PER_PAGE = 16;

    /** A diagram (inline SVG, without XML declaration) or a note saying why there is none. */
    record Diagram(String svg, String note) {
    }

    private final int maxSpecBytes;
    private final java.util.concurrent.atomic.AtomicLong renders = new java.util.concurrent.atomic.AtomicLong();
    private SpecLoader loader;
    private final Renderer renderer = new Renderer();
    private final Map<String, Diagram> cache = new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Diagram> eldest) {
            return size() > CAPACITY;
        }
    };

    DiagramCache(int maxSpecBytes) {
        this.maxSpecBytes = maxSpecBytes;
    }

    /** The loader, made on first use: a server whose page nobody opens never starts a query engine. */
    private synchronized SpecLoader loader() {
        if (loader == null) {
            loader = new SpecLoader(SpecLimits.DEFAULTS.withMaxBytes(maxSpecBytes));
        }
        return loader;
    }

    /** Counts the renders a page may still make. */
    static final class Budget {
        private int left = RENDERS_PER_PAGE;

        /** Takes one render from the budget; false if none is left. */
        synchronized boolean take() {
            if (left <= 0) {
                return false;
            }
            left--;
            return true;
        }
    }

    /** A new budget for one page. */
    Budget budget() {
        return new Budget();
    }

    /** The diagram of {@code serviceId} as stored now. */
    Diagram diagram(SpecStore store, int serviceId, Budget budget) {
        Optional<SpecStore.Document> doc;
        try {
            doc = store.read(serviceId);
        } catch (IOException e) {
            return new Diagram(null, "the stored document cannot be read");
        }
        if (doc.isEmpty()) {
            return new Diagram(null, "deleted meanwhile");
        }
        String key = doc.get().sha256();
        synchronized (cache) {
            Diagram d = cache.get(key);
            if (d != null) {
                return d;
            }
        }
        if (!budget.take()) {
            return new Diagram(null, "not drawn yet: reload the page");
        }
        Diagram d = render(doc.get().bytes(), "d" + key.substring(0, 12) + "-");
        synchronized (cache) {
            cache.put(key, d);
        }
        return d;
    }

    /**
     * Renders {@code document}; every id the SVG defines (its arrow markers) and every reference to
     * one gets {@code idPrefix}, so that several diagrams inline in one page have distinct ids.
     */
    private Diagram render(byte[] document, String idPrefix) {
        renders.incrementAndGet();
        try {
            ServiceSpec spec = loader().load(document, "stored spec");
            ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
            renderer.render(spec, RenderFormat.SVG, out);
            String svg = out.toString(StandardCharsets.UTF_8);
            if (svg.startsWith("<?xml")) {
                svg = svg.substring(svg.indexOf("?>") + 2).stripLeading();
            }
            svg = svg.replace(" id=\"", " id=\"" + idPrefix).replace("url(#", "url(#" + idPrefix)
                    .replace("href=\"#", "href=\"#" + idPrefix);
            return new Diagram(svg, null);
        } catch (SpecException e) {
            return new Diagram(null, "no diagram: the spec does not load with this server's MessageStore");
        } catch (RenderException e) {
            return new Diagram(null, "no diagram: " + e.getMessage());
        } catch (IOException | RuntimeException | StackOverflowError e) {
            return new Diagram(null, "no diagram: rendering failed");
        }
    }

    /** How many times a spec was rendered (or tried), for tests of the cache. */
    long renders() {
        return renders.get();
    }

    /** How many diagrams are remembered. */
    int size() {
        synchronized (cache) {
            return cache.size();
        }
    }

    @Override
    public synchronized void close() {
        if (loader != null) {
            loader.close();
        }
    }
}
