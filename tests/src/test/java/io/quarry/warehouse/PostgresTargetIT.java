package io.quarry.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real PostgreSQL target: a database and a password-protected role created in the embedded PostgreSQL server of the
 * tests. The embedded server trusts every local connection, so the role is made to authenticate with SCRAM by a line
 * of its own at the top of pg_hba.conf (no other role is affected) — otherwise no password could ever be wrong.
 */
class PostgresTargetIT {
    private static final String ROLE = "quarry_reader_" + ProcessHandle.current().pid();
    private static final String DATABASE = "quarry_target_" + ProcessHandle.current().pid();
    private static final String PASSWORD = "Reader-pw-42";

    private static TestServer server;
    private static Api api;
    private static String admin;
    private static String plain;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        EmbeddedPostgres pg = TestAppDb.postgres();
        port = pg.getPort();
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + DATABASE);
            s.execute("DROP ROLE IF EXISTS " + ROLE);
            s.execute("CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + PASSWORD + "'");
            s.execute("CREATE DATABASE " + DATABASE + " OWNER " + ROLE);
            requirePasswordFor(s, ROLE);
        }
        try (Connection c = pg.getDatabase("postgres", DATABASE).getConnection(); Statement s = c.createStatement()) {
            s.execute("SET ROLE " + ROLE);
            s.execute("CREATE TABLE customers (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, email VARCHAR(200), "
                    + "joined_at TIMESTAMPTZ, profile JSONB, token UUID, balance NUMERIC(12,2), active BOOLEAN, tags TEXT[])");
            s.execute("CREATE SCHEMA sales");
            s.execute("CREATE TABLE sales.orders (id SERIAL PRIMARY KEY, customer_id BIGINT REFERENCES customers(id), "
                    + "placed_at TIMESTAMP, total DOUBLE PRECISION)");
            s.execute("INSERT INTO customers (name, email) VALUES ('Ada', 'ada@example.com')");
        }
        server = TestServer.start(Map.of("MB_DB_CONNECTION_TIMEOUT_MS", "4000"));
        api = server.api();
        admin = Fixtures.setUp(api);
        plain = Targets.plainUser(api, admin, "pg-reader@example.com");
    }

    /** Puts "host all ROLE ... scram-sha-256" lines first in pg_hba.conf, reloads, and waits until they are in force. */
    private static void requirePasswordFor(Statement s, String role) throws Exception {
        Path hba;
        try (ResultSet rs = s.executeQuery("SHOW hba_file")) {
            rs.next();
            hba = Path.of(rs.getString(1));
        }
        String lines = "host all " + role + " 127.0.0.1/32 scram-sha-256\nhost all " + role + " ::1/128 scram-sha-256\n";
        String current = Files.readString(hba);
        if (!current.startsWith(lines)) {
            Files.writeString(hba, lines + current);
        }
        s.execute("SELECT pg_reload_conf()");
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try (Connection ignored = connect("wrong-password")) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("pg_hba.conf change did not take effect");
                }
                Thread.sleep(100);
            } catch (SQLException expected) {
                return;
            }
        }
    }

    private static Connection connect(String password) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", ROLE);
        props.setProperty("password", password);
        return new org.postgresql.Driver().connect("jdbc:postgresql://localhost:" + port + "/" + DATABASE, props);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static Map<String, Object> details(Object... overrides) {
        Map<String, Object> details = new HashMap<>(Map.of("host", "localhost", "port", port, "dbname", DATABASE, "user", ROLE,
                "password", PASSWORD));
        for (int i = 0; i < overrides.length; i += 2) {
            details.put((String) overrides[i], overrides[i + 1]);
        }
        return details;
    }

    private static JsonNode validate(Map<String, Object> details) {
        return api.as(admin).post(200, "database/validate", Map.of("details", Map.of("engine", "postgres", "details", details))).json();
    }

    @Test
    void validationBlamesEachFieldForWhatIsWrong() throws Exception {
        assertTrue(validate(details()).get("valid").asBoolean());
        assertThrows(SQLException.class, () -> connect("wrong").close(), "the role really needs its password");

        JsonNode password = validate(details("password", "wrong"));
        assertFalse(password.get("valid").asBoolean());
        assertEquals("Looks like your Password is incorrect.", password.get("message").asText());
        assertEquals(Map.of("password", "check your password"), Map.of("password", password.get("errors").get("password").asText()));
        assertEquals(1, password.get("errors").size());

        JsonNode dbname = validate(details("dbname", "no_such_database"));
        assertEquals("Looks like the Database name is incorrect.", dbname.get("message").asText());
        assertEquals("check your database name settings", dbname.get("errors").get("dbname").asText());

        JsonNode user = validate(details("user", "nobody_at_all"));
        assertEquals("check your username", user.get("errors").get("user").asText());

        JsonNode closed = validate(details("port", Targets.closedPort()));
        assertEquals("check your host settings", closed.get("errors").get("host").asText());
        assertEquals("check your port settings", closed.get("errors").get("port").asText());

        JsonNode host = validate(details("host", "no-such-host.invalid"));
        assertEquals("check your host settings", host.get("errors").get("host").asText());

        // POST /api/database answers the same explanation with a 400, and stores nothing
        long before = Targets.countDatabases(server);
        JsonNode refused = api.as(admin).post(400, "database", Map.of("engine", "postgres", "name", "Bad", "details", details("password", "nope")))
                .json();
        assertEquals("check your password", refused.get("errors").get("password").asText());
        assertFalse(refused.has("valid"));
        assertEquals(before, Targets.countDatabases(server));
    }

    @Test
    void aPostgresDatabaseIsAddedSyncedRedactedUpdatedAndDeleted() throws Exception {
        JsonNode created = api.as(admin).post(200, "database", Map.of("engine", "postgres", "name", "Warehouse", "details", details())).json();
        long id = created.get("id").asLong();
        assertEquals(DatabaseViews.REDACTED, created.get("details").get("password").asText());
        assertEquals(ROLE, created.get("details").get("user").asText());
        Targets.sync(server, id);

        List<Table> tables = Targets.tables(server, id);
        assertEquals(List.of("public.customers", "sales.orders"), tables.stream().map(t -> t.schemaName + "." + t.name).sorted().toList());
        List<Field> fields = Targets.fields(server, id);
        assertEquals("type/DateTimeWithLocalTZ", Targets.field(fields, "joined_at").baseType);
        assertEquals("type/DateTime", Targets.field(fields, "placed_at").baseType);
        assertEquals("type/JSON", Targets.field(fields, "profile").baseType);
        assertEquals("type/UUID", Targets.field(fields, "token").baseType);
        assertEquals("type/Decimal", Targets.field(fields, "balance").baseType);
        assertEquals("type/Boolean", Targets.field(fields, "active").baseType);
        assertEquals("type/Array", Targets.field(fields, "tags").baseType);
        assertEquals("type/BigInteger", Targets.field(fields, "customer_id").baseType);
        assertEquals("type/FK", Targets.field(fields, "customer_id").semanticType);
        assertTrue(Targets.dbmsVersion(server, id).startsWith("PostgreSQL"));

        // a non-admin sees no details; the response never carries the password
        JsonNode seen = api.as(plain).get(200, "database/" + id).json();
        assertFalse(seen.has("details"));
        assertFalse(api.as(admin).get(200, "database/" + id).body().contains(PASSWORD));

        // the placeholder keeps the password; a bad port is tried and refused without being stored
        JsonNode renamed = api.as(admin).put(200, "database/" + id, Map.of("name", "Warehouse 2", "details",
                details("password", DatabaseViews.REDACTED))).json();
        assertEquals("Warehouse 2", renamed.get("name").asText());
        assertEquals(PASSWORD, server.quarry().databases.require(id).details.get("password"));
        int closedPort = Targets.closedPort();
        JsonNode badPort = api.as(admin).put(400, "database/" + id, Map.of("details", Map.of("port", closedPort))).json();
        assertEquals("check your port settings", badPort.get("errors").get("port").asText());
        assertEquals(port, ((Number) server.quarry().databases.require(id).details.get("port")).intValue());

        assertTrue(api.as(admin).get(200, "util/diagnostic_info/connection_pool_info").json().get("connection-pools").has("db-" + id));
        api.as(admin).delete(204, "database/" + id);
        assertFalse(server.quarry().databasePools.isOpen(id));
    }
}
