package io.statecast.specserver.cli;

import io.statecast.messagestore.deploy.TrustedKeys;
import io.statecast.overlay.io.FileErrors;
import io.statecast.specserver.MessageStoreSpecCheck;
import io.statecast.specserver.SpecServer;
import io.statecast.specserver.SpecServerConfig;
import io.statecast.specserver.SpecServerException;
import io.statecast.specserver.SpecServerLimits;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code statecast spec-server}: runs a {@link SpecServer} until the process is stopped.
 *
 * <p>Specs are validated by {@link MessageStoreSpecCheck}, the MessageStore's own loader.
 * Prints one line {@code spec-server listening on http://HOST:PORT/} on standard output once
 * it accepts connections (scripts and tests wait for it). Exit status: 0 after a clean stop,
 * 1 when the server cannot start (directory, port), 2 for bad options.
 */
@Command(
        name = "spec-server",
        mixinStandardHelpOptions = true,
        description = "Run the spec server: store, validate and serve executable specs (SCXML) over HTTP.",
        footer = "Writes need 'Authorization: Bearer <token>' unless --insecure. See docs/spec-server.md.")
public final class SpecServerCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(SpecServerCommand.class);

    /** Largest token file read: a token is at most {@value SpecServerConfig#MAX_TOKEN_CHARS} characters. */
    static final int MAX_TOKEN_FILE_BYTES = 4096;


    @Option(names = "--port", defaultValue = "0", description = "TCP port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--bind", defaultValue = SpecServerConfig.DEFAULT_BIND_ADDRESS,
            description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--dir", required = true, description = "Directory holding the specs; created if absent.")
    Path dir;

    @Option(names = "--token-file", description = "File whose content (trimmed) is the bearer token writes must present.")
    Path tokenFile;

    @Option(names = "--insecure", description = "Accept writes without a token (closed test networks only).")
    boolean insecure;

    @Option(names = "--max-spec-bytes", description = "Largest accepted spec, in bytes (default: ${DEFAULT-VALUE}).")
    int maxSpecBytes = SpecServerLimits.DEFAULT_MAX_SPEC_BYTES;

    @Option(names = "--max-connections", description = "Most simultaneous connections (default: ${DEFAULT-VALUE}).")
    int maxConnections = SpecServerLimits.DEFAULT_MAX_CONNECTIONS;

    @Option(names = "--max-connections-per-address",
            description = "Most simultaneous connections from one client address (IPv6: one /64) (default: ${DEFAULT-VALUE}).")
    int maxConnectionsPerAddress = SpecServerLimits.DEFAULT_MAX_CONNECTIONS_PER_ADDRESS;

    @Option(names = "--trust", paramLabel = "KEY.pub",
            description = "Accept only specs signed by this public key (from 'statecast keygen'); repeat for several. "
                    + "Unsigned or wrongly signed uploads get 403 and nothing stored changes.")
    java.util.List<Path> trust = new java.util.ArrayList<>();

    @Option(names = "--tls-cert", paramLabel = "CERT.pem",
            description = "Serve HTTPS only, with this PEM certificate (chain); needs --tls-key.")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "KEY.pem",
            description = "The unencrypted PKCS#8 PEM private key of --tls-cert.")
    Path tlsKey;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        SpecServerConfig config;
        try {
            Optional<String> token = tokenFile == null ? Optional.empty() : Optional.of(readToken(tokenFile));
            SpecServerLimits limits = SpecServerLimits.DEFAULTS.withMaxSpecBytes(maxSpecBytes).withMaxConnections(maxConnections)
                    .withMaxConnectionsPerAddress(maxConnectionsPerAddress);
            config = new SpecServerConfig(bind, port, dir, token, insecure, limits);
            if (!trust.isEmpty()) {
                for (Path f : trust) {
                    Optional<String> why = FileErrors.unreadable(f);
                    if (why.isPresent()) {
                        throw new IOException("--trust " + f + ": " + why.get());
                    }
                }
                config = config.withTrustedKeys(TrustedKeys.read(trust));
            }
            if ((tlsCert == null) != (tlsKey == null)) {
                throw new IllegalArgumentException("--tls-cert and --tls-key go together; give both or neither");
            }
            if (tlsCert != null) {
                for (Path f : java.util.List.of(tlsCert, tlsKey)) {
                    Optional<String> why = FileErrors.unreadable(f);
                    if (why.isPresent()) {
                        throw new IOException((f == tlsCert ? "--tls-cert " : "--tls-key ") + f + ": " + why.get());
                    }
                }
                config = config.withTls(new SpecServerConfig.Tls(tlsCert, tlsKey));
            }
        } catch (IllegalArgumentException | IOException e) {
            err.println("spec-server: " + e.getMessage());
            err.flush();
            return 2;
        }
        try (MessageStoreSpecCheck check = new MessageStoreSpecCheck(config.limits().maxSpecBytes())) {
            SpecServer server;
            try {
                server = SpecServer.start(config, check);
            } catch (SpecServerException e) {
                err.println("spec-server: " + e.getMessage());
                err.flush();
                // an unusable certificate or key is bad input, like an unreadable token file
                return config.tls().isPresent() && e.getMessage().startsWith("cannot use TLS") ? 2 : 1;
            }
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "spec-server-shutdown"));
            out.println("spec-server listening on " + server.baseUri() + " (" + server.services().size() + " services in "
                    + dir.toAbsolutePath() + (config.trustedKeys().isPresent() ? "; accepting specs signed by "
                    + config.trustedKeys().get().keys().keySet() : "") + ")");
            out.flush();
            server.awaitClose();
            return 0;
        }
    }

    static String readToken(Path file) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_TOKEN_FILE_BYTES + 1);
        } catch (IOException e) {
            throw new IOException("cannot read --token-file " + file + ": " + FileErrors.describe(e), e);
        }
        if (bytes.length > MAX_TOKEN_FILE_BYTES) {
            throw new IOException("--token-file " + file + " is larger than " + MAX_TOKEN_FILE_BYTES + " bytes");
        }
        String token = new String(bytes, StandardCharsets.UTF_8).strip();
        if (token.isEmpty()) {
            throw new IOException("--token-file " + file + " is empty");
        }
        warnIfReadableByOthers(file);
        return token;
    }

    private static void warnIfReadableByOthers(Path file) {
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (view == null) {
            return;
        }
        try {
            Set<PosixFilePermission> perms = view.readAttributes().permissions();
            if (perms.contains(PosixFilePermission.OTHERS_READ) || perms.contains(PosixFilePermission.GROUP_READ)) {
                LOG.warn("--token-file {} is readable by group or others; chmod 600 it", file);
            }
        } catch (IOException e) {
            LOG.debug("cannot read permissions of {}: {}", file, e.toString());
        }
    }

    /**
     * Runs the command on its own, without the {@code statecast} launcher.
     *
     * @param args command line
     */
    public static void main(String[] args) {
        System.exit(new CommandLine(new SpecServerCommand()).execute(args));
    }
}
