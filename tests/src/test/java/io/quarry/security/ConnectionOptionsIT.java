package io.quarry.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.PostgresTargets;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue #25, item 8: {@code additional-options} by an allowlist each engine owns. JDBC options that read files, fetch
 * URLs, open proxies or load classes answer 400 naming {@code additional-options} (or {@code db} for H2), store
 * nothing and connect nowhere (a listener standing in for the server sees no connection); allowed options still
 * connect and take effect.
 */
class ConnectionOptionsIT {
    private static TestServer server;
    private static Api admin;

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of("MB_DB_CONNECTION_TIMEOUT_MS", "2000"));
        Api anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static int databases() {
        return server.quarry().databases.list().size();
    }

    @Test
    void optionsThatReachFilesUrlsProxiesOrClassesAreRefusedBeforeAnythingConnects() throws Exception {
        Map<String, List<String>> refused = Map.of(
                "mysql", List.of("trustCertificateKeyStoreUrl=file:///etc/passwd", "clientCertificateKeyStoreUrl=http%3A%2F%2Fevil.example.com%2Fks",
                        "serverRSAPublicKeyFile=/etc/passwd", "ociConfigFile=/etc/passwd", "socksProxyHost=evil.example.com",
                        "idTokenFile=/etc/passwd", "useConfigs=maxPerformance", "allowMultiQueries=true", "createDatabaseIfNotExist=true",
                        "tinyInt1isBit=false&allowLoadLocalInfileInPath=/", "TRUSTCERTIFICATEKEYSTOREURL=file:///etc/passwd"),
                "postgres", List.of("sslkey=/etc/passwd", "sslcert=/etc/passwd", "sslrootcert=/etc/passwd",
                        "sslfactory=org.postgresql.ssl.NonValidatingFactory", "socketFactory=x", "service=evil", "loggerFile=/tmp/x.jsp",
                        "xmlFactoryFactory=x", "localSocketAddress=127.0.0.1", "replication=database", "prepareThreshold=0&SSLKEY=/etc/passwd"));
        int before = databases();
        try (CountingListener listener = new CountingListener()) {
            refused.forEach((engine, options) -> {
                for (String option : options) {
                    Map<String, Object> details = listener.details("additional-options", option);
                    JsonNode created = admin.post(400, "database", Map.of("engine", engine, "name", "Evil", "details", details)).json();
                    assertTrue(created.get("errors").get("additional-options").asText().endsWith(" is not allowed."), engine + " " + option);
                    JsonNode validated = admin.post(400, "database/validate", Map.of("details",
                            Map.of("engine", engine, "details", details))).json();
                    assertTrue(validated.get("errors").has("additional-options"), engine + " " + option);
                }
            });
            assertEquals(0, listener.accepted(), "nothing connected");
        }
        assertEquals(before, databases(), "nothing stored");
    }

    @Test
    void anExistingDatabaseKeepsItsOptionsWhenARefusedOneIsSent() throws Exception {
        String name = PostgresTargets.create("options_kept");
        Map<String, Object> details = new LinkedHashMap<>(PostgresTargets.details(name));
        details.put("additional-options", "prepareThreshold=0");
        long id = admin.post(200, "database", Map.of("engine", "postgres", "name", "Kept", "details", details)).json().get("id").asLong();
        details.put("additional-options", "prepareThreshold=0&sslrootcert=/etc/passwd");
        assertEquals("The connection option sslrootcert is not allowed.", admin.put(400, "database/" + id,
                Map.of("details", details)).json().get("errors").get("additional-options").asText());
        assertEquals("prepareThreshold=0", server.quarry().databases.require(id).details.get("additional-options"));
    }

    @Test
    void allowedOptionsConnectAndTakeEffect() throws Exception {
        String name = PostgresTargets.create("options_allowed");
        PostgresTargets.execute(name, "CREATE SCHEMA sales");
        Map<String, Object> details = new LinkedHashMap<>(PostgresTargets.details(name));
        // as people paste them: percent-encoded, any case, a leading '?'
        details.put("additional-options", "?options=-c%20search_path%3Dsales&PREPARETHRESHOLD=0&ApplicationName=quarry-options-it");
        long id = admin.post(200, "database", Map.of("engine", "postgres", "name", "Allowed", "details", details)).json().get("id").asLong();
        JsonNode result = admin.post(202, "dataset", Map.of("database", id, "type", "native",
                "native", Map.of("query", "SELECT current_setting('search_path'), current_setting('application_name')"))).json();
        JsonNode row = result.get("data").get("rows").get(0);
        assertEquals("sales", row.get(0).asText());
        assertEquals("quarry-options-it", row.get(1).asText());

        // MySQL: an allowed option passes the gate and the connection is tried
        try (CountingListener listener = new CountingListener()) {
            admin.post(200, "database/validate", Map.of("engine", "mysql", "details",
                    listener.details("additional-options", "tinyInt1isBit=false&zeroDateTimeBehavior=CONVERT_TO_NULL")));
            assertTrue(listener.accepted() > 0);
        }
    }

    @Test
    void h2OptionsAreAllowlistedToo() throws Exception {
        Path shop = TargetDatabases.h2Shop();
        Path missing = shop.resolveSibling("created-by-attack");
        int before = databases();
        for (String db : List.of("file:" + shop + ";INIT=RUNSCRIPT FROM '/etc/passwd'", "file:" + shop + ";TRACE_LEVEL_FILE=3",
                "file:" + missing + ";USER=sa;PASSWORD=x\\", "file:" + missing + ";IFEXISTS=FALSE", "file:" + shop + ";AUTO_SERVER=TRUE")) {
            JsonNode refused = admin.post(400, "database", Map.of("engine", "h2", "name", "Evil", "details", Map.of("db", db))).json();
            assertTrue(refused.get("errors").has("db") || refused.get("errors").has("message"), db);
        }
        assertFalse(Files.exists(shop.resolveSibling("created-by-attack.mv.db")), "no database file created");
        assertEquals(before, databases(), "nothing stored");
        // allowed options connect
        Map<String, Object> details = Map.of("db", "file:" + shop + ";MODE=PostgreSQL;USER=" + TargetDatabases.H2_USER
                + ";PASSWORD=" + TargetDatabases.H2_PASSWORD);
        assertTrue(admin.post(200, "database/validate", Map.of("engine", "h2", "details", details)).json().get("valid").asBoolean());
    }
}
