package io.statecast.messagestore.chart;

import java.util.List;
import java.util.Map;
import net.sf.saxon.s9api.Processor;
import net.sf.saxon.s9api.QName;

/**
 * A statechart compiled once from its SCXML document: the state tree in document order, every
 * transition and block of executable content in executable form, every expression compiled by
 * Saxon. Immutable after {@link ChartCompiler} publishes it and shared by all of its
 * {@link Session}s.
 */
public final class Chart {

    private final String name;
    private final StateNode[] states;
    private final Map<String, StateNode> byId;
    private final boolean lateBinding;
    private final List<QName> variables;
    private final Processor processor;
    private final List<String> warnings;
    private final boolean hasData;
    /** Every {@code <data id>} in document order, once each. */
    private final java.util.Set<String> dataIds;
    private final boolean hasEventless;
    private final List<String> standardContent;
    private final java.util.Set<String> parameters;
    private final List<String> controlContent;

    Chart(String name, StateNode[] states, Map<String, StateNode> byId, boolean lateBinding, List<QName> variables,
            Processor processor, List<String> warnings, List<String> standardContent, List<String> controlContent,
            java.util.Set<String> parameters) {
        this.standardContent = List.copyOf(standardContent);
        this.controlContent = List.copyOf(controlContent);
        this.parameters = java.util.Set.copyOf(parameters);
        this.name = name;
        this.states = states;
        this.byId = Map.copyOf(byId);
        this.lateBinding = lateBinding;
        this.variables = List.copyOf(variables);
        this.processor = processor;
        this.warnings = List.copyOf(warnings);
        boolean any = false;
        for (StateNode s : states) {
            any |= s.data.length > 0;
        }
        this.hasData = any;
        java.util.Set<String> ids = new java.util.LinkedHashSet<>();
        for (StateNode s : states) {
            for (DataDecl d : s.data) {
                ids.add(d.id());
            }
        }
        this.dataIds = java.util.Collections.unmodifiableSet(ids);
        boolean eventless = false;
        for (StateNode s : states) {
            eventless |= s.eventless != null && s.eventless.length > 0;
        }
        this.hasEventless = eventless;
    }

    /** The {@code name} attribute of {@code <scxml>}, or empty. */
    public String name() {
        return name;
    }

    /** Number of states, the root and history pseudo-states included. */
    public int size() {
        return states.length;
    }

    /** The state with this id, or {@code null}. */
    public StateNode state(String id) {
        return byId.get(id);
    }

    /** The state at {@code index} in document order (0 is the root). */
    public StateNode state(int index) {
        return states[index];
    }

    /**
     * What makes the chart more than states, events and custom content: data, conditions,
     * eventless transitions, history, SCXML executable content (one line each; empty for a
     * blueprint-style chart). Tools that model only configurations check this.
     */
    public List<String> standardContent() {
        return standardContent;
    }

    /**
     * The part of {@link #standardContent()} that may change which transitions are taken:
     * conditions, eventless transitions, history, executable content other than {@code <assign>}
     * and {@code <log>}, and transitions that could handle a failed assignment's
     * {@code error.execution}. Empty when the datamodel only feeds values (for example a timer's
     * duration read by an action XPath): a model of configurations then stays exact.
     */
    public List<String> controlContent() {
        return controlContent;
    }

    /** What the compile noticed but accepted, one line each. */
    public List<String> warnings() {
        return warnings;
    }

    StateNode[] states() {
        return states;
    }

    /** Whether any transition is eventless (else the macrostep need not look for them). */
    boolean hasEventless() {
        return hasEventless;
    }

    /** Whether any state declares {@code <data>}. */
    boolean hasData() {
        return hasData;
    }

    /** Every variable the chart declares ({@code <data id>}), in document order. */
    java.util.Set<String> dataIds() {
        return dataIds;
    }

    boolean lateBinding() {
        return lateBinding;
    }

    /** Whether {@code name} is a spec parameter (a read-only variable whose value the host gives). */
    boolean isParameter(String name) {
        return parameters.contains(name);
    }

    /** Every variable the chart's expressions may name: its data, foreach names, system variables, parameters. */
    List<QName> variables() {
        return variables;
    }

    Processor processor() {
        return processor;
    }

    /** The Saxon configuration that compiled the chart's expressions (their nodes must share it). */
    public net.sf.saxon.Configuration configuration() {
        return processor.getUnderlyingConfiguration();
    }
}
