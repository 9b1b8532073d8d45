package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class EntityTagsTest {

    private static final Optional<String> CURRENT = Optional.of("\"abc\"");

    private static EntityTags.Condition parse(String header) {
        return EntityTags.parse(header).orElseThrow();
    }

    @Test
    void shouldCompareStronglyForIfMatchAndWeaklyForIfNoneMatch() {
        assertTrue(parse("\"abc\"").matchesStrong(CURRENT));
        assertFalse(parse("W/\"abc\"").matchesStrong(CURRENT));
        assertTrue(parse("W/\"abc\"").matchesWeak(CURRENT));
        assertTrue(parse("\"x\", \"abc\"").matchesStrong(CURRENT));
        assertFalse(parse("\"abcd\"").matchesStrong(CURRENT));
    }

    @Test
    void shouldMatchStarOnlyWhenTheResourceExists() {
        assertTrue(parse("*").matchesStrong(CURRENT));
        assertTrue(parse(" * ").matchesWeak(CURRENT));
        assertFalse(parse("*").matchesStrong(Optional.empty()));
        assertFalse(parse("*").matchesWeak(Optional.empty()));
    }

    @Test
    void shouldIgnoreElementsThatAreNotTags() {
        assertFalse(parse("abc").matchesStrong(CURRENT));
        assertTrue(parse("junk, \"abc\"").matchesStrong(CURRENT));
        assertFalse(parse("\"abc").matchesStrong(CURRENT));
        assertFalse(parse("").matchesStrong(CURRENT));
        assertTrue(EntityTags.parse(null).isEmpty());
    }
}
