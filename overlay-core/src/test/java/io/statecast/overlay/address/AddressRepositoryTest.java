package io.statecast.overlay.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AddressRepositoryTest {

    private static final LogicalAddress A = new TreeAddress(1);
    private static final LogicalAddress B = new DtAddress(3, 4);
    private static final SubstrateAddress UDP_A = SubstrateAddress.udp("127.0.0.1", 5000);
    private static final SubstrateAddress TCP_A = SubstrateAddress.tcp("127.0.0.1", 6000);
    private static final SubstrateAddress MEM_A = SubstrateAddress.mem("a");

    private final AddressRepository repo = new AddressRepository(new AddressRepository.Limits(3, 2));

    @Test
    void shouldResolveTheFirstBindingAndPreferTheAskedScheme() {
        assertTrue(repo.add(A, UDP_A));
        assertTrue(repo.add(A, TCP_A));

        assertEquals(Optional.of(UDP_A), repo.resolve(A));
        assertEquals(Optional.of(TCP_A), repo.resolve(A, SubstrateAddress.Scheme.TCP));
        assertEquals(Optional.of(UDP_A), repo.resolve(A, SubstrateAddress.Scheme.UDP));
        assertEquals(Optional.of(UDP_A), repo.resolve(A, SubstrateAddress.Scheme.MEM), "falls back to the first binding");
        assertEquals(Optional.empty(), repo.resolve(B));
        assertEquals(Optional.empty(), repo.resolve(B, SubstrateAddress.Scheme.UDP));
    }

    @Test
    void shouldTreatAddingAnExistingBindingAsSuccessWithoutDuplicating() {
        assertTrue(repo.add(A, UDP_A));
        assertTrue(repo.add(A, UDP_A));

        assertEquals(List.of(UDP_A), repo.bindings(A));
    }

    @Test
    void shouldRemoveOneBindingAndTheAddressWithItsLastBinding() {
        repo.add(A, UDP_A);
        repo.add(A, TCP_A);

        assertTrue(repo.remove(A, UDP_A));
        assertFalse(repo.remove(A, UDP_A));
        assertEquals(List.of(TCP_A), repo.bindings(A));
        assertTrue(repo.remove(A, TCP_A));
        assertFalse(repo.contains(A));
        assertEquals(0, repo.size());
    }

    @Test
    void shouldRemoveEveryBindingOfAnAddress() {
        repo.add(A, UDP_A);
        repo.add(A, TCP_A);

        assertTrue(repo.remove(A));
        assertFalse(repo.remove(A));
        assertEquals(List.of(), repo.bindings(A));
    }

    @Test
    void shouldReplaceBindingsOnUpdateInTheGivenOrder() {
        repo.add(A, UDP_A);

        assertTrue(repo.update(A, List.of(TCP_A, MEM_A, TCP_A)));

        assertEquals(List.of(TCP_A, MEM_A), repo.bindings(A));
        assertTrue(repo.update(A, List.of()));
        assertFalse(repo.contains(A));
    }

    @Test
    void shouldRefuseAndCountBindingsBeyondThePerAddressLimit() {
        repo.add(A, UDP_A);
        repo.add(A, TCP_A);

        assertFalse(repo.add(A, MEM_A));
        assertFalse(repo.update(A, List.of(UDP_A, TCP_A, MEM_A)));

        assertEquals(List.of(UDP_A, TCP_A), repo.bindings(A), "a refused change leaves the old bindings");
        assertEquals(2, repo.refusedBindings());
    }

    @Test
    void shouldRefuseAndCountAddressesBeyondTheLimit() {
        for (int i = 0; i < 3; i++) {
            assertTrue(repo.add(new TreeAddress(100 + i), MEM_A));
        }

        assertFalse(repo.add(new TreeAddress(200), MEM_A));
        assertFalse(repo.update(new TreeAddress(201), List.of(MEM_A)));
        assertTrue(repo.add(new TreeAddress(100), UDP_A), "an existing address may still gain bindings");

        assertEquals(3, repo.size());
        assertEquals(2, repo.refusedAddresses());
    }

    @Test
    void shouldValidateLimitsNamingTheField() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new AddressRepository.Limits(0, 1));
        assertTrue(e.getMessage().contains("maxAddresses=0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new AddressRepository.Limits(1, 1000));
        assertTrue(e.getMessage().contains("maxBindingsPerAddress=1000"), e.getMessage());
        assertEquals(AddressRepository.Limits.DEFAULT_MAX_ADDRESSES, new AddressRepository().limits().maxAddresses());
    }

    @Test
    void shouldStayConsistentUnderConcurrentChangesAndReads() throws InterruptedException {
        AddressRepository shared = new AddressRepository(new AddressRepository.Limits(1000, 4));
        AtomicInteger badReads = new AtomicInteger();
        Thread[] writers = new Thread[4];
        for (int t = 0; t < writers.length; t++) {
            int id = t;
            writers[t] = new Thread(() -> {
                for (int i = 0; i < 20_000; i++) {
                    LogicalAddress l = new TreeAddress(i % 500);
                    SubstrateAddress s = SubstrateAddress.mem("n" + id);
                    if (i % 3 == 2) {
                        shared.remove(l, s);
                    } else {
                        shared.add(l, s);
                    }
                }
            });
        }
        Thread reader = new Thread(() -> {
            for (int i = 0; i < 100_000; i++) {
                List<SubstrateAddress> b = shared.bindings(new TreeAddress(i % 500));
                if (b.size() > 4 || b.stream().distinct().count() != b.size()) {
                    badReads.incrementAndGet();
                }
            }
        });
        for (Thread w : writers) {
            w.start();
        }
        reader.start();
        for (Thread w : writers) {
            w.join();
        }
        reader.join();

        assertEquals(0, badReads.get());
        assertTrue(shared.size() <= 500);
        assertEquals(0, shared.refusedAddresses() + shared.refusedBindings());
    }
}
