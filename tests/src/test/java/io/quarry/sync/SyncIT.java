package io.quarry.sync;

import static io.quarry.sync.SyncSupport.await;
import static io.quarry.sync.SyncSupport.awaitSynced;
import static io.quarry.sync.SyncSupport.field;
import static io.quarry.sync.SyncSupport.fields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.boot.Quarry;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import io.quarry.warehouse.WarehouseMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sync pipeline over HTTP against real H2 and PostgreSQL targets: metadata, fingerprints, semantic types, field
 * values; the sync endpoints of /api/database and /api/field with their permissions.
 */
class SyncIT {
    private static final String FORBIDDEN = "You don't have permissions to do that.";
    private static TestServer server;
    private static Quarry quarry;
    private static Api anonymous;
    private static Api admin;
    private static Api ordinary;
    private static Path h2Shop;
    private static long h2Id;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        quarry = server.quarry();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        ordinary = anonymous.withApiKey(admin.post(200, "api-key", Map.of("name", "Ordinary", "group_id", 1))
                .json().get("unmasked_key").asText());
        h2Shop = SyncTargets.h2RichShop();
        h2Id = admin.post(200, "database", Map.of("engine", "h2", "name", "Rich shop",
                "details", Map.of("db", "file:" + h2Shop, "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        awaitSynced(quarry, admin, h2Id);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void anH2DatabaseIsSyncedAnalyzedAndItsValuesCached() throws Exception {
        assertRichShop(h2Id, () -> DriverManager.getConnection("jdbc:h2:file:" + h2Shop, "sa", "secret-pw"));
    }

    @Test
    void aPostgresDatabaseIsSyncedAnalyzedAndItsValuesCached() throws Exception {
        SyncTargets.ensurePostgresEngine(quarry);
        Map<String, Object> details = SyncTargets.postgresRichShop();
        long id = admin.post(200, "database", Map.of("engine", "postgres", "name", "PG shop", "details", details))
                .json().get("id").asLong();
        awaitSynced(quarry, admin, id);
        assertRichShop(id, () -> SyncTargets.postgresConnection(details));
        List<Table> tables = quarry.db.with(WarehouseMapper.class, m -> m.listTables(id, true));
        assertTrue(tables.stream().allMatch(t -> "public".equals(t.schemaName)), "PostgreSQL tables keep their schema");
        admin.delete(204, "database/" + id);
    }

    private interface Connector {
        Connection open() throws Exception;
    }

    private static void assertRichShop(long id, Connector target) throws Exception {
        Map<String, Field> fields = fields(quarry, id);
        Map<String, String> expected = new HashMap<>();
        expected.put("customers.id", "type/PK");
        expected.put("customers.name", "type/Name");
        expected.put("customers.email", "type/Email");
        expected.put("customers.state", "type/State");
        expected.put("customers.city", "type/City");
        expected.put("customers.latitude", "type/Latitude");
        expected.put("customers.longitude", "type/Longitude");
        expected.put("customers.zip_code", "type/ZipCode");
        expected.put("customers.homepage_url", "type/URL");
        expected.put("customers.avatar_url", "type/ImageURL");
        expected.put("customers.source", "type/Source");
        expected.put("customers.birthdate", "type/Birthdate");
        expected.put("customers.created_at", "type/CreationTimestamp");
        expected.put("products.id", "type/PK");
        expected.put("products.title", "type/Title");
        expected.put("products.category", "type/Category");
        expected.put("products.vendor", "type/Company");
        expected.put("products.price", "type/Price");
        expected.put("products.rating", "type/Score");
        expected.put("products.description", "type/Description");
        expected.put("products.created_at", "type/CreationTimestamp");
        expected.put("orders.id", "type/PK");
        expected.put("orders.customer_id", "type/FK");
        expected.put("orders.product_id", "type/FK");
        expected.put("orders.quantity", "type/Quantity");
        expected.put("orders.discount", "type/Discount");
        expected.put("orders.total", null);
        expected.put("orders.status", "type/Category");
        expected.put("orders.notes", "type/SerializedJSON");
        expected.put("orders.created_at", "type/CreationTimestamp");
        assertEquals(expected.keySet(), fields.keySet());
        Map<String, String> actual = new HashMap<>();
        fields.forEach((k, f) -> actual.put(k, f.semanticType));
        assertEquals(expected, actual);
        assertEquals(fields.get("customers.id").id, fields.get("orders.customer_id").fkTargetFieldId);
        assertEquals(fields.get("products.id").id, fields.get("orders.product_id").fkTargetFieldId);

        assertEquals("list", fields.get("products.category").hasFieldValues);
        assertEquals("list", fields.get("orders.status").hasFieldValues);
        assertEquals("list", fields.get("customers.state").hasFieldValues);
        assertEquals("list", fields.get("orders.quantity").hasFieldValues);
        assertEquals("none", fields.get("products.price").hasFieldValues, "floats are never lists");
        assertEquals("none", fields.get("orders.created_at").hasFieldValues);
        assertEquals("none", fields.get("orders.customer_id").hasFieldValues, "keys are never lists");
        assertNull(fields.get("orders.id").fingerprint, "primary keys get no fingerprint");
        assertTrue(fields.values().stream().allMatch(f -> f.lastAnalyzed != null && f.fingerprintVersion == Fingerprints.VERSION));

        // fingerprints agree with the database (every table is smaller than the sample)
        try (Connection c = target.open(); Statement s = c.createStatement()) {
            for (Map.Entry<String, Field> e : fields.entrySet()) {
                Field f = e.getValue();
                if (f.fingerprint == null) {
                    continue;
                }
                Table table = quarry.db.with(WarehouseMapper.class, m -> m.findTable(f.tableId));
                try (ResultSet rs = s.executeQuery("SELECT COUNT(DISTINCT \"" + f.name + "\"), COUNT(*), COUNT(\"" + f.name + "\") FROM \""
                        + table.name + "\"")) {
                    rs.next();
                    assertEquals(rs.getLong(1), Fingerprints.global(f.fingerprint, "distinct-count").longValue(), e.getKey());
                    double nil = (rs.getLong(2) - rs.getLong(3)) / (double) rs.getLong(2);
                    assertEquals(nil, Fingerprints.global(f.fingerprint, "nil%").doubleValue(), 1e-9, e.getKey());
                }
            }
            Field price = fields.get("products.price");
            try (ResultSet rs = s.executeQuery("SELECT MIN(\"" + price.name + "\"), MAX(\"" + price.name + "\"), AVG(\""
                    + price.name + "\") FROM \"" + quarry.db.with(WarehouseMapper.class, m -> m.findTable(price.tableId)).name + "\"")) {
                rs.next();
                Map<String, Object> number = Fingerprints.typed(price.fingerprint, "type/Number");
                assertEquals(rs.getDouble(1), (double) number.get("min"));
                assertEquals(rs.getDouble(2), (double) number.get("max"));
                assertEquals(rs.getDouble(3), (double) number.get("avg"), 1e-6);
            }
        }
        assertEquals(0.9, Fingerprints.global(fields.get("orders.discount").fingerprint, "nil%").doubleValue(), 1e-9);
        Map<String, Object> created = Fingerprints.typed(fields.get("orders.created_at").fingerprint, "type/DateTime");
        assertEquals("2022-01-01T09:37:00Z", created.get("earliest"));
        assertEquals(1.0, Fingerprints.typed(fields.get("customers.email").fingerprint, "type/Text").get("percent-email"));

        // values over HTTP, for any signed-in user
        Field category = fields.get("products.category");
        JsonNode values = ordinary.get(200, "field/" + category.id + "/values").json();
        assertEquals("{\"field_id\":" + category.id + ",\"values\":[[\"Doohickey\"],[\"Gadget\"],[\"Gizmo\"],[\"Widget\"]],"
                + "\"has_more_values\":false}", values.toString());
        assertEquals("[[\"paid\"],[\"pending\"],[\"refunded\"]]",
                admin.get(200, "field/" + fields.get("orders.status").id + "/values").json().get("values").toString());
        assertEquals("[[1],[2],[3],[4],[5],[6],[7],[8]]",
                admin.get(200, "field/" + fields.get("orders.quantity").id + "/values").json().get("values").toString());
        JsonNode none = admin.get(200, "field/" + fields.get("products.price").id + "/values").json();
        assertEquals(0, none.get("values").size());
        assertEquals(false, none.get("has_more_values").asBoolean());

        JsonNode database = admin.get(200, "database/" + id).json();
        assertEquals("complete", database.get("initial_sync_status").asText());
        assertNotNull(database.get("dbms_version").get("version").asText());
        List<Table> tables = quarry.db.with(WarehouseMapper.class, m -> m.listTables(id, false));
        assertTrue(tables.stream().allMatch(t -> "complete".equals(t.initialSyncStatus)));
        Map<String, String> entities = new HashMap<>();
        tables.forEach(t -> entities.put(t.name.toLowerCase(Locale.ROOT), t.entityType));
        assertEquals(Map.of("customers", "entity/GenericTable", "products", "entity/ProductTable", "orders",
                "entity/TransactionTable"), entities);
        SyncService.Run run = quarry.sync.lastRun(id);
        assertEquals(List.of("sync-metadata", "analyze", "update-field-values"), run.results().stream().map(SyncService.StepResult::name).toList());
        assertTrue(run.succeeded());
    }

    @Test
    void syncActionsNeedAnAdministratorAndAnExistingDatabase() {
        Field category = field(quarry, h2Id, "products.category");
        List<String> databasePosts = List.of("sync_schema", "rescan_values", "discard_values", "dismiss_spinner");
        for (String action : databasePosts) {
            assertEquals("Unauthenticated", anonymous.post(401, "database/" + h2Id + "/" + action, null).body(), action);
            assertEquals(FORBIDDEN, ordinary.post(403, "database/" + h2Id + "/" + action, null).body(), action);
            assertEquals("Not found.", admin.post(404, "database/999999/" + action, null).body(), action);
            assertEquals("value must be an integer greater than zero.",
                    admin.post(400, "database/abc/" + action, null).json().get("errors").get("id").asText(), action);
            admin.post(400, "database/0/" + action, null);
        }
        for (String action : List.of("rescan_values", "discard_values")) {
            assertEquals("Unauthenticated", anonymous.post(401, "field/" + category.id + "/" + action, null).body(), action);
            assertEquals(FORBIDDEN, ordinary.post(403, "field/" + category.id + "/" + action, null).body(), action);
            assertEquals("Not found.", admin.post(404, "field/999999/" + action, null).body(), action);
            assertEquals("value must be an integer greater than zero.",
                    admin.post(400, "field/-1/" + action, null).json().get("errors").get("id").asText(), action);
        }
        assertEquals("Unauthenticated", anonymous.get(401, "field/" + category.id + "/values").body());
        assertEquals("Not found.", ordinary.get(404, "field/999999/values").body());
        admin.get(400, "field/x/values");
        // nothing that was refused changed anything
        assertEquals(SyncTargets.CATEGORIES, quarry.fieldValues.cached(category.id));
        assertEquals("complete", admin.get(200, "database/" + h2Id).json().get("initial_sync_status").asText());
    }

    @Test
    void valuesAreDiscardedAndRescanned() {
        Field category = field(quarry, h2Id, "products.category");
        Field status = field(quarry, h2Id, "orders.status");
        assertEquals("{\"status\":\"ok\"}", admin.post(200, "database/" + h2Id + "/discard_values", null).body());
        assertNull(quarry.fieldValues.cached(category.id));
        assertNull(quarry.fieldValues.cached(status.id));
        // reading the values of a list field caches them again on demand
        assertEquals(4, admin.get(200, "field/" + category.id + "/values").json().get("values").size());
        assertEquals(SyncTargets.CATEGORIES, quarry.fieldValues.cached(category.id));

        assertEquals("{\"status\":\"ok\"}", admin.post(200, "database/" + h2Id + "/rescan_values", null).body());
        await(Duration.ofSeconds(30), "the rescan", () -> quarry.fieldValues.cached(status.id) != null);
        assertEquals(SyncTargets.STATUSES, quarry.fieldValues.cached(status.id));

        assertEquals("{\"status\":\"success\"}", admin.post(200, "field/" + status.id + "/discard_values", null).body());
        assertNull(quarry.fieldValues.cached(status.id));
        assertEquals(SyncTargets.CATEGORIES, quarry.fieldValues.cached(category.id), "only that field's values went");
        assertEquals("{\"status\":\"success\"}", admin.post(200, "field/" + status.id + "/rescan_values", null).body());
        assertEquals(SyncTargets.STATUSES, quarry.fieldValues.cached(status.id), "a field rescan is done when it answers");
        // rescanning a field that keeps no values drops any it had
        Field price = field(quarry, h2Id, "products.price");
        admin.post(200, "field/" + price.id + "/rescan_values", null);
        assertNull(quarry.fieldValues.cached(price.id));
    }

    @Test
    void aPersonsChoicesSurviveSyncsAndNewColumnsAreAnalyzed() throws Exception {
        Path shop = SyncTargets.h2RichShop();
        long id = admin.post(200, "database", Map.of("engine", "h2", "name", "Edited shop",
                "details", Map.of("db", "file:" + shop, "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        awaitSynced(quarry, admin, id);
        Field city = field(quarry, id, "customers.city");
        city.semanticType = "type/Description";
        city.hasFieldValues = "none";
        quarry.db.with(WarehouseMapper.class, m -> m.updateFieldMetadata(city));
        // analyze everything again on the next sync
        Database database = quarry.databases.require(id);
        database.refingerprint = true;
        quarry.databases.update(database);
        TargetDatabases.h2Execute(shop, "ALTER TABLE customers ADD COLUMN contact VARCHAR(200)",
                "UPDATE customers SET contact = 'someone' || id || '@example.net'");
        int before = quarry.sync.runCount(id);
        assertEquals("{\"status\":\"ok\"}", admin.post(200, "database/" + id + "/sync_schema", null).body());
        await(Duration.ofSeconds(60), "the manual sync", () -> quarry.sync.runCount(id) > before && !quarry.sync.isSyncing(id));
        SyncService.Run run = quarry.sync.lastRun(id);
        assertEquals(List.of("sync-metadata", "analyze"), run.results().stream().map(SyncService.StepResult::name).toList(),
                "sync_schema syncs and analyzes, as in Metabase");
        Field contact = field(quarry, id, "customers.contact");
        assertEquals("type/Email", contact.semanticType);
        Field cityAfter = field(quarry, id, "customers.city");
        assertEquals("type/Description", cityAfter.semanticType, "a person's semantic type is kept");
        assertEquals("none", cityAfter.hasFieldValues);
        assertEquals(10, Fingerprints.global(cityAfter.fingerprint, "distinct-count").intValue());
        admin.delete(204, "database/" + id);
    }

    @Test
    void aNewDatabaseOfEmptyTablesGetsItsFirstAnalysisAndIsFingerprintedOnceItHasRows() throws Exception {
        Path file = Files.createTempDirectory("quarry-sync-empty").resolve("empty");
        TargetDatabases.h2Execute(file,
                "CREATE TABLE CUSTOMERS (ID BIGINT PRIMARY KEY, EMAIL VARCHAR(200), CREATED_AT TIMESTAMP)",
                "CREATE TABLE ORDERS (ID BIGINT PRIMARY KEY, CUSTOMER_ID BIGINT REFERENCES CUSTOMERS(ID), TOTAL DOUBLE PRECISION)");
        long id = admin.post(200, "database", Map.of("engine", "h2", "name", "Empty shop",
                "details", Map.of("db", "file:" + file, "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        awaitSynced(quarry, admin, id);
        Map<String, Field> fields = fields(quarry, id);
        Map<String, String> types = new HashMap<>();
        fields.forEach((k, f) -> types.put(k, f.semanticType));
        Map<String, String> expected = new HashMap<>();
        expected.put("customers.id", "type/PK");
        expected.put("customers.email", null); // e-mail addresses are recognised by their values, not the name
        expected.put("customers.created_at", "type/CreationTimestamp");
        expected.put("orders.id", "type/PK");
        expected.put("orders.customer_id", "type/FK");
        expected.put("orders.total", null);
        assertEquals(expected, types);
        assertEquals(fields.get("customers.id").id, fields.get("orders.customer_id").fkTargetFieldId);
        assertTrue(fields.values().stream().allMatch(f -> f.lastAnalyzed != null), "every field had its first analysis");
        for (String key : List.of("customers.id", "orders.id")) {
            Field pk = fields.get(key);
            assertEquals(Fingerprints.VERSION, pk.fingerprintVersion, key);
            assertNull(pk.fingerprint, key);
            assertEquals("none", pk.hasFieldValues, key);
        }
        for (String key : List.of("customers.email", "customers.created_at", "orders.customer_id", "orders.total")) {
            Field f = fields.get(key);
            assertEquals(0, f.fingerprintVersion, key + " waits for rows to be fingerprinted");
            assertNull(f.fingerprint, key);
            assertNull(f.hasFieldValues, key);
        }
        SyncService.Run run = quarry.sync.lastRun(id);
        assertEquals(List.of("sync-metadata", "analyze", "update-field-values"), run.results().stream().map(SyncService.StepResult::name).toList());
        Map<String, Object> analysis = run.results().get(1).summary();
        assertEquals(Map.of("fingerprints-attempted", 6, "updated-fingerprints", 2, "no-data-fingerprints", 4,
                "failed-fingerprints", 0), analysis.get("fingerprint-fields"));
        assertEquals(Map.of("fields-classified", 2, "fields-failed", 0), analysis.get("classify-fields"));

        // rows arrive: the next analysis fingerprints what waited, keys and name-based types stay
        TargetDatabases.h2Execute(file, "INSERT INTO CUSTOMERS VALUES (1, 'ada@example.com', TIMESTAMP '2024-01-02 10:00:00')",
                "INSERT INTO ORDERS VALUES (1, 1, 10.5), (2, 1, 20.0)");
        int before = quarry.sync.runCount(id);
        admin.post(200, "database/" + id + "/sync_schema", null);
        await(Duration.ofSeconds(60), "the manual sync", () -> quarry.sync.runCount(id) > before && !quarry.sync.isSyncing(id));
        run = quarry.sync.lastRun(id);
        assertEquals(Map.of("fingerprints-attempted", 4, "updated-fingerprints", 4, "no-data-fingerprints", 0,
                "failed-fingerprints", 0), run.results().get(1).summary().get("fingerprint-fields"));
        Map<String, Field> after = fields(quarry, id);
        Map<String, String> typesAfter = new HashMap<>();
        after.forEach((k, f) -> typesAfter.put(k, f.semanticType));
        expected.put("customers.email", "type/Email");
        assertEquals(expected, typesAfter);
        assertEquals(after.get("customers.id").id, after.get("orders.customer_id").fkTargetFieldId);
        assertTrue(after.values().stream().allMatch(f -> f.fingerprintVersion == Fingerprints.VERSION));
        assertEquals(1.0, Fingerprints.typed(after.get("customers.email").fingerprint, "type/Text").get("percent-email"));
        admin.delete(204, "database/" + id);
    }

    @Test
    void unreachableDatabasesAbortTheirFirstSyncAndRefuseManualSyncs() throws Exception {
        Database missing = new Database();
        missing.engine = "h2";
        missing.name = "Gone";
        missing.details = Map.of("db", "file:" + h2Shop.getParent().resolve("does-not-exist"));
        long id = quarry.databases.create(missing).id;
        quarry.sync.syncInBackground(id).get();
        assertEquals("aborted", admin.get(200, "database/" + id).json().get("initial_sync_status").asText());
        assertTrue(quarry.sync.lastRun(id).error().startsWith("sync-metadata"));
        assertEquals("Database cannot be found.", admin.post(422, "database/" + id + "/sync_schema", null).body());
        assertEquals("{\"status\":\"ok\"}", admin.post(200, "database/" + id + "/dismiss_spinner", null).body());
        assertEquals("complete", admin.get(200, "database/" + id).json().get("initial_sync_status").asText());
        admin.delete(204, "database/" + id);
    }

    @Test
    void dismissingTheSpinnerCompletesTheDatabaseAndItsTables() {
        long id = admin.post(200, "database", Map.of("engine", "h2", "name", "Small shop",
                "details", Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        awaitSynced(quarry, admin, id);
        quarry.db.run(session -> {
            session.getMapper(WarehouseMapper.class).updateDatabaseSyncStatus(id, "incomplete");
            session.getMapper(SyncMapper.class).setTablesSyncStatus(id, null, "incomplete");
        });
        assertEquals("incomplete", admin.get(200, "database/" + id).json().get("initial_sync_status").asText());
        admin.post(200, "database/" + id + "/dismiss_spinner", null);
        assertEquals("complete", admin.get(200, "database/" + id).json().get("initial_sync_status").asText());
        assertTrue(quarry.db.with(WarehouseMapper.class, m -> m.listTables(id, false)).stream()
                .allMatch(t -> "complete".equals(t.initialSyncStatus)));
        admin.delete(204, "database/" + id);
    }
}
