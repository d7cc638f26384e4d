package io.quarry.card;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Possible values of card parameters: field filters, plain field targets, static lists, search, the 1,000 cap. */
class CardParamsIT {
    private static CardTests t;
    private static Api admin;
    private static Api user;
    private static long card;

    @BeforeAll
    static void start() throws Exception {
        t = new CardTests("CREATE TABLE MANY AS SELECT X AS ID, CAST('v' || X AS VARCHAR(20)) AS LABEL FROM SYSTEM_RANGE(1, 1500)");
        admin = t.admin;
        user = t.user;
        Map<String, Object> query = Map.of("database", t.dbId, "type", "native", "native", Map.of(
                "query", "SELECT * FROM ORDERS WHERE {{cat}}",
                "template-tags", Map.of("cat", Map.of("name", "cat", "display-name", "Category", "type", "dimension",
                        "dimension", java.util.Arrays.asList("field", t.fieldId("ORDERS", "CATEGORY"), null), "widget-type", "string/="))));
        List<Object> parameters = List.of(
                Map.of("id", "p-cat", "type", "string/=", "slug", "cat", "target", List.of("dimension", List.of("template-tag", "cat"))),
                Map.of("id", "p-email", "type", "string/=", "slug", "email",
                        "target", List.of("dimension", java.util.Arrays.asList("field", t.fieldId("CUSTOMERS", "EMAIL"), null))),
                Map.of("id", "p-many", "type", "string/=", "slug", "many",
                        "target", List.of("dimension", java.util.Arrays.asList("field", t.fieldId("MANY", "LABEL"), null))),
                Map.of("id", "p-static", "type", "string/=", "slug", "size", "values_source_type", "static-list",
                        "values_source_config", Map.of("values", List.of("Small", "Medium", "Large"))));
        card = t.create(admin, t.with(t.nativeCard("Filtered", "x"), "dataset_query", query, "parameters", parameters));
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    private static List<String> firsts(JsonNode result) {
        List<String> out = new ArrayList<>();
        result.get("values").forEach(v -> out.add(v.get(0).asText()));
        return out;
    }

    @Test
    void fieldFilterValuesAndSearch() {
        JsonNode all = user.get(200, "card/" + card + "/params/p-cat/values").json();
        assertEquals(List.of("Gizmo", "Widget"), firsts(all));
        assertFalse(all.get("has_more_values").asBoolean());
        assertEquals(List.of("Gizmo"), firsts(user.get(200, "card/" + card + "/params/p-cat/search/GIZ").json()));
        assertEquals(List.of(), firsts(user.get(200, "card/" + card + "/params/p-cat/search/nothing").json()));
        assertEquals(List.of("ada@example.com"), firsts(user.get(200, "card/" + card + "/params/p-email/search/ADA").json()));
        assertEquals(2, user.get(200, "card/" + card + "/params/p-email/values").json().get("values").size());
    }

    @Test
    void staticListsAndTheCap() {
        assertEquals(List.of("Small", "Medium", "Large"), firsts(admin.get(200, "card/" + card + "/params/p-static/values").json()));
        assertEquals(List.of("Small", "Medium"), firsts(admin.get(200, "card/" + card + "/params/p-static/search/m").json()));
        JsonNode many = admin.get(200, "card/" + card + "/params/p-many/values").json();
        assertEquals(1000, many.get("values").size());
        assertTrue(many.get("has_more_values").asBoolean());
        JsonNode ones = admin.get(200, "card/" + card + "/params/p-many/search/v1").json();
        assertEquals(612, ones.get("values").size());
        assertFalse(ones.get("has_more_values").asBoolean());
    }

    @Test
    void rightsAndErrors() {
        assertEquals("Card does not have a parameter with the ID nope.", admin.get(400, "card/" + card + "/params/nope/values").body());
        admin.get(404, "card/999999/params/p-cat/values");
        admin.get(400, "card/x/params/p-cat/values");
        t.anonymous.get(401, "card/" + card + "/params/p-cat/values");
        t.anonymous.get(401, "card/" + card + "/params/p-cat/search/a");
        long secret = t.collection("Param secrets");
        long hidden = t.create(admin, t.with(t.nativeCard("Hidden params", "SELECT 1"), "collection_id", secret,
                "parameters", List.of(Map.of("id", "s", "type", "category", "values_source_type", "static-list",
                        "values_source_config", Map.of("values", List.of("secret value"))))));
        assertEquals("You don't have permissions to do that.", user.get(403, "card/" + hidden + "/params/s/values").body());
        user.get(403, "card/" + hidden + "/params/s/search/secret");
        assertEquals(List.of("secret value"), firsts(admin.get(200, "card/" + hidden + "/params/s/values").json()));
    }
}
