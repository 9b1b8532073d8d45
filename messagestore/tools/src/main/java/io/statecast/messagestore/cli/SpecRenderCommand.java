package io.statecast.messagestore.cli;

import io.statecast.messagestore.spec.Problem;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.messagestore.spec.SpecException;
import io.statecast.messagestore.spec.SpecLoader;
import io.statecast.messagestore.tools.render.RenderException;
import io.statecast.messagestore.tools.render.RenderFormat;
import io.statecast.messagestore.tools.render.RenderOptions;
import io.statecast.messagestore.tools.render.Renderer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code statecast spec render FILE [--format svg|png|dot|mermaid] [-o OUT]}: the spec's state
 * diagram. Exit status 0 when written, 1 when the spec does not load or is too large to draw, 2 for
 * bad usage (an output extension it does not write, without {@code --format}) or an unreadable file.
 */
@Command(name = "render",
        description = {"Draw a spec's state diagram: states, the initial and final states, every transition "
                + "labelled \"event / primitives\", composite events dashed.",
            "SVG and PNG are laid out in Java (no Graphviz needed); DOT and Mermaid are text for other tools. "
                + "Text formats go to standard output unless -o is given."})
final class SpecRenderCommand implements Callable<Integer> {


    @Parameters(index = "0", paramLabel = "FILE", description = "Spec file.")
    private Path file;

    @CommandLine.Option(names = {"-f", "--format"}, paramLabel = "FORMAT",
            description = "svg, png, dot or mermaid (default: from the extension of OUT, else svg).")
    private String format;

    @CommandLine.Option(names = {"-o", "--output"}, paramLabel = "OUT",
            description = "Write to this file (required for png; '-' is standard output).")
    private Path output;

    @CommandLine.Option(names = "--scale", paramLabel = "S",
            description = "PNG pixels per drawing unit, 0.25-4 (default: ${DEFAULT-VALUE}).")
    private double scale = RenderOptions.DEFAULT_PNG_SCALE;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Integer refused = InputFiles.refuseUnreadable(List.of(file), err);
        if (refused != null) {
            return refused;
        }
        boolean toStdout = output == null || output.toString().equals("-");
        RenderFormat f;
        try {
            f = format != null ? RenderFormat.ofName(format)
                    : toStdout ? RenderFormat.SVG
                    : formatOf(output);
            if (!f.isText() && toStdout) {
                throw new IllegalArgumentException(f.name().toLowerCase(Locale.ROOT)
                        + " is binary: give an output file with -o");
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        RenderOptions options;
        try {
            options = RenderOptions.DEFAULTS.withPngScale(scale);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--scale: " + e.getMessage());
        }
        ServiceSpec s;
        try (SpecLoader loader = new SpecLoader()) {
            s = loader.load(file);
        } catch (SpecException e) {
            for (Problem p : e.problems()) {
                err.println(p.format(file.toString()));
            }
            err.flush();
            return 1;
        }
        if (f == RenderFormat.PNG && System.getProperty("java.awt.headless") == null) {
            // Java2D draws into an image only; without this a set but unreachable DISPLAY would be tried.
            System.setProperty("java.awt.headless", "true");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 * 1024);
        try {
            new Renderer(options).render(s, f, bytes);
            if (toStdout) {
                out.print(bytes.toString(StandardCharsets.UTF_8));
                out.flush();
            } else {
                write(output, bytes.toByteArray());
            }
        } catch (RenderException | IOException e) {
            err.println(file + ": error: " + e.getMessage());
            err.flush();
            return 1;
        }
        return 0;
    }

    /**
     * Writes through a temporary file in the same folder, so a reader never sees half a picture.
     * The file is created like any other (the umask decides its mode, unlike createTempFile's 0600).
     */
    private static void write(Path target, byte[] data) throws IOException {
        Path abs = target.toAbsolutePath();
        Path tmp = abs.resolveSibling("." + abs.getFileName() + "." + Long.toHexString(System.nanoTime()) + ".tmp");
        try {
            Files.write(tmp, data, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * The format an output file's extension names; svg without an extension. An extension of
     * another format ({@code x.jpg}) is refused rather than given SVG under a name that lies.
     */
    private static RenderFormat formatOf(Path output) {
        String name = output.getFileName().toString();
        if (name.lastIndexOf('.') < 0) {
            return RenderFormat.SVG;
        }
        RenderFormat f = RenderFormat.ofFileName(name);
        if (f == null) {
            throw new IllegalArgumentException(output + ": render writes svg, png, dot and mermaid (.svg, .png, .dot, "
                    + ".mmd); name the file so or give --format");
        }
        return f;
    }
}
