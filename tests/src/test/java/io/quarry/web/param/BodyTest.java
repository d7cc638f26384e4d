package io.quarry.web.param;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Json;
import io.quarry.web.body.FormFields;
import org.junit.jupiter.api.Test;

class BodyTest {
    private static Body json(String text) throws Exception {
        return Body.of(Json.read(text));
    }

    @Test
    void booleansAreJsonBooleansOrExactlyTrueOrFalse() throws Exception {
        assertEquals(Boolean.TRUE, json("{\"a\": true}").optBool("a"));
        assertEquals(Boolean.FALSE, json("{\"a\": \"FALSE\"}").optBool("a"));
        for (String wrong : new String[]{"\"TRUE \"", "\" true\"", "1", "0", "\"yes\"", "{}", "[]"}) {
            Body body = json("{\"a\": " + wrong + "}");
            assertNull(body.optBool("a"), wrong);
            assertFalse(body.valid(), wrong);
        }
    }

    @Test
    void positiveIntegersFitTheirColumn() throws Exception {
        assertEquals(5L, json("{\"cache_ttl\": 5}").optPosInt("cache_ttl"));
        assertEquals(9_000_000_000L, json("{\"collection_id\": 9000000000}").optPosInt("collection_id"));
        assertEquals(32767L, json("{\"collection_position\": 32767}").optPosInt("collection_position"));
        String[][] wrong = {{"cache_ttl", "2147483648"}, {"collection_position", "32768"}, {"collection_id", "99999999999999999999"},
                {"cache_ttl", "\"5\""}, {"cache_ttl", "5.5"}, {"cache_ttl", "5.0"}, {"cache_ttl", "0"}, {"cache_ttl", "-1"},
                {"cache_ttl", "true"}};
        for (String[] kv : wrong) {
            Body body = json("{\"" + kv[0] + "\": " + kv[1] + "}");
            assertNull(body.optPosInt(kv[0]), kv[1]);
            assertFalse(body.valid(), kv[0] + "=" + kv[1]);
        }
    }

    @Test
    void formFieldsAreStringsDecodedByType() {
        FormFields form = new FormFields();
        form.put("archived", "true");
        form.put("collection_id", "12");
        form.put("name", "x");
        form.put("cache_ttl", "5.5");
        Body body = Body.of(form);
        assertEquals(Boolean.TRUE, body.optBool("archived"));
        assertEquals(12L, body.optPosInt("collection_id"));
        assertEquals("x", body.optNonBlank("name"));
        assertNull(body.optPosInt("cache_ttl"));
        assertFalse(body.valid());
    }

    @Test
    void aMissingBodyIsAnEmptyObject() {
        Body body = Body.of((JsonNode) null);
        assertTrue(body.raw().isObject());
        assertTrue(body.valid());
    }
}
