package io.quarry.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.PostgresTargets;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The table and database-health endpoints Metabase's clients (MCP servers, Activepieces) call: foreign keys, related
 * tables, a table's rows, the data-model actions, the custom field order, the virtual tables of saved cards and the
 * database health check, with Metabase's shapes and statuses: 404 for an unknown id first, 403 without the rights,
 * 400 for bad input, and the bodies plain clients send (none, an empty form).
 */
class TableEndpointsIT {
    private static final String FORBIDDEN = "You don't have permissions to do that.";
    private static final String PASSWORD = "Sunny-day-77";

    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    /** In a group with full rights on the shop. */
    private static Api user;
    /** Only in All Users, whose view-data on the shop is blocked. */
    private static Api blocked;
    private static Path shopFile;
    private static long shop;
    private static long customers;
    private static long orders;
    private static long notes;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        shopFile = TargetDatabases.h2Shop();
        TargetDatabases.h2Execute(shopFile, "CREATE TABLE NOTES (ID INT PRIMARY KEY, BODY VARCHAR(100))",
                "INSERT INTO NOTES VALUES (1, 'first')");
        shop = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop", "details", TargetDatabases.h2Details(shopFile)))
                .json().get("id").asLong();
        server.quarry().sync.syncInBackground(shop).get();
        customers = tableId("CUSTOMERS");
        orders = tableId("ORDERS");
        notes = tableId("NOTES");
        // a group made now gets All Users' rights (full); then All Users lose view-data on the shop
        long full = admin.post(200, "permissions/group", Map.of("name", "Full")).json().get("id").asLong();
        user = newUser("full@example.com", full);
        blocked = newUser("blocked@example.com");
        long revision = admin.get(200, "permissions/graph").json().get("revision").asLong();
        admin.put(200, "permissions/graph", Map.of("revision", revision,
                "groups", Map.of("1", Map.of(String.valueOf(shop), Map.of("view-data", "blocked")))));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Api newUser(String email, long... groups) {
        List<Map<String, Object>> memberships = new ArrayList<>(List.of(Map.of("id", 1)));
        for (long g : groups) {
            memberships.add(Map.of("id", g));
        }
        admin.post(200, "user", Map.of("email", email, "first_name", "P", "last_name", email, "password", PASSWORD,
                "user_group_memberships", memberships));
        return anonymous.as(Fixtures.login(anonymous, email, PASSWORD));
    }

    private static long tableId(String name) {
        for (JsonNode t : admin.get(200, "database/" + shop + "/metadata").json().get("tables")) {
            if (t.get("name").asText().equals(name)) {
                return t.get("id").asLong();
            }
        }
        throw new AssertionError("no table " + name);
    }

    private static long fieldId(long table, String name) {
        for (JsonNode f : admin.get(200, "table/" + table + "/query_metadata").json().get("fields")) {
            if (f.get("name").asText().equals(name)) {
                return f.get("id").asLong();
            }
        }
        throw new AssertionError("no field " + name);
    }

    private static List<String> fieldNames(long table) {
        List<String> names = new ArrayList<>();
        admin.get(200, "table/" + table + "/query_metadata").json().get("fields").forEach(f -> names.add(f.get("name").asText()));
        return names;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(JsonNode node) {
        return io.quarry.core.Json.MAPPER.convertValue(node, Map.class);
    }

    private static List<String> names(JsonNode tables) {
        List<String> names = new ArrayList<>();
        tables.forEach(t -> names.add(t.get("name").asText()));
        return names;
    }

    private static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("never: " + what);
    }

    // --- database health ---------------------------------------------------------------------------------------------

    @Test
    void healthcheckAnswersOkOrTheConnectionError() throws Exception {
        assertEquals(Map.of("status", "ok"), map(admin.get(200, "database/" + shop + "/healthcheck").json()));
        assertEquals("ok", user.get(200, "database/" + shop + "/healthcheck").json().get("status").asText());
        assertEquals(FORBIDDEN, blocked.get(403, "database/" + shop + "/healthcheck").body());
        assertEquals("Not found.", blocked.get(404, "database/999999/healthcheck").body());
        anonymous.get(401, "database/" + shop + "/healthcheck");
        admin.get(400, "database/abc/healthcheck");
        // a database that has gone away (dropped on its server, Quarry's connections with it): still 200, with
        // Metabase's error shape. (A PostgreSQL target: an H2 file changed under an open H2 engine was not reliable.)
        PostgresTargets.ensureDriver(server.quarry());
        String gone = PostgresTargets.create("healthcheck");
        long broken = admin.post(200, "database", Map.of("engine", "postgres", "name", "Gone",
                "details", PostgresTargets.details(gone))).json().get("id").asLong();
        PostgresTargets.execute("postgres", "DROP DATABASE " + gone + " WITH (FORCE)");
        JsonNode error = admin.get(200, "database/" + broken + "/healthcheck").json();
        assertEquals("error", error.get("status").asText(), error.toString());
        assertTrue(error.get("message").isTextual() && !error.get("message").asText().isBlank(), error.toString());
        assertFalse(error.has("details"), "no connection details echoed");
    }

    // --- foreign keys and related tables -----------------------------------------------------------------------------

    @Test
    void fksListTheForeignKeysPointingAtTheTable() {
        JsonNode fks = user.get(200, "table/" + customers + "/fks").json();
        assertEquals(1, fks.size(), fks.toString());
        JsonNode fk = fks.get(0);
        assertEquals("Mt1", fk.get("relationship").asText());
        assertEquals(fieldId(orders, "CUSTOMER_ID"), fk.get("origin_id").asLong());
        assertEquals(fieldId(customers, "ID"), fk.get("destination_id").asLong());
        assertEquals("CUSTOMER_ID", fk.get("origin").get("name").asText());
        assertEquals("ORDERS", fk.get("origin").get("table").get("name").asText());
        assertEquals("Shop", fk.get("origin").get("table").get("db").get("name").asText());
        assertFalse(fk.get("origin").get("table").get("db").has("details"));
        assertEquals("ID", fk.get("destination").get("name").asText());
        assertEquals("CUSTOMERS", fk.get("destination").get("table").get("name").asText());
        assertEquals(0, user.get(200, "table/" + orders + "/fks").json().size(), "nothing points at ORDERS");
        assertEquals(FORBIDDEN, blocked.get(403, "table/" + customers + "/fks").body());
        blocked.get(404, "table/999999/fks");
        user.get(400, "table/abc/fks");
    }

    @Test
    void relatedNamesLinkedTablesAndTheSchemasOthers() {
        JsonNode related = user.get(200, "table/" + orders + "/related").json();
        assertEquals(List.of("segments", "metrics", "linking-to", "linked-from", "tables"), fieldNamesOf(related));
        assertEquals(List.of("CUSTOMERS"), names(related.get("linking-to")));
        assertEquals(List.of(), names(related.get("linked-from")));
        assertEquals(List.of("NOTES"), names(related.get("tables")), "same schema, not linked, not itself");
        JsonNode ofCustomers = user.get(200, "table/" + customers + "/related").json();
        assertEquals(List.of(), names(ofCustomers.get("linking-to")));
        assertEquals(List.of("ORDERS"), names(ofCustomers.get("linked-from")));
        assertEquals(List.of("NOTES"), names(ofCustomers.get("tables")));
        assertEquals(0, ofCustomers.get("segments").size());
        assertEquals(FORBIDDEN, blocked.get(403, "table/" + orders + "/related").body());
        blocked.get(404, "table/999999/related");
    }

    private static List<String> fieldNamesOf(JsonNode object) {
        List<String> keys = new ArrayList<>();
        object.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    // --- a table's rows ----------------------------------------------------------------------------------------------

    @Test
    void dataRunsSelectStarThroughTheQueryRunner() {
        JsonNode result = user.get(202, "table/" + orders + "/data", "limit", "1").json();
        assertEquals("completed", result.get("status").asText());
        assertEquals(3, result.get("row_count").asInt(), "the query string is ignored");
        assertEquals(3, result.get("data").get("rows").size());
        List<String> cols = new ArrayList<>();
        result.get("data").get("cols").forEach(c -> cols.add(c.get("name").asText()));
        assertEquals(List.of("ID", "CUSTOMER_ID", "TOTAL", "CATEGORY"), cols);
        for (String dropped : List.of("json_query", "context", "cached", "average_execution_time")) {
            assertFalse(result.has(dropped), dropped);
        }
        assertEquals(shop, result.get("database_id").asLong());
        JsonNode refused = blocked.get(403, "table/" + orders + "/data").json();
        assertEquals("missing-required-permissions", refused.get("error_type").asText(), refused.toString());
        blocked.get(404, "table/999999/data");
    }

    // --- data-model actions ------------------------------------------------------------------------------------------

    private static long valuesOf(long field) {
        return AppDbSql.count(server, "SELECT COUNT(*) FROM metabase_fieldvalues WHERE field_id = ?", field);
    }

    @Test
    void discardAndRescanTheTablesFieldValues() throws Exception {
        long category = fieldId(orders, "CATEGORY");
        admin.get(200, "field/" + category + "/values");
        eventually("values cached", () -> valuesOf(category) == 1);
        // non-admins: 404 for an unknown table first, then 403; nothing changes
        assertEquals("Not found.", user.post(404, "table/999999/discard_values", null).body());
        assertEquals(FORBIDDEN, user.post(403, "table/" + orders + "/discard_values", null).body());
        assertEquals(FORBIDDEN, user.post(403, "table/" + orders + "/rescan_values", null).body());
        assertEquals(1, valuesOf(category));
        // no body (curl -X POST), an empty form body, a JSON {}: all the same
        assertEquals(Map.of("status", "success"), map(admin.post(200, "table/" + orders + "/discard_values", null).json()));
        assertEquals(0, valuesOf(category));
        assertEquals("success", admin.postForm(200, "table/" + orders + "/rescan_values", Map.of()).json().get("status").asText());
        eventually("values rescanned", () -> valuesOf(category) == 1);
        assertEquals("success", admin.post(200, "table/" + orders + "/discard_values", Map.of()).json().get("status").asText());
        assertEquals(0, valuesOf(category));
        admin.post(200, "table/" + orders + "/rescan_values", null);
        eventually("values rescanned again", () -> valuesOf(category) == 1);
        admin.post(404, "table/999999/rescan_values", null);
        admin.post(400, "table/abc/discard_values", null);
    }

    @Test
    void syncSchemaFindsANewColumn() throws Exception {
        assertEquals("Not found.", user.post(404, "table/999999/sync_schema", null).body());
        assertEquals(FORBIDDEN, user.post(403, "table/" + notes + "/sync_schema", null).body());
        TargetDatabases.h2Execute(shopFile, "ALTER TABLE NOTES ADD COLUMN AUTHOR VARCHAR(50)");
        assertEquals(Map.of("status", "ok"), map(admin.postForm(200, "table/" + notes + "/sync_schema", Map.of()).json()));
        eventually("AUTHOR synced", () -> fieldNames(notes).contains("AUTHOR"));
        assertEquals("ok", admin.post(200, "table/" + notes + "/sync_schema", null).json().get("status").asText());
    }

    // --- custom field order ------------------------------------------------------------------------------------------

    @Test
    void fieldOrderTakesABareListOrAnObjectAndRefusesBadIds() {
        long id = fieldId(customers, "ID");
        long name = fieldId(customers, "NAME");
        long email = fieldId(customers, "EMAIL");
        long created = fieldId(customers, "CREATED_AT");
        assertEquals(Map.of("success", true),
                map(admin.put(200, "table/" + customers + "/fields/order", List.of(created, email, name, id)).json()));
        assertEquals(List.of("CREATED_AT", "EMAIL", "NAME", "ID"), fieldNames(customers));
        assertEquals("custom", admin.get(200, "table/" + customers).json().get("field_order").asText());
        admin.put(200, "table/" + customers + "/fields/order", Map.of("field_order", List.of(name, id)));
        assertEquals(List.of("NAME", "ID", "CREATED_AT", "EMAIL"), fieldNames(customers), "the fields left out follow");
        // bad input: 400 naming field_order, nothing changes
        long otherTable = fieldId(orders, "TOTAL");
        for (Object bad : List.of(List.of("x"), List.of(0), Map.of("field_order", "x"), Map.of(), List.of(id, otherTable),
                List.of(id, id))) {
            JsonNode refused = admin.put(400, "table/" + customers + "/fields/order", bad).json();
            assertTrue(refused.get("errors").has("field_order"), bad + " -> " + refused);
        }
        assertTrue(admin.put(400, "table/" + customers + "/fields/order", null).json().get("errors").has("field_order"));
        assertEquals(List.of("NAME", "ID", "CREATED_AT", "EMAIL"), fieldNames(customers));
        assertEquals("Not found.", user.put(404, "table/999999/fields/order", List.of(id)).body());
        assertEquals(FORBIDDEN, user.put(403, "table/" + customers + "/fields/order", List.of(id)).body());
        admin.put(200, "table/" + customers, Map.of("field_order", "database"));
        assertEquals(List.of("ID", "NAME", "EMAIL", "CREATED_AT"), fieldNames(customers));
    }

    // --- the virtual tables of saved cards ---------------------------------------------------------------------------

    @Test
    void cardVirtualTablesAnswerTheCardsColumns() {
        long card = admin.post(200, "card", Map.of("name", "Customer names", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", shop, "type", "native",
                        "native", Map.of("query", "SELECT ID, NAME FROM CUSTOMERS")))).json().get("id").asLong();
        JsonNode table = user.get(200, "table/card__" + card + "/query_metadata", "include_sensitive_fields", "true").json();
        assertEquals("card__" + card, table.get("id").asText());
        assertEquals(shop, table.get("db_id").asLong());
        assertEquals("Customer names", table.get("display_name").asText());
        assertEquals("Everything else", table.get("schema").asText());
        assertEquals("question", table.get("type").asText());
        assertTrue(table.get("entity_id").isTextual());
        assertEquals(shop, table.get("db").get("id").asLong());
        List<String> fields = new ArrayList<>();
        for (JsonNode f : table.get("fields")) {
            fields.add(f.get("name").asText());
            assertEquals("card__" + card, f.get("table_id").asText());
            assertNotNull(f.get("base_type"));
        }
        assertEquals(List.of("ID", "NAME"), fields);
        JsonNode ref = table.get("fields").get(1).get("id");
        assertEquals("field", ref.get(0).asText());
        assertEquals("NAME", ref.get(1).asText());
        assertEquals(0, user.get(200, "table/card__" + card + "/fks").json().size());
        // readable card, blocked data: the table without its database (Metabase does not leak it)
        assertTrue(blocked.get(200, "table/card__" + card + "/query_metadata").json().get("db").isNull());
        // unknown card 404; a card in a collection the caller cannot read 403
        assertEquals("Not found.", user.get(404, "table/card__999999/query_metadata").body());
        user.get(404, "table/card__999999/fks");
        long personal = admin.get(200, "user/current").json().get("personal_collection_id").asLong();
        Map<String, Object> hidden = new LinkedHashMap<>(Map.of("name", "Private", "display", "table", "visualization_settings",
                Map.of(), "collection_id", personal, "dataset_query", Map.of("database", shop, "type", "native",
                        "native", Map.of("query", "SELECT 1 AS ONE"))));
        long secret = admin.post(200, "card", hidden).json().get("id").asLong();
        assertEquals(FORBIDDEN, user.get(403, "table/card__" + secret + "/query_metadata").body());
        assertEquals(FORBIDDEN, user.get(403, "table/card__" + secret + "/fks").body());
        assertEquals("ONE", admin.get(200, "table/card__" + secret + "/query_metadata").json().get("fields").get(0).get("name").asText());
        user.get(400, "table/card__abc/query_metadata");
    }
}
