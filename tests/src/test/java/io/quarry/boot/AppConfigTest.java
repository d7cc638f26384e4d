package io.quarry.boot;

import io.quarry.core.AppConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AppConfigTest {
    private static AppConfig of(Map<String, String> values) {
        return new AppConfig(values::get);
    }

    @Test
    void defaultsToAnH2FileBesideTheWorkingDirectory() {
        AppConfig config = of(Map.of());
        assertEquals(AppConfig.DbType.H2, config.dbType);
        assertEquals("jdbc:h2:file:" + Path.of("quarry.db").toAbsolutePath() + ";DB_CLOSE_ON_EXIT=FALSE", config.dbUrl);
        assertEquals(20160, config.maxSessionAgeMinutes);
        assertEquals("normal", config.passwordComplexity);
        assertNull(config.passwordLength);
        assertFalse(config.sessionThrottleDisabled);
    }

    @Test
    void acceptsTheH2FileWithOrWithoutItsSuffix() {
        assertEquals(of(Map.of("MB_DB_FILE", "/data/q")).dbUrl, of(Map.of("MB_DB_FILE", "/data/q.mv.db")).dbUrl);
    }

    @Test
    void limitsRequestBodiesTo16MibUnlessConfigured() {
        assertEquals(16L * 1024 * 1024, of(Map.of()).maxRequestBodyBytes);
        assertEquals(1000L, of(Map.of("MB_MAX_REQUEST_BODY_BYTES", "1000")).maxRequestBodyBytes);
        assertThrows(IllegalStateException.class, () -> of(Map.of("MB_MAX_REQUEST_BODY_BYTES", "0")));
        assertThrows(IllegalStateException.class, () -> of(Map.of("MB_MAX_REQUEST_BODY_BYTES", "lots")));
    }

    @Test
    void mapsPostgresFromSeparateVariables() {
        AppConfig config = of(Map.of("MB_DB_TYPE", "postgres", "MB_DB_HOST", "db.internal", "MB_DB_PORT", "6543",
                "MB_DB_DBNAME", "bi", "MB_DB_USER", "quarry", "MB_DB_PASS", "s3cret"));
        assertEquals(AppConfig.DbType.POSTGRES, config.dbType);
        assertEquals("jdbc:postgresql://db.internal:6543/bi", config.dbUrl);
        assertEquals("quarry", config.dbUser);
        assertEquals("s3cret", config.dbPassword);
    }

    @Test
    void mapsPostgresFromAConnectionUri() {
        AppConfig config = of(Map.of("MB_DB_TYPE", "postgres",
                "MB_DB_CONNECTION_URI", "postgres://bob:p%40ss@pg:5433/metabase?sslmode=require"));
        assertEquals("jdbc:postgresql://pg:5433/metabase?sslmode=require", config.dbUrl);
        assertEquals("bob", config.dbUser);
        assertEquals("p@ss", config.dbPassword);

        AppConfig queryCredentials = of(Map.of("MB_DB_TYPE", "postgres",
                "MB_DB_CONNECTION_URI", "postgresql://pg/metabase?user=amy&password=pw"));
        assertEquals("amy", queryCredentials.dbUser);
        assertEquals("pw", queryCredentials.dbPassword);

        AppConfig jdbc = of(Map.of("MB_DB_TYPE", "postgres", "MB_DB_CONNECTION_URI", "jdbc:postgresql://pg/x",
                "MB_DB_USER", "u"));
        assertEquals("jdbc:postgresql://pg/x", jdbc.dbUrl);
        assertEquals("u", jdbc.dbUser);
    }

    @Test
    void choosesJndiWhenANameIsGiven() {
        AppConfig config = of(Map.of("MB_DB_JNDI_NAME", "java:comp/env/jdbc/quarry"));
        assertEquals(AppConfig.DbType.JNDI, config.dbType);
        assertEquals("java:comp/env/jdbc/quarry", config.dbJndiName);
        assertThrows(IllegalStateException.class, () -> of(Map.of("MB_DB_TYPE", "jndi")));
    }

    @Test
    void rejectsUnknownTypesAndBadNumbers() {
        assertThrows(IllegalStateException.class, () -> of(Map.of("MB_DB_TYPE", "oracle")));
        assertThrows(IllegalStateException.class, () -> of(Map.of("MAX_SESSION_AGE", "soon")));
        assertThrows(IllegalStateException.class, () -> of(Map.of("MB_DB_TYPE", "postgres", "MB_DB_CONNECTION_URI", "mysql://x/y")));
    }

    @Test
    void readsSecurityOptions() {
        AppConfig config = of(Map.of("MAX_SESSION_AGE", "60", "MB_PASSWORD_COMPLEXITY", "STRONG", "MB_PASSWORD_LENGTH", "12",
                "MB_DISABLE_SESSION_THROTTLE", "true"));
        assertEquals(60, config.maxSessionAgeMinutes);
        assertEquals("strong", config.passwordComplexity);
        assertEquals(12, config.passwordLength);
        assertTrue(config.sessionThrottleDisabled);
        assertEquals(30, of(Map.of("MB_MAX_SESSION_AGE", "30")).maxSessionAgeMinutes);
    }

    @Test
    void emptyValuesCountAsUnset() {
        assertEquals(AppConfig.DbType.H2, of(Map.of("MB_DB_TYPE", "")).dbType);
    }

    @Test
    void initParamsWinOverSystemPropertiesAndEnvironment() {
        System.setProperty("QUARRY_TEST_LAYER", "from-property");
        try {
            assertEquals("from-init-param", AppConfig.layered(Map.of("QUARRY_TEST_LAYER", "from-init-param")).apply("QUARRY_TEST_LAYER"));
            assertEquals("from-property", AppConfig.layered(Map.of()).apply("QUARRY_TEST_LAYER"));
        } finally {
            System.clearProperty("QUARRY_TEST_LAYER");
        }
    }
}
