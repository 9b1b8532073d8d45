package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which {@code Authorization} headers let a write through. */
class BearerAuthTest {

    private static final String TOKEN = "secret-token-0123456789";

    @Test
    void shouldAcceptOnlyTheConfiguredBearerToken() {
        BearerAuth auth = new BearerAuth(Optional.of(TOKEN));
        assertTrue(auth.authorized("Bearer " + TOKEN));
        assertTrue(auth.authorized("bearer  " + TOKEN + " "), "the scheme is case-insensitive, the token stripped");
        assertFalse(auth.authorized("Bearer " + TOKEN + "x"));
        assertFalse(auth.authorized("Basic " + TOKEN), "another scheme");
        assertFalse(auth.authorized(null), "no header");
        assertFalse(auth.authorized("Bearer "), "no token");
        assertFalse(auth.authorized("Bearer    "), "a blank token");
        assertFalse(auth.authorized(TOKEN), "no scheme");
    }

    @Test
    void shouldAuthorizeEveryoneWithoutAToken() {
        BearerAuth open = new BearerAuth(Optional.empty());
        assertTrue(open.authorized(null));
        assertTrue(open.authorized("Bearer anything"));
        assertEquals("anonymous", open.identity());
    }
}
