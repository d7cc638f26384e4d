package io.quarry.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.ThroughQuarry;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Sample Database as a connected database: setup adds it by default (in the background), the endpoint adds it or
 * answers the existing one, and its sync finds the eight tables with their keys.
 */
class SampleDatabaseIT {
    private static final Map<String, Integer> ROW_COUNTS = new LinkedHashMap<>();

    static {
        ROW_COUNTS.put("PRODUCTS", 200);
        ROW_COUNTS.put("PEOPLE", 2_500);
        ROW_COUNTS.put("ORDERS", 18_760);
        ROW_COUNTS.put("REVIEWS", 1_112);
        ROW_COUNTS.put("ACCOUNTS", 2_500);
        ROW_COUNTS.put("ANALYTIC_EVENTS", 25_000);
        ROW_COUNTS.put("FEEDBACK", 800);
        ROW_COUNTS.put("INVOICES", 6_000);
    }

    private static final Path PLUGINS = Path.of("target", "plugins-sample-it").toAbsolutePath();

    private static TestServer server;
    private static Api api;
    private static String admin;
    private static String plain;

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of("MB_LOAD_SAMPLE_CONTENT", "true", "MB_PLUGINS_DIR", PLUGINS.toString()));
        api = server.api();
        admin = Fixtures.setUp(api);
        plain = Targets.plainUser(api, admin, "sampler@example.com");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static List<JsonNode> samples() {
        JsonNode data = api.as(admin).get(200, "database").json().get("data");
        return StreamSupport.stream(data.spliterator(), false).filter(d -> d.get("is_sample").asBoolean()).toList();
    }

    @Test
    void setupAddsTheSampleDatabaseAndTheEndpointNeverAddsASecond() throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (samples().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        List<JsonNode> samples = samples();
        assertEquals(1, samples.size(), "setup added the sample database");
        JsonNode sample = samples.get(0);
        long id = sample.get("id").asLong();
        assertEquals("Sample Database", sample.get("name").asText());
        assertEquals("h2", sample.get("engine").asText());
        assertTrue(sample.get("details").get("db").asText().contains(PLUGINS.resolve("sample-database").toString()));
        assertTrue(sample.get("details").get("db").asText().endsWith(";ACCESS_MODE_DATA=r"), "read-only");
        assertEquals(DatabaseViews.REDACTED, sample.get("details").get("password").asText());
        assertTrue(Files.isRegularFile(PLUGINS.resolve(SampleDatabase.FILE_NAME)));

        JsonNode again = api.as(admin).post(200, "database/sample_database", null).json();
        assertEquals(id, again.get("id").asLong(), "the existing one, not a duplicate");
        assertTrue(again.get("is_sample").asBoolean());
        assertEquals(1, samples().size());
        assertEquals("You don't have permissions to do that.", api.as(plain).post(403, "database/sample_database", null).body());
        assertEquals("Unauthenticated", api.post(401, "database/sample_database", null).body());

        Targets.sync(server, id);
        List<Table> tables = Targets.tables(server, id);
        assertEquals(ROW_COUNTS.keySet().stream().sorted().toList(), tables.stream().map(t -> t.name).sorted().toList());
        assertTrue(tables.stream().allMatch(t -> "PUBLIC".equals(t.schemaName)));
        List<Field> fields = Targets.fields(server, id);
        Map<Long, String> tableNames = new LinkedHashMap<>();
        tables.forEach(t -> tableNames.put(t.id, t.name));
        Map<Long, Field> byId = new LinkedHashMap<>();
        fields.forEach(f -> byId.put(f.id, f));
        for (Table table : tables) {
            Field pk = fields.stream().filter(f -> f.tableId.equals(table.id) && f.name.equals("ID")).findFirst().orElseThrow();
            assertEquals("type/PK", pk.semanticType, table.name + ".ID");
        }
        for (String[] fk : new String[][]{{"ORDERS", "USER_ID", "PEOPLE"}, {"ORDERS", "PRODUCT_ID", "PRODUCTS"},
                {"REVIEWS", "PRODUCT_ID", "PRODUCTS"}, {"ANALYTIC_EVENTS", "ACCOUNT_ID", "ACCOUNTS"},
                {"FEEDBACK", "ACCOUNT_ID", "ACCOUNTS"}, {"INVOICES", "ACCOUNT_ID", "ACCOUNTS"}}) {
            Field field = fields.stream().filter(f -> tableNames.get(f.tableId).equals(fk[0]) && f.name.equals(fk[1])).findFirst().orElseThrow();
            assertEquals("type/FK", field.semanticType, fk[0] + "." + fk[1]);
            Field target = byId.get(field.fkTargetFieldId);
            assertEquals(fk[2] + ".ID", tableNames.get(target.tableId) + "." + target.name);
        }
        assertEquals("complete", api.as(admin).get(200, "database/" + id).json().get("initial_sync_status").asText());

        // the rows, counted straight from the file (read-only, as its SELECT-only user)
        Properties props = new Properties();
        props.setProperty("user", SampleDatabase.USER);
        props.setProperty("password", SampleDatabase.PASSWORD);
        try (Connection c = new org.h2.Driver().connect(SampleDatabase.jdbcUrl(PLUGINS.resolve(SampleDatabase.NAME)), props);
             Statement s = c.createStatement()) {
            for (Map.Entry<String, Integer> entry : ROW_COUNTS.entrySet()) {
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + entry.getKey())) {
                    rs.next();
                    assertEquals(entry.getValue().intValue(), rs.getInt(1), entry.getKey());
                }
            }
        }
        // and through Quarry's own door: reads only, and GUEST is no administrator
        assertEquals(18_760, ThroughQuarry.count(server.quarry(), id, "SELECT COUNT(*) FROM ORDERS"));
        assertFalse(canRun(id, "DELETE FROM ORDERS WHERE ID = 1"), "the sample database is read-only");
        assertFalse(canRun(id, "CREATE ALIAS X FOR \"java.lang.System.getProperty\""), "GUEST is no administrator");
        assertEquals(18_760, ThroughQuarry.count(server.quarry(), id, "SELECT COUNT(*) FROM ORDERS"));
    }

    /**
     * The first thing a new user tries: caching a model of the sample. Its file has a cache schema its user owns, so
     * persistence works there while the sample's own tables stay read-only.
     */
    @Test
    void modelsOfTheSampleDatabaseCanBeCached() throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (samples().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        long id = samples().get(0).get("id").asLong();
        Targets.sync(server, id);
        long orders = Targets.tables(server, id).stream().filter(t -> t.name.equals("ORDERS")).findFirst().orElseThrow().id;
        Api as = api.as(admin);
        as.post(204, "persist/enable", null);
        try {
            as.post(204, "persist/database/" + id + "/persist", null);
            long model = as.post(200, "card", Map.of("name", "Orders model", "type", "model", "display", "table",
                    "visualization_settings", Map.of(), "dataset_query", Map.of("database", id, "type", "query",
                            "query", Map.of("source-table", orders)))).json().get("id").asLong();
            as.post(204, "card/" + model + "/persist", null);
            JsonNode info = null;
            for (int i = 0; i < 300 && (info == null || !"persisted".equals(info.get("state").asText())); i++) {
                Thread.sleep(100);
                Api.Res res = as.call("GET", "persist/card/" + model, null);
                info = res.status() == 200 ? res.json() : null;
            }
            assertEquals("persisted", info == null ? null : info.get("state").asText(), String.valueOf(info));
            assertEquals(SampleDatabase.CACHE_SCHEMA, info.get("schema_name").asText());
            JsonNode result = as.post(202, "card/" + model + "/query", Map.of()).json();
            assertTrue(result.get("data").get("native_form").get("query").asText().contains(SampleDatabase.CACHE_SCHEMA),
                    "read from the cache: " + result.get("data").get("native_form"));
            JsonNode counted = as.post(202, "dataset", Map.of("database", id, "type", "query", "query",
                    Map.of("source-table", "card__" + model, "aggregation", List.of(List.of("count"))))).json();
            assertEquals(18_760, counted.get("data").get("rows").get(0).get(0).asLong());
            // the data itself stays read-only, also now the file is open for writing
            assertFalse(canRun(id, "DELETE FROM ORDERS WHERE ID = 1"), "the sample database is read-only");
            assertEquals(400, as.call("POST", "dataset", Map.of("database", id, "type", "native", "native",
                    Map.of("query", "CREATE TABLE \"" + SampleDatabase.CACHE_SCHEMA + "\".X (A INT)"))).status());
            assertEquals(18_760, ThroughQuarry.count(server.quarry(), id, "SELECT COUNT(*) FROM ORDERS"));
        } finally {
            as.post(204, "persist/database/" + id + "/unpersist", null);
            as.post(204, "persist/disable", null);
        }
    }

    private static boolean canRun(long id, String sql) {
        try {
            ThroughQuarry.rows(server.quarry(), id, sql);
            return true;
        } catch (java.sql.SQLException refused) {
            return false;
        }
    }
}
