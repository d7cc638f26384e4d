package io.quarry.web.body;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Form fields read as a body: every value is a string, and Metabase decodes it by the endpoint's schema
 * ({@code "true"} for a boolean, {@code "5"} for an integer). {@link io.quarry.web.param.Body} knows this type and
 * decodes such strings; in a JSON body the same strings are the wrong type. A repeated field becomes an array.
 */
public final class FormFields extends ObjectNode {
    public FormFields() {
        super(JsonNodeFactory.instance);
    }

    void add(String name, String value) {
        JsonNode existing = get(name);
        if (existing == null) {
            put(name, value);
        } else if (existing instanceof ArrayNode array) {
            array.add(value);
        } else {
            putArray(name).add(existing).add(value);
        }
    }
}
