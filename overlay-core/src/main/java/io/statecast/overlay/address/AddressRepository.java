package io.statecast.overlay.address;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The blueprint's <em>address repository</em>: the bindings from a logical address to the
 * substrate addresses its node can be reached at (the node's <em>address list</em>). Overlay
 * protocols add, update and remove bindings as they learn about neighbours; the forwarding engine
 * resolves a next hop's logical address to a substrate address.
 *
 * <p>Thread-safe: resolving takes no lock (bindings are immutable lists swapped atomically);
 * changes are serialised. Bounded: at most {@link Limits#maxAddresses()} logical addresses and
 * {@link Limits#maxBindingsPerAddress()} bindings each, because bindings are learned from messages
 * of other nodes. A change that would exceed a bound is refused as a whole, and counted.
 */
public final class AddressRepository {

    /**
     * Bounds of a repository.
     *
     * @param maxAddresses          logical addresses held at most; default {@value #DEFAULT_MAX_ADDRESSES}
     *                              (a node keeps bindings for its neighbours and recent peers, far fewer)
     * @param maxBindingsPerAddress substrate addresses per logical address; default
     *                              {@value #DEFAULT_MAX_BINDINGS_PER_ADDRESS} (one per scheme and realm is typical)
     */
    public record Limits(int maxAddresses, int maxBindingsPerAddress) {

        /** Default of {@link #maxAddresses()}. */
        public static final int DEFAULT_MAX_ADDRESSES = 65_536;
        /** Default of {@link #maxBindingsPerAddress()}. */
        public static final int DEFAULT_MAX_BINDINGS_PER_ADDRESS = 8;
        /** Largest {@link #maxAddresses()} accepted. */
        public static final int MAX_ADDRESSES_LIMIT = 1 << 24;
        /** Largest {@link #maxBindingsPerAddress()} accepted. */
        public static final int MAX_BINDINGS_LIMIT = 256;

        /** Validates the bounds, naming the field and its limit on failure. */
        public Limits {
            if (maxAddresses < 1 || maxAddresses > MAX_ADDRESSES_LIMIT) {
                throw new IllegalArgumentException("maxAddresses=" + maxAddresses + " must be within 1.." + MAX_ADDRESSES_LIMIT);
            }
            if (maxBindingsPerAddress < 1 || maxBindingsPerAddress > MAX_BINDINGS_LIMIT) {
                throw new IllegalArgumentException(
                        "maxBindingsPerAddress=" + maxBindingsPerAddress + " must be within 1.." + MAX_BINDINGS_LIMIT);
            }
        }

        /** The documented defaults. */
        public static Limits defaults() {
            return new Limits(DEFAULT_MAX_ADDRESSES, DEFAULT_MAX_BINDINGS_PER_ADDRESS);
        }
    }

    private final Limits limits;
    private final Map<LogicalAddress, List<SubstrateAddress>> bindings = new ConcurrentHashMap<>();
    private final Object writeLock = new Object();
    private final LongAdder refusedAddresses = new LongAdder();
    private final LongAdder refusedBindings = new LongAdder();

    /** A repository with {@link Limits#defaults()}. */
    public AddressRepository() {
        this(Limits.defaults());
    }

    /** @param limits the bounds */
    public AddressRepository(Limits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /** The bounds. */
    public Limits limits() {
        return limits;
    }

    /**
     * Binds {@code substrate} to {@code logical}, after the bindings it already has.
     *
     * @return true if the binding now exists (added or already present); false if refused because
     *         a bound would be exceeded (counted)
     */
    public boolean add(LogicalAddress logical, SubstrateAddress substrate) {
        Objects.requireNonNull(logical, "logical");
        Objects.requireNonNull(substrate, "substrate");
        synchronized (writeLock) {
            List<SubstrateAddress> old = bindings.get(logical);
            if (old == null) {
                if (bindings.size() >= limits.maxAddresses()) {
                    refusedAddresses.increment();
                    return false;
                }
                bindings.put(logical, List.of(substrate));
                return true;
            }
            if (old.contains(substrate)) {
                return true;
            }
            if (old.size() >= limits.maxBindingsPerAddress()) {
                refusedBindings.increment();
                return false;
            }
            List<SubstrateAddress> next = new ArrayList<>(old.size() + 1);
            next.addAll(old);
            next.add(substrate);
            bindings.put(logical, List.copyOf(next));
            return true;
        }
    }

    /**
     * Replaces all bindings of {@code logical} with {@code substrates} (in their order, duplicates
     * ignored); an empty collection removes the logical address.
     *
     * @return false if refused because a bound would be exceeded (counted); the old bindings stay
     */
    public boolean update(LogicalAddress logical, Collection<SubstrateAddress> substrates) {
        Objects.requireNonNull(logical, "logical");
        Objects.requireNonNull(substrates, "substrates");
        Set<SubstrateAddress> unique = new LinkedHashSet<>();
        for (SubstrateAddress s : substrates) {
            unique.add(Objects.requireNonNull(s, "substrate address in update"));
        }
        synchronized (writeLock) {
            if (unique.isEmpty()) {
                bindings.remove(logical);
                return true;
            }
            if (unique.size() > limits.maxBindingsPerAddress()) {
                refusedBindings.increment();
                return false;
            }
            if (!bindings.containsKey(logical) && bindings.size() >= limits.maxAddresses()) {
                refusedAddresses.increment();
                return false;
            }
            bindings.put(logical, List.copyOf(unique));
            return true;
        }
    }

    /**
     * Removes one binding; the logical address goes when its last binding does.
     *
     * @return whether the binding existed
     */
    public boolean remove(LogicalAddress logical, SubstrateAddress substrate) {
        Objects.requireNonNull(logical, "logical");
        Objects.requireNonNull(substrate, "substrate");
        synchronized (writeLock) {
            List<SubstrateAddress> old = bindings.get(logical);
            if (old == null || !old.contains(substrate)) {
                return false;
            }
            if (old.size() == 1) {
                bindings.remove(logical);
            } else {
                List<SubstrateAddress> next = new ArrayList<>(old);
                next.remove(substrate);
                bindings.put(logical, List.copyOf(next));
            }
            return true;
        }
    }

    /**
     * Removes every binding of {@code logical}.
     *
     * @return whether it had any
     */
    public boolean remove(LogicalAddress logical) {
        Objects.requireNonNull(logical, "logical");
        synchronized (writeLock) {
            return bindings.remove(logical) != null;
        }
    }

    /** The first binding of {@code logical}, if any. */
    public Optional<SubstrateAddress> resolve(LogicalAddress logical) {
        List<SubstrateAddress> b = bindings.get(logical);
        return b == null ? Optional.empty() : Optional.of(b.get(0));
    }

    /**
     * The first binding of {@code logical} with scheme {@code preferred}; failing that, its first
     * binding of any scheme; failing that, empty.
     */
    public Optional<SubstrateAddress> resolve(LogicalAddress logical, SubstrateAddress.Scheme preferred) {
        Objects.requireNonNull(preferred, "preferred");
        List<SubstrateAddress> b = bindings.get(logical);
        if (b == null) {
            return Optional.empty();
        }
        for (SubstrateAddress s : b) {
            if (s.scheme() == preferred) {
                return Optional.of(s);
            }
        }
        return Optional.of(b.get(0));
    }

    /** All bindings of {@code logical} in order (an immutable snapshot, empty if none). */
    public List<SubstrateAddress> bindings(LogicalAddress logical) {
        List<SubstrateAddress> b = bindings.get(logical);
        return b == null ? List.of() : b;
    }

    /** Whether {@code logical} has a binding. */
    public boolean contains(LogicalAddress logical) {
        return bindings.containsKey(logical);
    }

    /** The logical addresses with bindings (a snapshot). */
    public Set<LogicalAddress> logicalAddresses() {
        return Set.copyOf(bindings.keySet());
    }

    /** Number of logical addresses with bindings. */
    public int size() {
        return bindings.size();
    }

    /** Changes refused because {@link Limits#maxAddresses()} was reached. */
    public long refusedAddresses() {
        return refusedAddresses.sum();
    }

    /** Changes refused because {@link Limits#maxBindingsPerAddress()} was reached. */
    public long refusedBindings() {
        return refusedBindings.sum();
    }
}
