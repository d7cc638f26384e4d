package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Pivot tables over the Sample Database: every subtotal and the grand total, checked against plain SQL. */
class PivotIT {
    private static TestServer server;
    private static Api admin;
    private static long sampleId;
    private static ServerIds ids;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        Api anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        Path sample = SampleCopy.sample();
        sampleId = admin.post(200, "database", Map.of("engine", "h2", "name", "Sample Database", "details",
                Map.of("db", "file:" + sample + ";ACCESS_MODE_DATA=r", "user", SampleDatabase.USER, "password", SampleDatabase.PASSWORD)))
                .json().get("id").asLong();
        server.quarry().sync.syncInBackground(sampleId).get();
        ids = ServerIds.of(server, sampleId);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static final String QUERY = "{\"source-table\": $ORDERS, \"aggregation\": [[\"count\"]],"
            + " \"breakout\": [[\"field\", %PRODUCTS.CATEGORY, {\"source-field\": %ORDERS.PRODUCT_ID}],"
            + " [\"field\", %PEOPLE.SOURCE, {\"source-field\": %ORDERS.USER_ID}]]}";

    @Test
    void subtotalsAndGrandTotalMatchPlainSql() throws Exception {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("database", sampleId);
        request.put("type", "query");
        request.put("query", KeyQueries.parse(KeyQueries.resolve(QUERY, ids)));
        JsonNode result = admin.post(202, "dataset/pivot", request).json();
        JsonNode cols = result.get("data").get("cols");
        assertEquals(List.of("CATEGORY", "SOURCE", "pivot-grouping", "count"),
                List.of(cols.get(0).get("name").asText(), cols.get(1).get("name").asText(), cols.get(2).get("name").asText(),
                        cols.get(3).get("name").asText()));
        Map<Integer, Long> totalByGrouping = new HashMap<>();
        Map<String, Long> byCategory = new HashMap<>();
        for (JsonNode row : result.get("data").get("rows")) {
            int grouping = row.get(2).asInt();
            totalByGrouping.merge(grouping, row.get(3).asLong(), Long::sum);
            if (grouping == 2) { // SOURCE left out: subtotal per category
                assertTrue(row.get(1).isNull());
                byCategory.put(row.get(0).asText(), row.get(3).asLong());
            }
        }
        long all;
        long gizmoCount;
        try (java.sql.Connection c = SampleDatabase.connect(SampleCopy.sample())) {
            all = Long.parseLong(String.valueOf(KeyQueries.rows(c, "SELECT COUNT(*) FROM ORDERS", List.of()).get(0).get(0)));
            gizmoCount = Long.parseLong(String.valueOf(KeyQueries.rows(c,
                    "SELECT COUNT(*) FROM ORDERS O JOIN PRODUCTS P ON P.ID = O.PRODUCT_ID WHERE P.CATEGORY = ?", List.of("Gizmo")).get(0).get(0)));
        }
        assertEquals(java.util.Set.of(0, 1, 2, 3), totalByGrouping.keySet(), "full breakout, two subtotals, grand total");
        for (long total : totalByGrouping.values()) {
            assertEquals(all, total, "every grouping adds up to all orders");
        }
        assertEquals(gizmoCount, byCategory.get("Gizmo"));
    }

    @Test
    void aCachedCardsPivotAnswersFromTheResultCacheUntilAskedNotTo() {
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("name", "Orders pivot");
        card.put("display", "pivot");
        card.put("visualization_settings", Map.of());
        card.put("cache_ttl", 1);
        card.put("dataset_query", Map.of("database", sampleId, "type", "query", "query", KeyQueries.parse(KeyQueries.resolve(QUERY, ids))));
        long id = admin.post(200, "card", card).json().get("id").asLong();
        JsonNode first = admin.post(202, "card/pivot/" + id + "/query", Map.of()).json();
        assertTrue(!first.has("cached"), "the first run computes");
        JsonNode second = admin.post(202, "card/pivot/" + id + "/query", Map.of()).json();
        assertTrue(second.has("cached"), "the second run comes from the cache");
        assertEquals(first.get("data").get("rows"), second.get("data").get("rows"));
        JsonNode fresh = admin.post(202, "card/pivot/" + id + "/query", Map.of("ignore_cache", true)).json();
        assertTrue(!fresh.has("cached"), "ignore_cache runs fresh");
        assertEquals(first.get("data").get("rows"), fresh.get("data").get("rows"));
    }

    @Test
    void pivotNeedsAStructuredQuery() {
        assertEquals("invalid-query", admin.post(400, "dataset/pivot", Map.of("database", sampleId, "type", "native",
                "native", Map.of("query", "SELECT 1"))).json().get("error_type").asText());
    }
}
