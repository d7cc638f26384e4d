package io.quarry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Model persistence over HTTP against one real target engine (the subclasses: H2, PostgreSQL): the switches and their
 * statuses on both path sets, the state machine, refreshes building real tables in the target, queries over persisted
 * models answering exactly as the models' own queries do (aggregation, join, native with a parameter, {@code {{#N}}}),
 * an edited model not served from its stale table, a failed refresh keeping the old table, rights and bad input.
 *
 * <p>The target has {@code CUSTOMERS (ID, NAME, EMAIL, CREATED_AT)} and {@code ORDERS (ID, CUSTOMER_ID, TOTAL, CATEGORY)}
 * with the rows of {@code TargetDatabases.h2Shop}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class PersistenceContract {
    protected TestServer server;
    protected Api anonymous;
    protected Api admin;
    protected String adminSession;
    protected Api user;
    protected long databaseId;

    /** The engine key and details of the target, already holding the shop tables. */
    protected abstract Map<String, Object> target();

    /** A connection to the target as its owner, to look at the cache tables and change the shop behind Quarry's back. */
    protected abstract Connection connect() throws SQLException;

    /** How the target spells an unquoted identifier (H2 upper case, PostgreSQL lower case). */
    protected abstract String folded(String identifier);

    /** A quoted identifier in the target's SQL. */
    protected String quote(String identifier) {
        return "\"" + identifier + "\"";
    }

    protected void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        adminSession = Fixtures.setUp(anonymous);
        admin = anonymous.as(adminSession);
        user = Fixtures.ordinaryCaller(anonymous, admin);
        databaseId = admin.post(200, "database", target()).json().get("id").asLong();
        server.quarry().sync.syncInBackground(databaseId).get();
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    // --- helpers ------------------------------------------------------------------------------------------------

    private JsonNode tableMetadata(String table) {
        for (JsonNode t : admin.get(200, "database/" + databaseId + "/metadata").json().get("tables")) {
            if (t.get("name").asText().equalsIgnoreCase(table)) {
                return t;
            }
        }
        throw new AssertionError("no table " + table);
    }

    protected long tableId(String table) {
        return tableMetadata(table).get("id").asLong();
    }

    protected long fieldId(String table, String field) {
        for (JsonNode f : tableMetadata(table).get("fields")) {
            if (f.get("name").asText().equalsIgnoreCase(field)) {
                return f.get("id").asLong();
            }
        }
        throw new AssertionError("no field " + table + "." + field);
    }

    protected List<Object> field(String table, String name) {
        return java.util.Arrays.asList("field", fieldId(table, name), null);
    }

    protected long model(String name, Map<String, Object> datasetQuery) {
        return admin.post(200, "card", Map.of("name", name, "display", "table", "type", "model", "visualization_settings", Map.of(),
                "dataset_query", datasetQuery)).json().get("id").asLong();
    }

    protected Map<String, Object> mbql(Map<String, Object> inner) {
        return Map.of("database", databaseId, "type", "query", "query", inner);
    }

    /** The model's rows through a structured query over it, and its SQL. */
    protected JsonNode over(long cardId, Map<String, Object> more) {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("source-table", "card__" + cardId);
        inner.putAll(more);
        JsonNode result = admin.post(202, "dataset", mbql(inner)).json();
        assertEquals("completed", result.get("status").asText(), result.toString());
        return result;
    }

    protected JsonNode nativeQuery(String sql, Map<String, Object> tags) {
        JsonNode result = admin.post(202, "dataset", Map.of("database", databaseId, "type", "native",
                "native", Map.of("query", sql, "template-tags", tags))).json();
        assertEquals("completed", result.get("status").asText(), result.toString());
        return result;
    }

    protected static Map<String, Object> cardTag(long cardId) {
        return Map.of("#" + cardId, Map.of("id", "t" + cardId, "name", "#" + cardId, "display-name", "#" + cardId,
                "type", "card", "card-id", cardId));
    }

    protected static boolean fromCache(JsonNode result) {
        return result.get("data").get("native_form").get("query").asText().contains("metabase_cache_");
    }

    protected JsonNode record(long cardId) {
        return admin.get(200, "persist/card/" + cardId).json();
    }

    /**
     * Syncs the target database, turns persistence on (for the instance and the database) and persists a structured
     * model over {@code table}; returns the model's card id once its table is built.
     */
    protected long persistedModel(String name, String table) throws Exception {
        server.quarry().sync.syncInBackground(databaseId).get();
        admin.post(204, "persist/enable", null);
        admin.post(204, "database/" + databaseId + "/persist", null);
        long model = model(name, mbql(Map.of("source-table", tableId(table))));
        admin.post(204, "card/" + model + "/persist", null);
        await(model, "persisted");
        return model;
    }

    /** Waits for the model's record to reach {@code state} (refreshes run in the background). */
    protected JsonNode await(long cardId, String state) throws InterruptedException {
        JsonNode last = null;
        for (int i = 0; i < 300; i++) {
            Api.Res res = admin.call("GET", "persist/card/" + cardId, null);
            if (res.status() == 200) {
                last = res.json();
                if (state.equals(last.get("state").asText()) && last.get("refresh_end") != null && !last.get("refresh_end").isNull()) {
                    return last;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("model " + cardId + " never reached " + state + ": " + last);
    }

    protected String schema() {
        String uuid = admin.get(200, "setting/site-uuid").body().replace("\"", "");
        StringBuilder x = new StringBuilder();
        for (String group : uuid.split("-")) {
            x.append(group.charAt(0));
        }
        return "metabase_cache_" + x + "_" + databaseId;
    }

    protected long rowsIn(String table) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + quote(schema()) + "." + quote(table))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    protected boolean tableExists(String table) throws SQLException {
        try (Connection c = connect(); ResultSet bySchema = c.getMetaData().getTables(null, schema(), table, null);
             ResultSet byCatalog = c.getMetaData().getTables(schema(), null, table, null)) {
            // MySQL's schemas are catalogs
            return bySchema.next() || byCatalog.next();
        }
    }

    protected void execute(String sql) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** POSTs as the administrator with {@code Content-Type: application/json; charset=utf-8}; the status. */
    protected int postJsonWithCharset(String path, String json) {
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(server.base.resolve("api/" + path))
                .header("X-Metabase-Session", adminSession).header("Content-Type", "application/json; charset=utf-8")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(json)).build();
        try {
            return java.net.http.HttpClient.newHttpClient().send(request, java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (java.io.IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    // --- the tests ----------------------------------------------------------------------------------------------

    @Test
    @Order(1)
    void switchesAnswerAsMetabaseDoes() {
        // persistence off: a database cannot be persisted
        assertEquals("Persisting models is not enabled.", admin.post(400, "database/" + databaseId + "/persist", null).body()
                .replace("\"", ""));
        admin.post(400, "persist/database/" + databaseId + "/persist", null);
        // only administrators switch it
        user.post(403, "persist/enable", null);
        user.post(403, "database/" + databaseId + "/persist", null);
        admin.post(204, "persist/enable", null);
        assertTrue(admin.get(200, "setting/persisted-models-enabled").json().asBoolean());
        // the switches with an empty form body (curl -d '')
        admin.postForm(204, "persist/disable", Map.of());
        assertFalse(admin.get(200, "setting/persisted-models-enabled").json().asBoolean());
        admin.postForm(204, "persist/enable", Map.of());
        assertTrue(admin.get(200, "setting/persisted-models-enabled").json().asBoolean());
        // 204 every time, on both paths, and with the bodies plain clients send
        admin.post(204, "database/" + databaseId + "/persist", null);
        admin.post(204, "database/" + databaseId + "/persist", null);
        admin.postForm(204, "persist/database/" + databaseId + "/persist", Map.of());
        JsonNode database = admin.get(200, "database/" + databaseId).json();
        assertTrue(database.get("settings").get("persist-models-enabled").asBoolean(), database.toString());
        admin.post(204, "database/" + databaseId + "/unpersist", null);
        admin.post(204, "persist/database/" + databaseId + "/unpersist", null);
        assertFalse(admin.get(200, "database/" + databaseId).json().get("settings").has("persist-models-enabled"));
        admin.post(204, "persist/database/" + databaseId + "/persist", null);
        // unknown and malformed ids
        admin.post(404, "database/999999/persist", null);
        admin.post(404, "persist/card/999999/persist", null);
        admin.postForm(404, "persist/card/999999/persist", Map.of());
        admin.postForm(404, "card/999999/persist", Map.of());
        admin.postForm(404, "database/999999/persist", Map.of());
        admin.get(404, "persist/999999");
        admin.get(404, "persist/card/999999");
        admin.post(400, "card/abc/persist", null);
        admin.get(400, "persist/0");
    }

    @Test
    @Order(2)
    void theRefreshScheduleIsValidated() {
        user.post(403, "persist/set-refresh-schedule", Map.of("cron", "0 0 0/12 * * ? *"));
        JsonNode missing = admin.post(400, "persist/set-refresh-schedule", Map.of()).json();
        assertTrue(missing.get("errors").has("cron"), missing.toString());
        JsonNode sixParts = admin.post(400, "persist/set-refresh-schedule", Map.of("cron", "0 0 0/12 * * ?")).json();
        assertTrue(sixParts.get("errors").get("cron").asText().contains("<seconds> <minutes> <hours>"), sixParts.toString());
        JsonNode year = admin.post(400, "persist/set-refresh-schedule", Map.of("cron", "0 0 0/12 * * ? 2030")).json();
        assertEquals(PersistenceService.CRON_YEAR, year.get("errors").get("cron").asText());
        JsonNode nonsense = admin.post(400, "persist/set-refresh-schedule", Map.of("cron", "a b c d e f *")).json();
        assertEquals(PersistenceService.CRON_YEAR, nonsense.get("errors").get("cron").asText());
        JsonNode emptyForm = admin.postForm(400, "persist/set-refresh-schedule", Map.of()).json();
        assertTrue(emptyForm.get("errors").has("cron"), emptyForm.toString());
        Api.Res malformed = admin.call("POST", "persist/set-refresh-schedule", "{\"cron\": ");
        assertEquals(400, malformed.status());
        assertEquals("Malformed JSON in request body.", malformed.body());
        assertEquals("0 0 0/6 * * ? *", server.quarry().persistence.refreshCron(), "nothing stored by a refused request");
        // as form fields, and as JSON with a charset
        admin.postForm(204, "persist/set-refresh-schedule", Map.of("cron", "0 0 0/8 * * ? *"));
        assertEquals("0 0 0/8 * * ? *", server.quarry().persistence.refreshCron());
        assertEquals(204, postJsonWithCharset("persist/set-refresh-schedule", "{\"cron\": \"0 0 0/4 * * ? *\"}"));
        assertEquals("0 0 0/4 * * ? *", server.quarry().persistence.refreshCron());
        admin.post(204, "persist/set-refresh-schedule", Map.of("cron", "0 0 0/12 * * ? *"));
        assertEquals("0 0 0/12 * * ? *", server.quarry().persistence.refreshCron());
        // the setting itself, as newer clients set it, is validated the same way
        admin.put(400, "setting/persisted-model-refresh-cron-schedule", Map.of("value", "0 0 * * *"));
        admin.put(204, "setting/persisted-model-refresh-cron-schedule", Map.of("value", "0 0 0/6 * * ? *"));
        assertEquals("0 0 0/6 * * ? *", server.quarry().persistence.refreshCron());
        // without a cron, the older hour-based settings make one
        admin.put(204, "setting/persisted-model-refresh-cron-schedule", java.util.Collections.singletonMap("value", null));
        admin.put(204, "setting/persisted-model-refresh-interval-hours", Map.of("value", 12));
        assertEquals("0 0 0/12 * * ? *", server.quarry().persistence.refreshCron());
        admin.put(204, "setting/persisted-model-refresh-anchor-time", Map.of("value", "03:30"));
        assertEquals("0 30 3/12 * * ? *", server.quarry().persistence.refreshCron());
        admin.put(400, "setting/persisted-model-refresh-interval-hours", Map.of("value", 5));
        admin.put(400, "setting/persisted-model-refresh-anchor-time", Map.of("value", "25:00"));
        admin.put(204, "setting/persisted-model-refresh-interval-hours", java.util.Collections.singletonMap("value", null));
        admin.put(204, "setting/persisted-model-refresh-anchor-time", java.util.Collections.singletonMap("value", null));
        assertEquals("0 0 0/6 * * ? *", server.quarry().persistence.refreshCron());
    }

    @Test
    @Order(3)
    void persistedModelsAnswerExactlyAsTheirQueries() throws Exception {
        long orders = tableId("ORDERS");
        // an aggregation, a join, a native query with a parameter
        long byCategory = model("Orders by category", mbql(Map.of("source-table", orders,
                "aggregation", List.of(List.of("count"), List.of("sum", field("ORDERS", "TOTAL"))),
                "breakout", List.of(field("ORDERS", "CATEGORY")))));
        Map<String, Object> join = new LinkedHashMap<>();
        join.put("source-table", tableId("CUSTOMERS"));
        join.put("alias", "C");
        join.put("fields", "all");
        join.put("condition", List.of("=", field("ORDERS", "CUSTOMER_ID"), List.of("field", fieldId("CUSTOMERS", "ID"), Map.of("join-alias", "C"))));
        long withCustomers = model("Orders with customers", mbql(Map.of("source-table", orders, "joins", List.of(join),
                "order-by", List.of(List.of("asc", field("ORDERS", "ID"))))));
        Map<String, Object> min = Map.of("id", "min", "name", "min", "display-name", "Min", "type", "number", "default", 8);
        long bigOrders = model("Big orders", Map.of("database", databaseId, "type", "native", "native", Map.of(
                "query", "SELECT ID, TOTAL, CATEGORY FROM ORDERS WHERE TOTAL > {{min}} ORDER BY ID", "template-tags", Map.of("min", min))));
        List<Map<String, Object>> questions = List.of(
                Map.of(),
                Map.of("aggregation", List.of(List.of("count"))),
                Map.of("filter", List.of(">", List.of("field", folded("TOTAL"), Map.of("base-type", "type/Float")), 9)));
        String nativeCount = "SELECT COUNT(*) AS N FROM {{#%d}} m";

        // the answers while no model is persisted yet
        Map<String, JsonNode> expected = new LinkedHashMap<>();
        for (long model : List.of(byCategory, withCustomers, bigOrders)) {
            for (int q = 0; q < questions.size(); q++) {
                if (model == byCategory && q == 2) {
                    continue;
                }
                JsonNode result = over(model, questions.get(q));
                assertFalse(fromCache(result));
                expected.put(model + "/" + q, result.get("data"));
            }
            JsonNode result = nativeQuery(nativeCount.formatted(model), cardTag(model));
            assertFalse(fromCache(result));
            expected.put(model + "/native", result.get("data"));
            JsonNode itself = admin.post(202, "card/" + model + "/query", null).json();
            assertFalse(fromCache(itself));
            expected.put(model + "/itself", itself.get("data"));
        }
        assertFalse(admin.get(200, "card/" + bigOrders).json().get("persisted").asBoolean());

        // persisting the database persists its models
        admin.post(204, "persist/enable", null);
        admin.post(204, "database/" + databaseId + "/persist", null);
        for (long model : List.of(byCategory, withCustomers, bigOrders)) {
            JsonNode record = await(model, "persisted");
            assertTrue(record.get("active").asBoolean());
            assertEquals(schema(), record.get("schema_name").asText());
            assertTrue(record.get("table_name").asText().startsWith("model_" + model + "_"), record.toString());
            assertFalse(record.has("query_hash"), "the hash is not shown");
            assertTrue(record.has("next-fire-time"));
            assertTrue(record.get("definition").get("field-definitions").size() > 0, record.toString());
            assertTrue(admin.get(200, "card/" + model).json().get("persisted").asBoolean());
            assertTrue(tableExists(record.get("table_name").asText()));
        }
        assertEquals(2, rowsIn(record(byCategory).get("table_name").asText()), "one row per category");
        server.quarry().sync.syncInBackground(databaseId).get();
        for (JsonNode table : admin.get(200, "database/" + databaseId + "/metadata").json().get("tables")) {
            assertFalse(table.path("schema").asText("").startsWith("metabase_cache_"), "sync leaves the cache schema out: " + table.get("name"));
        }
        assertEquals(2, rowsIn(record(bigOrders).get("table_name").asText()), "the parameter's default applies: TOTAL > 8");

        // the same answers, read from the tables
        for (long model : List.of(byCategory, withCustomers, bigOrders)) {
            for (int q = 0; q < questions.size(); q++) {
                if (model == byCategory && q == 2) {
                    continue;
                }
                JsonNode result = over(model, questions.get(q));
                assertTrue(fromCache(result), result.get("data").get("native_form").toString());
                assertEquals(expected.get(model + "/" + q).get("cols"), result.get("data").get("cols"), "columns of " + model + "/" + q);
                assertEquals(expected.get(model + "/" + q).get("rows"), result.get("data").get("rows"), "rows of " + model + "/" + q);
            }
            JsonNode result = nativeQuery(nativeCount.formatted(model), cardTag(model));
            assertTrue(fromCache(result));
            assertEquals(expected.get(model + "/native").get("rows"), result.get("data").get("rows"));
            assertEquals(expected.get(model + "/native").get("cols"), result.get("data").get("cols"));
            // the model run itself reads its table too, with the same answer
            JsonNode itself = admin.post(202, "card/" + model + "/query", null).json();
            assertTrue(fromCache(itself), itself.get("data").get("native_form").toString());
            assertEquals(expected.get(model + "/itself").get("cols"), itself.get("data").get("cols"), "columns of " + model + " itself");
            assertEquals(expected.get(model + "/itself").get("rows"), itself.get("data").get("rows"), "rows of " + model + " itself");
        }
        // with a parameter value, the native model runs its query (its table holds the default's rows)
        JsonNode withValue = admin.post(202, "card/" + bigOrders + "/query", Map.of("parameters", List.of(Map.of("type", "number/=",
                "value", List.of(1), "target", List.of("variable", List.of("template-tag", "min")))))).json();
        assertFalse(fromCache(withValue));
        assertEquals(3, withValue.get("data").get("rows").size(), withValue.toString());

        // reading a persisted model takes exactly the rights to read the model: an ordinary user in a readable collection
        JsonNode asUser = user.post(202, "dataset", mbql(Map.of("source-table", "card__" + byCategory))).json();
        assertEquals(expected.get(byCategory + "/0").get("rows"), asUser.get("data").get("rows"));
        assertEquals("persisted", user.get(200, "persist/card/" + byCategory).json().get("state").asText());
        user.get(403, "persist");
        user.get(403, "persist/" + record(byCategory).get("id").asLong());
        user.post(403, "card/" + byCategory + "/refresh", null);
        user.post(403, "persist/card/" + byCategory + "/unpersist", null);

        // the list: every record, paged
        JsonNode list = admin.get(200, "persist").json();
        assertTrue(list.get("total").asLong() >= 3, list.toString());
        JsonNode page = admin.get(200, "persist", "limit", 1, "offset", 1).json();
        assertEquals(1, page.get("data").size());
        assertEquals(1, page.get("limit").asInt());
        assertEquals(1, page.get("offset").asInt());
        admin.get(400, "persist", "limit", -1);
        long recordId = record(byCategory).get("id").asLong();
        JsonNode byId = admin.get(200, "persist/" + recordId).json();
        assertEquals(byCategory, byId.get("card_id").asLong());
        assertEquals("Our analytics", byId.get("collection_name").asText(), byId.toString());
        assertEquals("Orders by category", byId.get("card_name").asText());
        assertEquals("Shop", byId.get("database_name").asText());
        assertEquals(Fixtures.ADMIN_EMAIL, byId.get("creator").get("email").asText(), byId.toString());
    }

    @Test
    @Order(4)
    void anEditedModelIsNotServedFromItsStaleTable() throws Exception {
        long orders = tableId("ORDERS");
        long model = model("Gizmo orders", mbql(Map.of("source-table", orders,
                "filter", List.of("=", field("ORDERS", "CATEGORY"), "Gizmo"))));
        admin.post(204, "card/" + model + "/persist", null);
        await(model, "persisted");
        JsonNode persisted = over(model, Map.of("aggregation", List.of(List.of("count"))));
        assertTrue(fromCache(persisted));
        assertEquals(2, persisted.get("data").get("rows").get(0).get(0).asLong());

        admin.put(200, "card/" + model, Map.of("dataset_query", mbql(Map.of("source-table", orders,
                "filter", List.of("=", field("ORDERS", "CATEGORY"), "Widget")))));
        JsonNode edited = over(model, Map.of("aggregation", List.of(List.of("count"))));
        assertFalse(fromCache(edited), "the table holds the old query's rows");
        assertEquals(1, edited.get("data").get("rows").get(0).get(0).asLong());
        assertFalse(admin.get(200, "card/" + model).json().get("persisted").asBoolean() && fromCache(edited));

        // refreshed, the table holds the new query's rows and is used again
        admin.post(204, "persist/card/" + model + "/refresh", null);
        awaitRefreshAfter(model, persisted);
        JsonNode refreshed = over(model, Map.of("aggregation", List.of(List.of("count"))));
        assertTrue(fromCache(refreshed));
        assertEquals(1, refreshed.get("data").get("rows").get(0).get(0).asLong());
    }

    private void awaitRefreshAfter(long model, JsonNode unused) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            JsonNode record = record(model);
            if ("persisted".equals(record.get("state").asText()) && over(model, Map.of()).get("data").get("native_form")
                    .get("query").asText().contains("metabase_cache_")) {
                return;
            }
            Thread.sleep(100);
        }
        fail("model " + model + " was not refreshed");
    }

    @Test
    @Order(5)
    void aFailedRefreshKeepsTheOldTableServing() throws Exception {
        execute("CREATE TABLE PARTS (ID INTEGER PRIMARY KEY, LABEL VARCHAR(20), WEIGHT INTEGER)");
        execute("INSERT INTO PARTS VALUES (1, 'bolt', 3), (2, 'nut', 1), (3, 'gear', 7)");
        server.quarry().sync.syncInBackground(databaseId).get();
        long model = model("Parts", mbql(Map.of("source-table", tableId("PARTS"),
                "fields", List.of(field("PARTS", "ID"), field("PARTS", "WEIGHT")))));
        admin.post(204, "card/" + model + "/persist", null);
        JsonNode built = await(model, "persisted");
        JsonNode before = over(model, Map.of("aggregation", List.of(List.of("sum", List.of("field", folded("WEIGHT"),
                Map.of("base-type", "type/Integer"))))));
        assertTrue(fromCache(before));
        assertEquals(11, before.get("data").get("rows").get(0).get(0).asLong());

        // a column the model uses stops existing: the refresh fails midway, the old table stays and keeps serving
        execute("ALTER TABLE PARTS DROP COLUMN WEIGHT");
        admin.post(204, "card/" + model + "/refresh", null);
        JsonNode failed = await(model, "error");
        assertNotNull(failed.get("error").textValue());
        assertTrue(failed.get("error").asText().toUpperCase(Locale.ROOT).contains("WEIGHT"), failed.toString());
        assertNotEquals(built.get("refresh_begin"), failed.get("refresh_begin"));
        assertEquals(3, rowsIn(built.get("table_name").asText()));
        assertFalse(tableExists(built.get("table_name").asText() + "_new"), "nothing half-built is left behind");
        JsonNode after = over(model, Map.of("aggregation", List.of(List.of("sum", List.of("field", folded("WEIGHT"),
                Map.of("base-type", "type/Integer"))))));
        assertTrue(fromCache(after));
        assertEquals(before.get("data").get("rows"), after.get("data").get("rows"));

        // unpersisted: the table is dropped, the record is off, queries run the model's query again
        admin.post(204, "persist/card/" + model + "/unpersist", null);
        assertEquals("off", record(model).get("state").asText());
        assertFalse(record(model).get("active").asBoolean());
        assertFalse(tableExists(built.get("table_name").asText()));
        assertFalse(admin.get(200, "card/" + model).json().get("persisted").asBoolean());
        admin.post(204, "card/" + model + "/unpersist", null);

        // a deleted model takes its table with it
        execute("ALTER TABLE PARTS ADD COLUMN WEIGHT INTEGER");
        admin.post(204, "card/" + model + "/persist", null);
        String rebuilt = await(model, "persisted").get("table_name").asText();
        assertTrue(tableExists(rebuilt));
        admin.delete(204, "card/" + model);
        assertFalse(tableExists(rebuilt));
        admin.get(404, "persist/card/" + model);
    }

    @Test
    @Order(6)
    void onlyModelsArePersisted() {
        long question = admin.post(200, "card", Map.of("name", "A question", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", mbql(Map.of("source-table", tableId("ORDERS"))))).json().get("id").asLong();
        assertTrue(admin.post(400, "card/" + question + "/persist", null).body().contains("Card is not a model"));
        assertTrue(admin.post(400, "persist/card/" + question + "/refresh", null).body().contains("Cannot refresh a non-model question"));
    }

    @Test
    @Order(8)
    void theScheduledJobRefreshesEveryPersistedModel() throws Exception {
        long model = model("Widget orders", mbql(Map.of("source-table", tableId("ORDERS"),
                "filter", List.of("=", field("ORDERS", "CATEGORY"), "Widget"))));
        admin.post(204, "card/" + model + "/persist", null);
        String table = await(model, "persisted").get("table_name").asText();
        assertEquals(1, rowsIn(table));
        execute("INSERT INTO ORDERS VALUES (40, 2, 99.5, 'Widget')");
        // the one job of the cluster's scheduler, on the refresh cron; its run rebuilds the table from the model's query
        var jobs = List.copyOf(new RefreshJobs(server.quarry().persistence, server.quarry().persistedTables).jobs());
        assertEquals(1, jobs.size());
        assertEquals(RefreshJobs.KEY, jobs.get(0).key());
        assertEquals(server.quarry().persistence.refreshCron(), jobs.get(0).quartzCron());
        jobs.get(0).task().accept(java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC));
        assertEquals(2, rowsIn(table));
        assertEquals("persisted", record(model).get("state").asText());
        JsonNode count = over(model, Map.of("aggregation", List.of(List.of("count"))));
        assertTrue(fromCache(count));
        assertEquals(2, count.get("data").get("rows").get(0).get(0).asLong());
        execute("DELETE FROM ORDERS WHERE ID = 40");

        // an archived model keeps no table: the next run drops it and removes its record
        admin.put(200, "card/" + model, Map.of("archived", true));
        jobs.get(0).task().accept(java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC));
        assertFalse(tableExists(table));
        admin.get(404, "persist/card/" + model);
    }

    @Test
    @Order(10)
    void aModelWhoseColumnsChangedRunsItsQueryEverywhere() throws Exception {
        execute("CREATE TABLE WIDGETS (ID INTEGER PRIMARY KEY, LABEL VARCHAR(20))");
        execute("INSERT INTO WIDGETS VALUES (1, 'a'), (2, 'b')");
        long model = persistedModel("Widgets", "WIDGETS");
        String star = "SELECT * FROM {{#%d}} w".formatted(model);
        assertTrue(fromCache(nativeQuery(star, cardTag(model))));
        assertTrue(fromCache(admin.post(202, "card/" + model + "/query", null).json()));
        assertTrue(fromCache(over(model, Map.of())));

        // a column appears: the model's query (all the table's fields) has it, its table does not; the hash is the same
        execute("ALTER TABLE WIDGETS ADD COLUMN COLOR VARCHAR(10)");
        server.quarry().sync.syncInBackground(databaseId).get();
        assertEquals("persisted", record(model).get("state").asText());
        JsonNode viaTag = nativeQuery(star, cardTag(model));
        assertFalse(fromCache(viaTag), "{{#N}} runs the model's query");
        assertEquals(3, viaTag.get("data").get("cols").size(), viaTag.toString());
        JsonNode itself = admin.post(202, "card/" + model + "/query", null).json();
        assertFalse(fromCache(itself), "the model itself runs its query");
        assertEquals(3, itself.get("data").get("cols").size());
        assertFalse(fromCache(over(model, Map.of())), "card__N runs the model's query");

        // refreshed, the table has the column and is read again
        admin.post(204, "card/" + model + "/refresh", null);
        for (int i = 0; i < 300 && !fromCache(nativeQuery(star, cardTag(model))); i++) {
            Thread.sleep(100);
        }
        JsonNode refreshed = nativeQuery(star, cardTag(model));
        assertTrue(fromCache(refreshed));
        assertEquals(3, refreshed.get("data").get("cols").size());
    }

    /**
     * Statements making {@code EVENTS (ID, KIND)} with 200,000 rows in the target, for the concurrent reader; null
     * skips that test.
     */
    protected List<String> eventsTable() {
        return null;
    }

    @Test
    @Order(9)
    void readersNeverSeeAHalfBuiltOrMissingTable() throws Exception {
        List<String> events = eventsTable();
        org.junit.jupiter.api.Assumptions.assumeTrue(events != null, "no events table for this engine");
        for (String sql : events) {
            execute(sql);
        }
        long model = persistedModel("Events", folded("events"));
        Map<String, Object> count = Map.of("aggregation", java.util.List.of(java.util.List.of("count")));
        java.util.concurrent.atomic.AtomicBoolean refreshing = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.List<String> wrong = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        Thread reader = new Thread(() -> {
            while (refreshing.get()) {
                io.quarry.testing.Api.Res res = admin.call("POST", "dataset", mbql(Map.of("source-table", "card__" + model,
                        "aggregation", count.get("aggregation"))));
                if (res.status() == 202 && fromCache(res.json())) {
                    reads.incrementAndGet();
                }
                if (res.status() != 202 || res.json().get("data").get("rows").get(0).get(0).asLong() != 200000) {
                    wrong.add(res.status() + " " + res.body());
                }
            }
        });
        reader.start();
        try {
            // refreshes run on the calling thread here, back to back, while the reader reads
            long infoId = record(model).get("id").asLong();
            for (int i = 0; i < 4; i++) {
                assertTrue(server.quarry().persistence.refresh(infoId));
            }
        } finally {
            refreshing.set(false);
            reader.join();
        }
        assertEquals("persisted", record(model).get("state").asText());
        assertEquals(200000, rowsIn(record(model).get("table_name").asText()));
        assertTrue(reads.get() > 0, "the reader read the table");
        assertEquals(java.util.List.of(), wrong, "answers read during refreshes");
    }

    @Test
    @Order(100)
    void disablingDropsEveryTable() throws Exception {
        long model = model("Customers", mbql(Map.of("source-table", tableId("CUSTOMERS"))));
        admin.post(204, "card/" + model + "/persist", null);
        String table = await(model, "persisted").get("table_name").asText();
        assertTrue(tableExists(table));
        admin.post(204, "persist/disable", null);
        admin.post(204, "persist/disable", null);
        assertFalse(admin.get(200, "setting/persisted-models-enabled").json().asBoolean());
        assertFalse(admin.get(200, "database/" + databaseId).json().get("settings").has("persist-models-enabled"));
        assertFalse(tableExists(table));
        admin.get(404, "persist/card/" + model);
        assertEquals(0, admin.get(200, "persist").json().get("total").asLong());
        assertFalse(fromCache(over(model, Map.of())));
        assertTrue(new RefreshJobs(server.quarry().persistence, server.quarry().persistedTables).jobs().isEmpty(),
                "no scheduled refresh while persistence is off");
    }
}
