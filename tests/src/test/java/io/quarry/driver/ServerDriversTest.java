package io.quarry.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.driver.mysql.MySqlDriver;
import io.quarry.driver.postgres.PostgresDriver;
import io.quarry.web.error.ApiException;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * PostgreSQL and MySQL connection building and failure explanations. MySQL has no server here: its URL, options and
 * explanations are checked against the real Connector/J driver failing for real (closed port, unknown host, a server
 * that never answers) and against the error codes MySQL answers.
 */
class ServerDriversTest {
    private static final MySqlDriver MYSQL = new MySqlDriver();
    private static final PostgresDriver POSTGRES = new PostgresDriver();

    private static Map<String, Object> details(Object... pairs) {
        Map<String, Object> details = new HashMap<>(Map.of("host", "db.example.com", "dbname", "shop", "user", "ada",
                "password", "s3cret"));
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] == null) {
                details.remove((String) pairs[i]);
            } else {
                details.put((String) pairs[i], pairs[i + 1]);
            }
        }
        return details;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> errorsOf(Runnable call) {
        ApiException e = assertThrows(ApiException.class, call::run);
        assertEquals(400, e.status());
        return (Map<String, Object>) e.body().get("errors");
    }

    @Test
    void mysqlUrlCarriesOnlyHostPortAndDatabase() {
        Driver.ConnectionSpec spec = MYSQL.connectionSpec(details("dbname", "my shop/?x=1", "port", "3307"));
        assertEquals("com.mysql.cj.jdbc.Driver", spec.driverClass());
        assertEquals("jdbc:mysql://db.example.com:3307/my%20shop%2F%3Fx%3D1", spec.url());
        assertEquals("ada", spec.properties().getProperty("user"));
        assertEquals("s3cret", spec.properties().getProperty("password"));
        assertFalse(spec.url().contains("s3cret"), "the password never goes into the URL");
        assertEquals("PREFERRED", spec.properties().getProperty("sslMode"));
        assertEquals("false", spec.properties().getProperty("allowLoadLocalInfile"));
        assertEquals("false", spec.properties().getProperty("autoDeserialize"));
        assertEquals("jdbc:mysql://db.example.com:3306/shop", MYSQL.connectionSpec(details()).url(), "default port");
        assertEquals("REQUIRED", MYSQL.connectionSpec(details("ssl", true)).properties().getProperty("sslMode"));
        assertEquals("jdbc:mysql://[::1]:3306/shop", MYSQL.connectionSpec(details("host", "::1")).url());
    }

    @Test
    void additionalOptionsBecomePropertiesNotUrlText() {
        Driver.ConnectionSpec spec = MYSQL.connectionSpec(details("additional-options", "tinyInt1isBit=false&serverTimezone=Europe%2FParis"));
        assertEquals("false", spec.properties().getProperty("tinyInt1isBit"));
        assertEquals("Europe/Paris", spec.properties().getProperty("serverTimezone"));
        assertEquals("jdbc:mysql://db.example.com:3306/shop", spec.url());
        // the engine's safety settings are not the user's to change
        spec = MYSQL.connectionSpec(details("additional-options", "sslMode=DISABLED&connectTimeout=2000"));
        assertEquals("DISABLED", spec.properties().getProperty("sslMode"), "a default may be changed");
        assertEquals("2000", spec.properties().getProperty("connectTimeout"));
        Driver.ConnectionSpec pg = POSTGRES.connectionSpec(details("additional-options", "?prepareThreshold=0&options=-c%20search_path%3Dsales"));
        assertEquals("0", pg.properties().getProperty("prepareThreshold"));
        assertEquals("-c search_path=sales", pg.properties().getProperty("options"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"autoDeserialize=true", "allowLoadLocalInfile=true", "allowLoadLocalInfileInPath=/", "allowUrlInLocalInfile=true",
            "queryInterceptors=com.evil.X", "exceptionInterceptors=x", "socketFactory=com.evil.F", "propertiesTransform=x",
            "authenticationPlugins=x", "defaultAuthenticationPlugin=x", "logger=com.evil.L", "profilerEventHandler=x",
            "clientInfoProvider=x", "ha.loadBalanceStrategy=x", "loadBalanceExceptionChecker=x", "password=x", "user=root",
            "sslfactory=org.postgresql.ssl.NonValidatingFactory&a=b", "sslhostnameverifier=x", "sslpasswordcallback=x",
            "loggerFile=/tmp/evil.jsp", "loggerLevel=DEBUG", "authenticationPluginClassName=x", "socketFactoryArg=x",
            "PGHOST=evil", "a=1&AutoDeserialize=TRUE", "bad key=1", "=1", "a=%zz"})
    void dangerousOrMalformedOptionsAreRefused(String options) {
        Map<String, Object> errors = errorsOf(() -> MYSQL.connectionSpec(details("additional-options", options)));
        assertTrue(errors.containsKey("additional-options"), options);
        errors = errorsOf(() -> POSTGRES.connectionSpec(details("additional-options", options)));
        assertTrue(errors.containsKey("additional-options"), options);
    }

    @ParameterizedTest
    @ValueSource(strings = {"evil.com/other?user=root", "a@b", "host name", "db.example.com:5432", "h;x=1", "[::1", "::1]", "-x"})
    void hostsAreHostNamesOrAddresses(String host) {
        assertEquals("value must be a host name or an IP address.", errorsOf(() -> POSTGRES.connectionSpec(details("host", host))).get("host"));
    }

    @Test
    void portsDatabaseAndUserAreChecked() {
        for (Object port : List.of(0, 70000, "abc", -1, 3.5, "99999")) {
            assertEquals("value must be an integer between 1 and 65535.", errorsOf(() -> MYSQL.connectionSpec(details("port", port))).get("port"));
        }
        assertEquals(6543, Integer.parseInt(POSTGRES.connectionSpec(details("port", "6543")).url().replaceAll(".*:(\\d+)/.*", "$1")));
        assertEquals("value must be a non-blank string.", errorsOf(() -> MYSQL.connectionSpec(details("dbname", " "))).get("dbname"));
        assertEquals("value must be a non-blank string.", errorsOf(() -> MYSQL.connectionSpec(details("user", null))).get("user"));
        assertEquals("value must be a non-blank string.", errorsOf(() -> MYSQL.connectionSpec(details("host", null))).get("host"));
    }

    @Test
    void postgresSslAndApplicationName() {
        Driver.ConnectionSpec plain = POSTGRES.connectionSpec(details());
        assertEquals("jdbc:postgresql://db.example.com:5432/shop", plain.url());
        assertEquals("disable", plain.properties().getProperty("sslmode"));
        assertEquals("Quarry", plain.properties().getProperty("ApplicationName"));
        Driver.ConnectionSpec ssl = POSTGRES.connectionSpec(details("ssl", "true", "ssl-mode", "verify-full"));
        assertEquals("verify-full", ssl.properties().getProperty("sslmode"));
        assertEquals("require", POSTGRES.connectionSpec(details("ssl", true)).properties().getProperty("sslmode"));
        assertTrue(errorsOf(() -> POSTGRES.connectionSpec(details("ssl", true, "ssl-mode", "bogus"))).containsKey("ssl-mode"));
    }

    @Test
    void mysqlFailuresAreExplainedPerField() throws Exception {
        Map<String, Object> closed = details("host", "127.0.0.1", "port", freePort());
        SQLException refused = assertThrows(SQLException.class, () -> Drivers.open(MYSQL.connectionSpec(closed)));
        assertEquals(ConnectionErrors.hostAndPort(), MYSQL.explainConnectionFailure(refused, closed));

        Map<String, Object> unknown = details("host", "no-such-host.invalid");
        SQLException unresolved = assertThrows(SQLException.class, () -> Drivers.open(MYSQL.connectionSpec(unknown)));
        assertEquals(Map.of("message", "It looks like your Host is invalid. Please double-check it and try again.",
                "host", "check your host settings"), MYSQL.explainConnectionFailure(unresolved, unknown));

        // what a MySQL server answers (error code, SQL state, text), as Connector/J reports it
        assertEquals(Map.of("message", "Looks like the Username or Password is incorrect.", "user", "check your username",
                        "password", "check your password"),
                MYSQL.explainConnectionFailure(new SQLException("Access denied for user 'ada'@'10.0.0.2' (using password: YES)",
                        "28000", 1045), details()));
        assertEquals(Map.of("message", "Looks like the Database name is incorrect.", "dbname", "check your database name settings"),
                MYSQL.explainConnectionFailure(new SQLException("Unknown database 'shop'", "42000", 1049), details()));
        assertEquals("please enable SSL", MYSQL.explainConnectionFailure(new SQLException(
                "Connections using insecure transport are prohibited while --require_secure_transport=ON.", "HY000", 3159), details()).get("ssl"));
    }

    @Test
    void postgresFailuresAreExplainedPerField() {
        assertEquals(ConnectionErrors.password(), POSTGRES.explainConnectionFailure(
                new SQLException("FATAL: password authentication failed for user \"ada\"", "28P01"), details()));
        assertEquals(ConnectionErrors.passwordRequired(), POSTGRES.explainConnectionFailure(
                new SQLException("The server requested SCRAM-based authentication, but no password was provided.", "08004"), details("password", null)));
        assertEquals(ConnectionErrors.databaseName(), POSTGRES.explainConnectionFailure(
                new SQLException("FATAL: database \"shop\" does not exist", "3D000"), details()));
        assertEquals(ConnectionErrors.user(), POSTGRES.explainConnectionFailure(
                new SQLException("FATAL: role \"ada\" does not exist", "28000"), details()));
        assertEquals(ConnectionErrors.requiresSsl(), POSTGRES.explainConnectionFailure(
                new SQLException("FATAL: no pg_hba.conf entry for host \"10.0.0.2\", user \"ada\", database \"shop\", no encryption", "28000"), details()));
    }

    /** A server that accepts connections and never says a word: the test gives up in bounded time, host and port to blame. */
    @Test
    void aServerThatNeverAnswersCannotHoldTheCaller() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            List<Socket> accepted = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept());
                    }
                } catch (IOException closed) {
                    // test over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            ConnectionTester tester = new ConnectionTester(Drivers.standard(), () -> 1_500);
            for (String engine : List.of("mysql", "postgres")) {
                long started = System.nanoTime();
                ConnectionTester.Failure failure = tester.test(engine, details("host", "127.0.0.1", "port", silent.getLocalPort()));
                long millis = (System.nanoTime() - started) / 1_000_000;
                assertTrue(millis < 6_000, engine + " took " + millis + " ms");
                assertEquals(Map.of("host", "check your host settings", "port", "check your port settings"), failure.errors(), engine);
            }
            for (Socket s : accepted) {
                s.close();
            }
        }
    }

    @Test
    void dialectsQuoteTheirWay() {
        assertEquals("`my``table`", MYSQL.dialect().quote("my`table"));
        assertEquals("`shop`.`orders`", MYSQL.dialect().qualify("shop", "orders"));
        assertEquals("`orders`", MYSQL.dialect().qualify(null, "orders"));
        assertEquals("\"public\".\"Order \"\"x\"\"\"", POSTGRES.dialect().qualify("public", "Order \"x\""));
        assertEquals("LIMIT 10", MYSQL.dialect().limit(10));
    }

    @Test
    void baseTypesFollowTheServersTypeNames() {
        assertEquals("type/DateTimeWithLocalTZ", POSTGRES.baseType(Types.TIMESTAMP, "timestamptz"));
        assertEquals("type/DateTime", POSTGRES.baseType(Types.TIMESTAMP, "timestamp"));
        assertEquals("type/JSON", POSTGRES.baseType(Types.OTHER, "jsonb"));
        assertEquals("type/UUID", POSTGRES.baseType(Types.OTHER, "uuid"));
        assertEquals("type/Array", POSTGRES.baseType(Types.ARRAY, "_int4"));
        assertEquals("type/Boolean", POSTGRES.baseType(Types.BIT, "bool"));
        assertEquals("type/BigInteger", POSTGRES.baseType(Types.BIGINT, "bigserial"));
        assertEquals("type/Text", POSTGRES.baseType(Types.OTHER, "citext"));
        assertEquals("type/Decimal", POSTGRES.baseType(Types.NUMERIC, "numeric"));
        assertEquals("type/DateTimeWithLocalTZ", MYSQL.baseType(Types.TIMESTAMP, "TIMESTAMP"));
        assertEquals("type/DateTime", MYSQL.baseType(Types.TIMESTAMP, "DATETIME"));
        assertEquals("type/Boolean", MYSQL.baseType(Types.BIT, "TINYINT"));
        assertEquals("type/Integer", MYSQL.baseType(Types.TINYINT, "TINYINT"));
        assertEquals("type/JSON", MYSQL.baseType(Types.LONGVARCHAR, "JSON"));
        assertEquals("type/Decimal", MYSQL.baseType(Types.BIGINT, "BIGINT UNSIGNED"));
        assertEquals("type/BigInteger", MYSQL.baseType(Types.INTEGER, "INT UNSIGNED"));
        assertEquals("type/Text", MYSQL.baseType(Types.CHAR, "ENUM"));
        assertEquals("type/Date", MYSQL.baseType(Types.DATE, "YEAR"));
    }

    @Test
    void systemSchemasAreSkipped() {
        assertTrue(POSTGRES.systemSchemas().containsAll(List.of("pg_catalog", "information_schema")));
        assertTrue(MYSQL.systemSchemas().containsAll(List.of("mysql", "performance_schema", "sys", "information_schema")));
        assertTrue(POSTGRES.supports(Feature.SCHEMAS));
        assertFalse(MYSQL.supports(Feature.SCHEMAS));
        assertFalse(MYSQL.supports(Feature.FULL_JOIN));
    }

    @Test
    void theRegistryDescribesEveryEngine() {
        Drivers drivers = Drivers.standard();
        Map<String, Object> engines = drivers.describe();
        assertEquals(List.of("h2", "postgres", "mysql", "sqlite", "duckdb"), List.copyOf(engines.keySet()));
        @SuppressWarnings("unchecked")
        Map<String, Object> mysql = (Map<String, Object>) engines.get("mysql");
        assertEquals("MySQL", mysql.get("driver-name"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> fields = (List<Map<String, Object>>) mysql.get("details-fields");
        assertEquals(List.of("host", "port", "dbname", "user", "password", "ssl", "additional-options"),
                fields.stream().map(f -> f.get("name")).toList());
        assertEquals("password", fields.get(4).get("type"));
        assertEquals(3306, fields.get(1).get("default"));
        assertTrue(MYSQL.isSecret("password"));
        assertFalse(MYSQL.isSecret("user"));
        assertNull(drivers.find("oracle"));
        assertEquals("value must be a valid database engine.",
                ((Map<?, ?>) assertThrows(ApiException.class, () -> drivers.require("oracle")).body().get("errors")).get("engine"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"trustCertificateKeyStoreUrl=file:///etc/passwd", "clientCertificateKeyStoreUrl=http://evil/ks",
            "serverRSAPublicKeyFile=/etc/passwd", "ociConfigFile=/etc/passwd", "socksProxyHost=evil", "idTokenFile=/x",
            "useConfigs=x", "allowMultiQueries=true", "createDatabaseIfNotExist=true", "sslkey=/etc/passwd",
            "sslcert=/etc/passwd", "sslrootcert=/etc/passwd", "service=x", "localSocketAddress=1.2.3.4", "replication=true"})
    void optionsReachingFilesUrlsOrProxiesAreNotOnEitherAllowlist(String options) {
        assertTrue(errorsOf(() -> MYSQL.connectionSpec(details("additional-options", options))).containsKey("additional-options"));
        assertTrue(errorsOf(() -> POSTGRES.connectionSpec(details("additional-options", options))).containsKey("additional-options"));
    }

    /** Each allowed option is one the JDBC driver knows (a typo would allow nothing, or something else later). */
    @Test
    void everyAllowedOptionIsAPropertyOfTheEnginesDriver() {
        for (String option : MYSQL.allowedConnectionOptions()) {
            // useUnicode: gone from Connector/J 8 (always on) but still pasted from old examples; ignored by the driver
            assertTrue(com.mysql.cj.conf.PropertyKey.fromValue(option) != null || option.equals("useUnicode"), option);
        }
        for (String option : POSTGRES.allowedConnectionOptions()) {
            assertTrue(org.postgresql.PGProperty.forName(option) != null, option);
        }
        // and in the driver's own spelling, whatever the case a person typed
        assertEquals("0", POSTGRES.connectionSpec(details("additional-options", "PREPARETHRESHOLD=0")).properties().getProperty("prepareThreshold"));
    }
}
