package io.statecast.messagestore.instance;

import io.statecast.messagestore.action.ResolvedFields;
import io.statecast.messagestore.chart.ChartLimit;
import io.statecast.messagestore.event.CompiledPath;
import io.statecast.messagestore.event.CompositeEventDefinition;
import io.statecast.messagestore.event.EvaluationException;
import io.statecast.messagestore.event.MessageKeyExpression;
import io.statecast.messagestore.event.QueryEvaluator;
import io.statecast.messagestore.event.HistoryNames;
import io.statecast.messagestore.event.MessageEventDefinition;
import io.statecast.messagestore.event.NodeSnapshot;
import io.statecast.messagestore.event.QueryBindings;
import io.statecast.messagestore.metrics.Counters;
import io.statecast.messagestore.spec.ActionTemplate;
import io.statecast.messagestore.spec.FieldAssignment;
import io.statecast.messagestore.spec.FieldValue;
import io.statecast.messagestore.spec.MetaOps;
import io.statecast.messagestore.spec.Parameter;
import io.statecast.messagestore.spec.Scope;
import io.statecast.messagestore.spec.ServiceSpec;
import io.statecast.overlay.address.LogicalAddress;
import io.statecast.overlay.forward.ServiceMetaops;
import io.statecast.overlay.logging.RateLimitedLog;
import io.statecast.overlay.message.OverlayMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import net.sf.saxon.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A loaded spec as the runtime uses it: the {@link ServiceSpec} plus what is worth computing once
 * rather than per event — the resolved action fields, the
 * parameters as query variables, the Saxon configuration of its expressions — and the service's
 * counters and quarantine flag. Shared by every instance of the service on every shard.
 *
 * <p>Immutable but for the counters (lock-free) and the quarantine flag (volatile).
 */
public final class ServiceRuntime {

    private static final Logger INSTANCE_LOG = LoggerFactory.getLogger(ServiceInstance.class);
    /** Largest expected history or action-log length an instance passes on to the next. */
    private static final int MAX_EXPECTED = 16;

    private final ServiceSpec spec;
    private final Map<ActionTemplate, ResolvedFields> resolvedFields;
    private final QueryBindings bindings;
    private final Configuration configuration;
    private final HistoryNames historyNames;
    private final Counters counters = new Counters();
    private final FlowSequences sequences = new FlowSequences();
    /** What the forwarding engine asks per message, made once here. */
    private final ServiceMetaops metaops;
    /** Rate limits for the log lines instances of this service write. */
    // Gates for ServiceInstance's problem lines (one line per 10 s each, per service).
    final RateLimitedLog actionLog = RateLimitedLog.onePer(INSTANCE_LOG, Duration.ofSeconds(10));
    final RateLimitedLog throttleLog = RateLimitedLog.onePer(INSTANCE_LOG, Duration.ofSeconds(10));
    final RateLimitedLog engineLog = RateLimitedLog.onePer(INSTANCE_LOG, Duration.ofSeconds(10));
    /** One line per 10 s for each {@link ChartLimit} (its ordinal is the key) that ends an instance. */
    final RateLimitedLog limitLog = new RateLimitedLog(INSTANCE_LOG, System::nanoTime, Duration.ofSeconds(10), 1,
            ChartLimit.values().length);
    /** Gate for the lines about messages the {@code <ScopeKey>} gave no key (one per 10 s). */
    private final RateLimitedLog keyLog = RateLimitedLog.onePer(INSTANCE_LOG, Duration.ofSeconds(10));
    /** Gate for the lines about sends over the service's send budget (one per 10 s). */
    final RateLimitedLog budgetLog = RateLimitedLog.onePer(INSTANCE_LOG, Duration.ofSeconds(10));
    /** The service's send budget on this node, made by the first send. */
    private volatile SharedTokenBucket sendBucket;
    private volatile String quarantineReason;
    /**
     * The node view most recently recorded by an instance of this service; immutable, so sharing
     * it across shards is safe. Consecutive instances nearly always see the same topology.
     */
    private volatile NodeSnapshot lastSnapshot;
    /**
     * History entries and action records of the instance of this service that ended last: where
     * the next instance's lists start, so they are not grown and copied two or three times per
     * instance (4 % of a saturated forwarding node's CPU). Held to {@link #MAX_EXPECTED} so that
     * one long-lived instance does not make every later one start large. Written by any shard; a
     * stale value only costs a copy.
     */
    private volatile int lastHistoryEntries = 4;
    private volatile int lastActionRecords = 4;

    /** The service's per-flow sequence numbers, shared by its instances on every shard. */
    public FlowSequences sequences() {
        return sequences;
    }

    /** Prepares {@code spec} for running. */
    public ServiceRuntime(ServiceSpec spec) {
        this.spec = Objects.requireNonNull(spec, "spec");
        Configuration config = null;
        for (CompositeEventDefinition c : spec.compositeEvents()) {
            config = c.query().executable().getUnderlyingCompiledQuery().getConfiguration();
        }
        Map<ActionTemplate, ResolvedFields> indexes = new IdentityHashMap<>();
        for (ActionTemplate a : spec.actions()) {
            indexes.put(a, ResolvedFields.of(a, spec.parameters()));
            for (FieldAssignment f : a.assignments()) {
                if (f.value() instanceof FieldValue.HistoryQuery q) {
                    config = q.path().executable().getUnderlyingStaticContext().getConfiguration();
                }
            }
        }
        if (config == null && !spec.chart().standardContent().isEmpty()) {
            // the datamodel's expressions may read the history ($_x): its tree needs their configuration
            config = spec.chart().configuration();
        }
        this.resolvedFields = indexes;
        this.configuration = config;
        this.historyNames = config == null ? null : HistoryNames.of(config);
        Map<String, Object> typed = new LinkedHashMap<>();
        for (Parameter p : spec.parameters().declared()) {
            String v = spec.parameters().value(p.name());
            typed.put(p.name(), switch (p.type()) {
                case DURATION, INTEGER -> Long.parseLong(v);
                case BOOLEAN -> Boolean.parseBoolean(v);
                case STRING -> v;
            });
        }
        this.bindings = QueryBindings.of(typed);
        this.metaops = metaopsOf(spec);
    }

    /**
     * How the forwarding engine treats the service's messages: its spec's metaops section, and
     * consecutive MessageIDs for the application's messages when the service keeps state across a
     * source's messages (a flow or expression scope; best-effort ordering orders them by
     * MessageID). A message-scope service keys its instances and tombstones by the MessageID, so
     * its IDs stay enciphered (unpredictable).
     */
    public ServiceMetaops metaops() {
        return metaops;
    }

    private static ServiceMetaops metaopsOf(ServiceSpec spec) {
        MetaOps m = spec.metaops();
        return new ServiceMetaops(m.messageStoreWillForwardMessage(), m.processIntermediateUnicastMessage(),
                m.receiveOwnUnicast(), !spec.service().scope().perMessage());
    }

    /** The spec. */
    public ServiceSpec spec() {
        return spec;
    }

    /** The ServiceID. */
    public int serviceId() {
        return spec.service().serviceId();
    }

    /** The service's name. */
    public String name() {
        return spec.service().name();
    }

    /** Which messages share an instance. */
    public Scope scope() {
        return spec.service().scope();
    }

    /**
     * The key of the instance {@code message} belongs to on the node {@code local}: the header
     * values the scope names, or for scope {@link Scope#EXPRESSION} the value of the spec's
     * {@code <ScopeKey>}, evaluated by {@code evaluator} (the calling shard's: Saxon runs under
     * its guard).
     *
     * @return the key, or {@code null} when the {@code <ScopeKey>} gives none (the message belongs
     *         to no instance; the reason is logged, rate-limited, and the caller counts the drop)
     * @throws EvaluationException when the expression ran away (fatal: quarantine the service)
     */
    public InstanceKey keyOf(OverlayMessage message, LogicalAddress local, QueryEvaluator evaluator)
            throws EvaluationException {
        MessageKeyExpression key = spec.service().scopeKey();
        if (key == null) {
            return InstanceKey.of(scope(), message, local);
        }
        try {
            return InstanceKey.ofExpression(serviceId(), key.keyOf(message, this, evaluator, bindings));
        } catch (MessageKeyExpression.NoKey e) {
            logNoKey(message, e.getMessage());
        } catch (EvaluationException e) {
            if (e.fatal()) {
                throw e;
            }
            logNoKey(message, e.getMessage());
        }
        return null;
    }

    private void logNoKey(OverlayMessage message, String why) {
        if (keyLog.allow()) {
            INSTANCE_LOG.warn("{}: ScopeKey {} gave no key for message {} from {}: {}; dropped ({} more since the "
                    + "last report)", name(), spec.service().scopeKey().text(), message.fsm().messageId(),
                    message.source(), why, keyLog.takeSuppressed());
        }
    }

    /**
     * Whether a message keyed under {@code other} (an earlier load of this service) may have
     * another key under this one: the scope changed, or both key by an expression (whose text
     * or parameters may differ; recomputing costs one evaluation).
     */
    public boolean keysDifferently(ServiceRuntime other) {
        return other != this && (other.scope() != scope() || scope() == Scope.EXPRESSION);
    }

    /** The last value of each field of {@code action} resolved once for this deployment ({@link ResolvedFields}). */
    ResolvedFields fields(ActionTemplate action) {
        ResolvedFields f = resolvedFields.get(action);
        return f != null ? f : ResolvedFields.of(action, spec.parameters());
    }

    /**
     * How many of the spec's action XPaths are compiled to Java ({@code CompiledExpression});
     * {@link #actionPathCount()} less this many run on Saxon.
     */
    public int compiledPathCount() {
        int n = 0;
        for (CompiledPath p : actionPaths()) {
            if (p.compiled() != null) {
                n++;
            }
        }
        return n;
    }

    /** How many distinct action XPaths the spec has. */
    public int actionPathCount() {
        return actionPaths().size();
    }

    private List<CompiledPath> actionPaths() {
        List<CompiledPath> out = new ArrayList<>();
        java.util.Set<CompiledPath> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (ActionTemplate a : spec.actions()) {
            for (FieldAssignment f : a.assignments()) {
                if (f.value() instanceof FieldValue.HistoryQuery q && seen.add(q.path())) {
                    out.add(q.path());
                }
            }
        }
        return out;
    }

    /** How many of the spec's composite-event queries are compiled to Java ({@code CompiledExpression}). */
    public int compiledQueryCount() {
        int n = 0;
        for (CompositeEventDefinition c : spec.compositeEvents()) {
            if (c.query().compiled() != null) {
                n++;
            }
        }
        return n;
    }

    /** The parameters as query variables. */
    public QueryBindings bindings() {
        return bindings;
    }

    /** The history vocabulary in the spec's Saxon configuration, or {@code null} when it has no expressions. */
    public HistoryNames historyNames() {
        return historyNames;
    }

    /** The Saxon configuration of the spec's expressions, or {@code null} when it has none. */
    public Configuration configuration() {
        return configuration;
    }

    /** The composite events to evaluate after {@code fired} basic events, in spec order, each once. */
    List<CompositeEventDefinition> compositesAfter(List<MessageEventDefinition> fired) {
        if (fired.size() == 1) {
            return spec.compositesTriggeredBy(fired.get(0).name());
        }
        List<CompositeEventDefinition> out = new ArrayList<>(2);
        for (CompositeEventDefinition c : spec.compositeEvents()) {
            for (MessageEventDefinition d : fired) {
                if (c.constituents().contains(d.name())) {
                    out.add(c);
                    break;
                }
            }
        }
        return out;
    }

    /**
     * Takes one message from the service's node-wide send budget at {@code nowNanos}: false when
     * the service has sent {@code budget}'s worth already. The bucket is made by the first send,
     * full, with {@code budget} (the store's: every caller passes the same).
     */
    boolean trySend(SendBudget budget, long nowNanos) {
        SharedTokenBucket b = sendBucket;
        if (b == null) {
            synchronized (this) {
                b = sendBucket;
                if (b == null) {
                    b = new SharedTokenBucket(budget, nowNanos);
                    sendBucket = b;
                }
            }
        }
        return b.tryTake(nowNanos);
    }

    /** The service's counters. */
    public Counters counters() {
        return counters;
    }

    /**
     * Marks the service quarantined: its expressions are not evaluated again, its instances end,
     * its messages are refused.
     *
     * @return false if it was quarantined already
     */
    public synchronized boolean quarantine(String reason) {
        if (quarantineReason != null) {
            return false;
        }
        quarantineReason = Objects.requireNonNull(reason, "reason");
        return true;
    }

    /** Whether the service is quarantined. */
    public boolean quarantined() {
        return quarantineReason != null;
    }

    /** Why the service was quarantined, or {@code null}. */
    public String quarantineReason() {
        return quarantineReason;
    }

    @Override
    public String toString() {
        return "service " + name() + " (ServiceID " + serviceId() + ")";
    }

    /**
     * {@code node}, or an equal snapshot an instance of this service recorded before: a node
     * holding thousands of instances (h2h-ack keeps each for TimeoutMsg) then holds one copy of
     * its topology view instead of one per instance.
     */
    NodeSnapshot canonical(NodeSnapshot node) {
        NodeSnapshot last = lastSnapshot;
        if (node.equals(last)) {
            return last;
        }
        lastSnapshot = node;
        return node;
    }

    /** History entries of the instance that ended last (4 before any ended). */
    int expectedHistoryEntries() {
        return lastHistoryEntries;
    }

    /** Action records of the instance that ended last (4 before any ended). */
    int expectedActionRecords() {
        return lastActionRecords;
    }

    /** Notes the sizes an ending instance reached; written only when they change. */
    void instanceEnded(int historyEntries, int actionRecords) {
        historyEntries = Math.min(historyEntries, MAX_EXPECTED);
        actionRecords = Math.min(actionRecords, MAX_EXPECTED);
        if (historyEntries != lastHistoryEntries) {
            lastHistoryEntries = historyEntries;
        }
        if (actionRecords != lastActionRecords) {
            lastActionRecords = actionRecords;
        }
    }
}
