package io.statecast.examples.ttcp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A delivery service of the services module, named as it is shipped ({@code h2h-ack},
 * {@code e2e-ack}, …): its spec is the class-path resource {@code services/NAME.scxml} (on every
 * node's class path through the benchmarks module), its ServiceID is the one the spec declares, and
 * {@link #messageStoreYaml} is the {@code overlay.messageStore} section that loads it on every node.
 *
 * @param name     the service's name
 * @param id       the ServiceID its spec declares
 * @param resource the class-path resource of the spec
 */
public record ShippedService(String name, int id, String resource) {

    /** Names are file names of the services module: lower case, digits and dashes. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    private static final Pattern SERVICE_ID = Pattern.compile("<ServiceID>\\s*(\\d{1,9})\\s*</ServiceID>");
    /** The MessageStore's own default limit of a spec document. */
    private static final int MAX_SPEC_BYTES = 262_144;

    /**
     * The testbed's store threading: io, the shard on the UDP thread. With six JVMs on two cores
     * the thread hand-offs of dedicated threading cost a share of the CPU the runs are short of
     * (docs/benchmarks.md).
     */
    public static final String DEFAULT_THREADING = "io";

    /**
     * Finds the shipped service {@code name} on this class path.
     *
     * @throws IllegalArgumentException if the name is malformed, no such spec is shipped, or the
     *                                  spec declares no ServiceID
     */
    public static ShippedService byName(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        if (!NAME.matcher(n).matches()) {
            throw new IllegalArgumentException("service '" + name + "' is not a service name ([a-z0-9-], at most 64 characters)");
        }
        String resource = "services/" + n + ".scxml";
        String spec;
        try (InputStream in = ShippedService.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("service '" + name + "': no " + resource
                        + " on the class path (the services module ships h2h-ack, e2e-ack, dup-elim, …)");
            }
            byte[] bytes = in.readNBytes(MAX_SPEC_BYTES + 1);
            if (bytes.length > MAX_SPEC_BYTES) {
                throw new IllegalArgumentException(resource + " is larger than " + MAX_SPEC_BYTES + " bytes");
            }
            spec = new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + resource + ": " + e.getMessage(), e);
        }
        Matcher m = SERVICE_ID.matcher(spec);
        if (!m.find()) {
            throw new IllegalArgumentException(resource + " declares no <ServiceID>");
        }
        return new ShippedService(n, Integer.parseInt(m.group(1)), resource);
    }

    /**
     * The {@code overlay.messageStore} section (unindented) that loads this service on a node of a
     * run of {@code messages} messages (warm-up included). One shard: six node JVMs share two
     * cores, and a second shard thread per node only adds context switches. Queues hold a whole
     * run, so a node descheduled by the shared CPU does not drop at its store's door. The live
     * instance limit covers every message of a run being alive at once: message-scope services keep
     * a finished instance for seconds (h2h-ack's TimeoutMsg, 6 s) to answer late requests. The
     * shard runs on the node's UDP thread ({@link #DEFAULT_THREADING}).
     */
    public String messageStoreYaml(int messages) {
        return messageStoreYaml(messages, DEFAULT_THREADING);
    }

    /**
     * As {@link #messageStoreYaml(int)} with the store's {@code threading} ({@code dedicated},
     * {@code clock} or {@code io}).
     */
    public String messageStoreYaml(int messages, String threading) {
        return messageStoreYaml(messages, threading, "");
    }

    /**
     * As {@link #messageStoreYaml(int, String)} with more {@code instances} limits, such as
     * {@code "historyEntries: 65536, primitiveBurst: 100000"} for a service that carries a whole
     * stream through one instance (docs/config.md); empty for none.
     */
    public String messageStoreYaml(int messages, String threading, String moreInstanceLimits) {
        return messageStoreYaml(messages, threading, moreInstanceLimits, Map.of());
    }

    /**
     * As {@link #messageStoreYaml(int, String, String)}, the service loaded with {@code parameters}
     * (the spec's {@code <Parameters>}, such as total-order's {@code Group}); empty for its defaults.
     */
    public String messageStoreYaml(int messages, String threading, String moreInstanceLimits, Map<String, String> parameters) {
        for (Map.Entry<String, String> p : parameters.entrySet()) {
            if (!p.getKey().matches("[A-Za-z][A-Za-z0-9]*") || !p.getValue().matches("[A-Za-z0-9 .:_-]*")) {
                throw new IllegalArgumentException("parameter " + p.getKey() + "='" + p.getValue() + "' must be a name and plain text");
            }
        }
        if (!moreInstanceLimits.isEmpty() && !moreInstanceLimits.matches("[A-Za-z]+: *[0-9]+(, *[A-Za-z]+: *[0-9]+)*")) {
            throw new IllegalArgumentException("instance limits '" + moreInstanceLimits + "' must be 'name: number, …'");
        }
        if (!threading.matches("dedicated|clock|io")) {
            throw new IllegalArgumentException("threading '" + threading + "' must be dedicated, clock or io");
        }
        int queue = Math.max(10_000, Math.min(1_000_000, messages));
        int live = Math.max(50_000, Math.min(1_000_000, 2 * messages));
        return String.format(Locale.ROOT, """
                shards: 1
                threading: %s
                dataQueueCapacity: %d
                controlQueueCapacity: %d
                instances: { maxLive: %d, tombstones: %d%s }
                services: [ %s ]
                """, threading, queue, queue, live, live, moreInstanceLimits.isEmpty() ? "" : ", " + moreInstanceLimits,
                service(parameters));
    }

    private String service(Map<String, String> parameters) {
        if (parameters.isEmpty()) {
            return "\"classpath:" + resource + "\"";
        }
        String p = parameters.entrySet().stream().map(e -> e.getKey() + ": \"" + e.getValue() + "\"")
                .collect(Collectors.joining(", "));
        return "{ uri: \"classpath:" + resource + "\", parameters: { " + p + " } }";
    }
}
