package io.quarry.warehouse;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A running server with the H2 shop connected and synced, an administrator and an ordinary user: what the metadata
 * browsing tests share. Beside the shop's CUSTOMERS and ORDERS it has a second schema (ARCHIVE, whose OLD_ORDERS has an
 * FK BUYER_REF to CUSTOMERS), an empty schema,
 * a table to hide (SECRETS) and a wide table (WIDE: 60 columns COL_1..COL_60 and a COLX5 decoy for LIKE escaping).
 */
final class BrowseShop implements AutoCloseable {
    static final String USER_EMAIL = "rasta@example.com";
    static final String USER_PASSWORD = "Toucan-lover-31";

    final TestServer server;
    final Api api;
    final String admin;
    final String user;
    final Path file;
    final long dbId;

    private BrowseShop(TestServer server, String admin, String user, Path file, long dbId) {
        this.server = server;
        this.api = server.api();
        this.admin = admin;
        this.user = user;
        this.file = file;
        this.dbId = dbId;
    }

    static BrowseShop start() throws Exception {
        TestServer server = TestServer.start();
        Api api = server.api();
        String admin = Fixtures.setUp(api);
        api.as(admin).post(200, "user", map("email", USER_EMAIL, "first_name", "Rasta", "last_name", "Toucan",
                "password", USER_PASSWORD));
        String user = Fixtures.login(api, USER_EMAIL, USER_PASSWORD);

        Path file = TargetDatabases.h2Shop();
        StringBuilder wide = new StringBuilder("CREATE TABLE WIDE (ID INT PRIMARY KEY");
        for (int i = 1; i <= 60; i++) {
            wide.append(", COL_").append(i).append(" INT");
        }
        wide.append(", COLX5 INT)");
        TargetDatabases.h2Execute(file,
                "CREATE SCHEMA ARCHIVE",
                "CREATE TABLE ARCHIVE.OLD_ORDERS (ID INT PRIMARY KEY, NOTE VARCHAR(100), BUYER_REF BIGINT REFERENCES PUBLIC.CUSTOMERS(ID))",
                "CREATE SCHEMA EMPTY_ONE",
                "CREATE TABLE SECRETS (ID INT PRIMARY KEY, TOKEN VARCHAR(50), ZZ_QUUX INT)",
                wide.toString());
        long id = api.as(admin).post(200, "database", map("engine", "h2", "name", "Shop",
                "details", map("db", "file:" + file, "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(id).get();
        return new BrowseShop(server, admin, user, file, id);
    }

    /** Syncs the shop again (after the test changed its schema or its metadata). */
    void resync() throws Exception {
        server.quarry().sync.syncInBackground(dbId).get();
    }

    long tableId(String name) {
        for (JsonNode t : api.as(admin).get(200, "database/" + dbId + "/metadata", "include_hidden", "true").json().get("tables")) {
            if (t.get("name").asText().equals(name)) {
                return t.get("id").asLong();
            }
        }
        throw new AssertionError("no table " + name);
    }

    long fieldId(String table, String field) {
        for (JsonNode f : api.as(admin).get(200, "table/" + tableId(table) + "/query_metadata",
                "include_hidden_fields", "true", "include_sensitive_fields", "true").json().get("fields")) {
            if (f.get("name").asText().equals(field)) {
                return f.get("id").asLong();
            }
        }
        throw new AssertionError("no field " + table + "." + field);
    }

    /** A map that keeps its order and accepts nulls (to send JSON null). */
    static Map<String, Object> map(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], pairs[i + 1]);
        }
        return m;
    }

    @Override
    public void close() {
        server.close();
    }
}
