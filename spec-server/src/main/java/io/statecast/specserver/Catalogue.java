package io.statecast.specserver;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.statecast.messagestore.spec.Parameter;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLimits;
import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.messagestore.tools.render.RenderException;
import io.statecast.messagestore.tools.render.RenderFormat;
import io.statecast.messagestore.tools.render.Renderer;
import io.statecast.overlay.logging.RateLimitedLog;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * What the HTML catalogue shows of each stored spec beyond its metadata: its description,
 * parameters, delivery modes and state diagram. Each version (SHA-256 of the document) is loaded
 * with the MessageStore and drawn with the {@code spec render} code exactly once, on one
 * background thread, and the result is kept in files named by the digest
 * ({@code DIR/.catalogue/<sha256>.json} and {@code .svg}), so a page costs a file read whatever
 * is stored, across restarts too. Drawing starts when a version is uploaded, when the server
 * starts (for versions without files), or when a page asks for a version not described yet (which
 * then says so); pages never wait for it.
 *
 * <p>Files of versions no longer stored are deleted after each description. The files are derived
 * data: a missing or unreadable one is simply made again. Thread-safe.
 */
final class Catalogue implements AutoCloseable {

    /** Directory, under the spec directory, holding the descriptions. */
    static final String DIRECTORY = ".catalogue";
    /** Largest diagram kept; a larger one gets a note instead. */
    static final int MAX_SVG_BYTES = 2 * 1024 * 1024;
    /** Characters of a description kept in memory for the list pages. */
    static final int SUMMARY_CHARS = 200;
    /** Full entries kept in memory (the service pages read the files otherwise). */
    private static final int RECENT_ENTRIES = 64;

    /** One declared parameter, as the page shows it. */
    record Param(String name, String type, String defaultValue, String description) {
    }

    /**
     * The description of one version.
     *
     * @param loaded whether the document loads with this server's MessageStore (else the rest is empty)
     * @param description the spec's {@code <Description>}, possibly empty
     * @param deliveryModes the delivery modes it supports
     * @param parameters its declared parameters, in document order
     * @param diagramNote why there is no diagram, or null when there is one
     */
    record Entry(boolean loaded, String description, List<String> deliveryModes, List<Param> parameters, String diagramNote) {
        Entry {
            deliveryModes = List.copyOf(deliveryModes);
            parameters = List.copyOf(parameters);
        }
    }

    /** An entry and, when drawn, its diagram (inline SVG without XML declaration). */
    record Described(Entry entry, Optional<String> svg) {
    }

    private final Path directory;
    private final SpecStore store;
    private final ObjectMapper json;
    private final RateLimitedLog log;
    private final int maxSpecBytes;
    private final int maxPending;
    private final ExecutorService worker;
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<String, String> summaries = new ConcurrentHashMap<>();
    private final Map<String, Described> recent = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Described> eldest) {
            return size() > RECENT_ENTRIES;
        }
    };
    private final AtomicLong descriptions = new AtomicLong();
    private final Renderer renderer = new Renderer();
    private SpecLoader loader;

    private Catalogue(Path directory, SpecStore store, ObjectMapper json, RateLimitedLog log, int maxSpecBytes, int maxServices) {
        this.directory = directory;
        this.store = store;
        this.json = json;
        this.log = log;
        this.maxSpecBytes = maxSpecBytes;
        this.maxPending = 2 * maxServices;
        this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                new DefaultThreadFactory("spec-server-catalogue", true));
    }

    /**
     * Opens the catalogue of {@code store}, creating its directory, and starts describing every
     * stored version that has no description yet.
     */
    static Catalogue open(SpecStore store, ObjectMapper json, RateLimitedLog log, int maxSpecBytes, int maxServices) throws IOException {
        Path dir = store.directory().resolve(DIRECTORY);
        Files.createDirectories(dir);
        Catalogue c = new Catalogue(dir, store, json, log, maxSpecBytes, maxServices);
        for (StoredSpec s : store.list()) {
            if (!Files.exists(c.entryFile(s.sha256()))) {
                c.request(s);
            }
        }
        c.worker.execute(c::prune);
        return c;
    }

    /**
     * Asks for {@code spec}'s version to be described, unless it is or is being. Cheap; returns at once.
     *
     * @param spec a version that is (or was just) stored
     */
    void request(StoredSpec spec) {
        String sha = spec.sha256();
        if (pending.size() >= maxPending || !pending.add(sha)) {
            return; // too much waiting (a later page asks again), or already waiting
        }
        try {
            worker.execute(() -> {
                try {
                    describe(spec.serviceId(), sha);
                } finally {
                    pending.remove(sha);
                }
            });
        } catch (RejectedExecutionException e) {
            pending.remove(sha); // closing
        }
    }

    /**
     * The first {@value #SUMMARY_CHARS} characters of the version's description, or empty when it
     * is not described yet (and then it is requested).
     */
    Optional<String> summary(StoredSpec spec) {
        String s = summaries.get(spec.sha256());
        if (s != null) {
            return Optional.of(s);
        }
        Optional<Entry> e = readEntry(spec.sha256());
        if (e.isEmpty()) {
            request(spec);
            return Optional.empty();
        }
        s = shorten(e.get().description());
        summaries.put(spec.sha256(), s);
        return Optional.of(s);
    }

    /** The version's description and diagram, or empty when not described yet (and then it is requested). */
    Optional<Described> described(StoredSpec spec) {
        String sha = spec.sha256();
        synchronized (recent) {
            Described d = recent.get(sha);
            if (d != null) {
                return Optional.of(d);
            }
        }
        Optional<Described> d = readFiles(sha);
        if (d.isEmpty()) {
            request(spec);
            return d;
        }
        summaries.put(sha, shorten(d.get().entry().description()));
        synchronized (recent) {
            recent.put(sha, d.get());
        }
        return d;
    }

    /** Whether the version is waiting for or being described (for tests and the page's note). */
    boolean isPending(String sha256) {
        return pending.contains(sha256);
    }

    /** How many versions were described (loaded and drawn) since start, for tests of the cost bound. */
    long descriptions() {
        return descriptions.get();
    }

    private Path entryFile(String sha) {
        return directory.resolve(sha + ".json");
    }

    private Path svgFile(String sha) {
        return directory.resolve(sha + ".svg");
    }

    private Optional<Entry> readEntry(String sha) {
        try {
            Path entryFile = entryFile(sha);
            if (Files.size(entryFile) > 4L * maxSpecBytes + 65_536) {
                return Optional.empty(); // not one we wrote
            }
            return Optional.of(json.readValue(Files.readAllBytes(entryFile), Entry.class));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            log.warn(0, "catalogue entry {} cannot be read ({}); describing it again", sha, e.toString());
            return Optional.empty();
        }
    }

    private Optional<Described> readFiles(String sha) {
        Optional<Entry> read = readEntry(sha);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        Entry entry = read.get();
        try {
            if (entry.diagramNote() != null) {
                return Optional.of(new Described(entry, Optional.empty()));
            }
            Path svgFile = svgFile(sha);
            if (Files.size(svgFile) > MAX_SVG_BYTES) {
                return Optional.empty();
            }
            return Optional.of(new Described(entry, Optional.of(Files.readString(svgFile, StandardCharsets.UTF_8))));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            log.warn(0, "catalogue entry {} cannot be read ({}); describing it again", sha, e.toString());
            return Optional.empty();
        }
    }

    /** Runs on the catalogue thread. */
    private void describe(int serviceId, String sha) {
        try {
            Optional<StoredSpec> current = store.find(serviceId);
            if (current.isEmpty() || !current.get().sha256().equals(sha) || readFiles(sha).isPresent()) {
                return; // replaced or deleted meanwhile, or described before a restart
            }
            Optional<SpecStore.Document> doc = store.read(serviceId);
            if (doc.isEmpty() || !doc.get().sha256().equals(sha)) {
                return;
            }
            descriptions.incrementAndGet();
            Described d = describe(doc.get().bytes());
            if (d.svg().isPresent()) {
                write(svgFile(sha), d.svg().get().getBytes(StandardCharsets.UTF_8));
            }
            write(entryFile(sha), json.writeValueAsBytes(d.entry())); // last: its presence means complete
            summaries.put(sha, shorten(d.entry().description()));
            prune();
        } catch (IOException | RuntimeException | StackOverflowError e) {
            if (!worker.isShutdown()) { // else closing interrupted it
                log.warn(0, "cannot describe service {} ({}): {}", serviceId, sha, e.toString());
            }
        }
    }

    private Described describe(byte[] document) {
        ServiceSpec spec;
        try {
            spec = loader().load(document, "stored spec");
        } catch (SpecException | RuntimeException | StackOverflowError e) {
            return new Described(new Entry(false, "", List.of(), List.of(),
                    "no diagram: the spec does not load with this server's MessageStore"), Optional.empty());
        }
        List<String> modes = new ArrayList<>();
        spec.service().deliveryModes().stream().map(m -> m.name().toLowerCase(Locale.ROOT)).sorted().forEach(modes::add);
        List<Param> params = new ArrayList<>();
        for (Parameter p : spec.parameters().declared()) {
            params.add(new Param(p.name(), p.type().label(), p.defaultValue(), p.description().strip()));
        }
        String description = spec.service().description().strip();
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
            renderer.render(spec, RenderFormat.SVG, out);
            if (out.size() > MAX_SVG_BYTES) {
                return new Described(new Entry(true, description, modes, params,
                        "no diagram: it would take " + out.size() + " bytes"), Optional.empty());
            }
            String svg = out.toString(StandardCharsets.UTF_8);
            if (svg.startsWith("<?xml")) {
                svg = svg.substring(svg.indexOf("?>") + 2).stripLeading();
            }
            return new Described(new Entry(true, description, modes, params, null), Optional.of(svg));
        } catch (RenderException e) {
            return new Described(new Entry(true, description, modes, params, "no diagram: " + e.getMessage()), Optional.empty());
        } catch (IOException | RuntimeException | StackOverflowError e) {
            return new Described(new Entry(true, description, modes, params, "no diagram: drawing failed"), Optional.empty());
        }
    }

    /** The loader, made on first use: its query engine is started only if something is described. */
    private SpecLoader loader() {
        if (loader == null) {
            loader = new SpecLoader(SpecLimits.DEFAULTS.withMaxBytes(maxSpecBytes));
        }
        return loader;
    }

    private void write(Path target, byte[] bytes) throws IOException {
        Path tmp = Files.createTempFile(directory, ".tmp-", ".part");
        try {
            Files.write(tmp, bytes);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Deletes the files (and forgets the summaries) of versions no longer stored. Catalogue thread. */
    private void prune() {
        Set<String> current = new HashSet<>();
        for (StoredSpec s : store.list()) {
            current.add(s.sha256());
        }
        summaries.keySet().retainAll(current);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                int dot = name.indexOf('.');
                String sha = dot < 0 ? name : name.substring(0, dot);
                if (!current.contains(sha)) {
                    Files.deleteIfExists(f);
                }
            }
        } catch (IOException e) {
            log.warn(0, "cannot prune {}: {}", directory, e.toString());
        }
    }

    private static String shorten(String description) {
        String flat = description.strip().replaceAll("\\s+", " ");
        return flat.length() <= SUMMARY_CHARS ? flat : flat.substring(0, SUMMARY_CHARS - 1) + "…";
    }

    /** Stops the catalogue thread (a description in progress finishes or is abandoned) and the loader. */
    @Override
    public void close() {
        worker.shutdownNow();
        try {
            worker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (loader != null) {
            loader.close();
        }
    }
}
