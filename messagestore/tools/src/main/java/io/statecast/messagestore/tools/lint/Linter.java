package io.statecast.messagestore.tools.lint;

import io.statecast.overlay.io.FileErrors;
import io.statecast.messagestore.spec.Problem;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.messagestore.tools.SourceText;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code statecast spec lint}: loads a spec with the {@link SpecLoader} (so every validation
 * problem is reported, under a rule) and, when it loads, runs the static analyses of
 * {@link Rule}. The analyses only read the loaded {@link ServiceSpec}; the spec is parsed once.
 *
 * <p>Thread-safe when its loader is (it is).
 */
public final class Linter {

    private static final List<Check> CHECKS = List.of(
            new EventUsageCheck(),
            new LeakCheck(),
            new TimerCheck(),
            new HistoryReadCheck(),
            new MetaopsCheck());

    private final SpecLoader loader;

    /** A linter loading specs with {@code loader} (not closed by the linter). */
    public Linter(SpecLoader loader) {
        this.loader = Objects.requireNonNull(loader, "loader");
    }

    /**
     * Lints one spec.
     *
     * @param bytes the document
     * @param file  names it in findings
     * @return every finding, sorted by position; empty when the spec is clean
     */
    public List<Finding> lint(byte[] bytes, String file) {
        SourceText text = SourceText.of(bytes);
        List<Finding> out = new ArrayList<>();
        ServiceSpec spec;
        try {
            spec = loader.load(bytes, file);
        } catch (SpecException e) {
            for (Problem p : e.problems()) {
                out.add(ValidationRules.toFinding(p, file, text));
            }
            out.sort(Finding.ORDER);
            return List.copyOf(out);
        }
        for (Problem p : spec.warnings()) {
            Finding f = ValidationRules.toFinding(p, file, text);
            if (f.rule() != Rule.UNUSED_EVENT) { // EventUsageCheck decides, counting history reads too
                out.add(f);
            }
        }
        LintContext ctx = new LintContext(file, spec, text, out);
        for (Check c : CHECKS) {
            c.run(ctx);
        }
        out.sort(Finding.ORDER);
        return List.copyOf(out);
    }

    /** Lints a file, reading at most one byte more than the loader's size limit. */
    public List<Finding> lint(Path file) {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(loader.limits().maxBytes() + 1);
        } catch (IOException e) {
            return List.of(new Finding(Rule.INVALID, Problem.Severity.ERROR, file.toString(), 0, 0,
                    "cannot read spec: " + FileErrors.describe(e)));
        }
        return lint(bytes, file.toString());
    }
}
