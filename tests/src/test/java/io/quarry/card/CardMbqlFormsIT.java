package io.quarry.card;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Json;
import io.quarry.testing.Api;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A card's query in both of Metabase's forms: legacy MBQL by default (what every client reads), MBQL 5 on
 * {@code ?legacy-mbql=false} (Metabase v0.63's own default), and either accepted on input.
 */
class CardMbqlFormsIT {
    private static CardTests t;
    private static Api admin;

    @BeforeAll
    static void start() throws Exception {
        t = new CardTests();
        admin = t.admin;
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    private Map<String, Object> byCategory(long orders) {
        List<Object> total = Arrays.asList("field", t.fieldId("ORDERS", "TOTAL"), null);
        List<Object> category = Arrays.asList("field", t.fieldId("ORDERS", "CATEGORY"), null);
        return Map.of("database", t.dbId, "type", "query", "query", Map.of("source-table", orders,
                "aggregation", List.of(List.of("sum", total)), "breakout", List.of(category),
                "filter", List.of("and", List.of(">", total, 1), List.of("not-null", category)),
                "order-by", List.of(List.of("desc", List.of("aggregation", 0)))));
    }

    private JsonNode rows(long card) {
        return admin.post(202, "card/" + card + "/query", Map.of()).json().get("data").get("rows");
    }

    @Test
    void legacyByDefaultMbql5OnRequest() {
        long orders = t.tableId("ORDERS");
        long card = t.create(admin, t.with(t.tableCard("By category", orders), "dataset_query", byCategory(orders)));
        JsonNode plain = admin.get(200, "card/" + card).json().get("dataset_query");
        assertEquals("query", plain.get("type").asText());
        assertEquals(orders, plain.get("query").get("source-table").asLong());
        assertEquals(plain, admin.get(200, "card/" + card, "legacy-mbql", true).json().get("dataset_query"));

        JsonNode five = admin.get(200, "card/" + card, "legacy-mbql", false).json().get("dataset_query");
        assertEquals("mbql/query", five.get("lib/type").asText());
        assertEquals(t.dbId, five.get("database").asLong());
        assertFalse(five.has("type"), five.toString());
        JsonNode stage = five.get("stages").get(0);
        assertEquals("mbql.stage/mbql", stage.get("lib/type").asText());
        assertEquals(orders, stage.get("source-table").asLong());
        assertEquals(2, stage.get("filters").size(), "the top-level and, one filter each");
        JsonNode sum = stage.get("aggregation").get(0);
        assertEquals("sum", sum.get(0).asText());
        assertTrue(sum.get(1).has("lib/uuid"));
        assertEquals(t.fieldId("ORDERS", "TOTAL"), sum.get(2).get(2).asLong(), "[\"field\", {opts}, id]");
        JsonNode orderBy = stage.get("order-by").get(0);
        assertEquals(sum.get(1).get("lib/uuid").asText(), orderBy.get(2).get(2).asText(), "aggregations referred to by uuid");

        // the MBQL 5 form sent back is accepted and runs the same; the card still answers legacy
        JsonNode before = rows(card);
        assertEquals("Widget", before.get(0).get(0).asText());
        assertEquals(17.75, before.get(1).get(1).asDouble());
        admin.put(200, "card/" + card, Map.of("dataset_query", five));
        assertEquals(before, rows(card));
        JsonNode again = admin.get(200, "card/" + card).json();
        assertEquals("query", again.get("dataset_query").get("type").asText());
        assertEquals(orders, again.get("table_id").asLong());
        assertEquals(plain.get("query").get("aggregation"), again.get("dataset_query").get("query").get("aggregation"));
        // and ad-hoc
        JsonNode adHoc = admin.post(202, "dataset", Json.MAPPER.convertValue(five, Map.class)).json().get("data").get("rows");
        assertEquals(before, adHoc);
    }

    @Test
    void mbql5OnCreateAndNativeQueries() {
        long orders = t.tableId("ORDERS");
        Map<String, Object> five = Map.of("lib/type", "mbql/query", "database", t.dbId, "stages", List.of(Map.of(
                "lib/type", "mbql.stage/mbql", "source-table", orders,
                "aggregation", List.of(List.of("count", Map.of("lib/uuid", "c0"))))));
        JsonNode created = admin.post(200, "card", t.with(t.tableCard("Count", orders), "dataset_query", five)).json();
        assertEquals("query", created.get("dataset_query").get("type").asText(), "answered legacy");
        assertEquals("[[\"count\"]]", created.get("dataset_query").get("query").get("aggregation").toString());
        assertEquals(orders, created.get("table_id").asLong());
        assertEquals("query", created.get("query_type").asText());
        assertEquals(3, rows(created.get("id").asLong()).get(0).get(0).asLong());

        long sql = t.create(admin, t.nativeCard("SQL", "SELECT COUNT(*) FROM ORDERS WHERE CATEGORY = {{cat}}"));
        JsonNode nativeFive = admin.get(200, "card/" + sql, "legacy-mbql", "false").json().get("dataset_query");
        JsonNode nativeStage = nativeFive.get("stages").get(0);
        assertEquals("mbql.stage/native", nativeStage.get("lib/type").asText());
        assertEquals("SELECT COUNT(*) FROM ORDERS WHERE CATEGORY = {{cat}}", nativeStage.get("native").asText());
        assertTrue(nativeStage.get("template-tags").isObject());
        assertEquals("native", admin.get(200, "card/" + sql).json().get("dataset_query").get("type").asText());
    }

    @Test
    void aBadLegacyMbqlFlagIsA400NamingIt() {
        long card = t.create(admin, t.nativeCard("Flag", "SELECT 1"));
        JsonNode errors = admin.get(400, "card/" + card, "legacy-mbql", "maybe").json().get("errors");
        assertTrue(errors.has("legacy-mbql"), errors.toString());
    }
}
