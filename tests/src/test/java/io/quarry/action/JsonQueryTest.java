package io.quarry.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The jq subset of HTTP action handles. */
class JsonQueryTest {
    private static final Map<String, Object> ANSWER = Map.of("status", 201, "headers", Map.of("x-id", "abc"),
            "body", Map.of("id", 42, "ok", false, "items", List.of(Map.of("title", "first"), Map.of("title", "second"))));

    private static Object eval(String query) {
        return JsonQuery.parse(query).evaluate(ANSWER);
    }

    @Test
    void pathsPickValues() {
        assertEquals(ANSWER, eval("."));
        assertEquals(42, eval(".body.id"));
        assertEquals("first", eval(".body.items[0].title"));
        assertEquals("second", eval(".body.items[-1].title"));
        assertEquals("second", eval(".body.items.[1].title"));
        assertEquals("abc", eval(".headers[\"x-id\"]"));
        assertEquals("abc", eval(".headers.\"x-id\""));
        assertNull(eval(".body.missing.deeper"));
        assertNull(eval(".body.items[5]"));
        assertNull(eval(".body.items[-9]"));
        assertNull(eval(".body.id[0]"));
    }

    @Test
    void comparisonsFollowJq() {
        assertEquals(false, eval(".status >= 400"));
        assertEquals(true, eval(".status >= 200"));
        assertEquals(true, eval(".status == 201.0"));
        assertEquals(true, eval(".body.ok == false"));
        assertEquals(true, eval(".body.missing == null"));
        assertEquals(true, eval(".headers[\"x-id\"] != \"xyz\""));
        assertEquals(false, eval(".body.missing > 1"), "null sorts before numbers");
        assertTrue(JsonQuery.truthy(0));
        assertTrue(JsonQuery.truthy(""));
        assertFalse(JsonQuery.truthy(false));
        assertFalse(JsonQuery.truthy(null));
    }

    @Test
    void anythingElseIsRefused() {
        for (String bad : new String[] {"body.id", "", ".body |", ".body.id > ", ".a[x]", ".a[\"b]", ".status >= 4oo", ". . .", "map(.id)"}) {
            assertThrows(IllegalArgumentException.class, () -> JsonQuery.parse(bad), bad);
        }
        assertFalse(JsonQuery.isValid(null));
    }
}
