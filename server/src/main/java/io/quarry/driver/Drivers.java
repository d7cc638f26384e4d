package io.quarry.driver;

import io.quarry.driver.duckdb.DuckDbDriver;
import io.quarry.driver.h2.H2Driver;
import io.quarry.driver.mysql.MySqlDriver;
import io.quarry.driver.postgres.PostgresDriver;
import io.quarry.driver.sqlite.SqliteDriver;
import io.quarry.web.error.ApiException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** The engine registry: every driver Quarry ships, by engine key. */
public final class Drivers {
    private final Map<String, Driver> byEngine = new LinkedHashMap<>();

    public Drivers(List<Driver> drivers) {
        for (Driver driver : drivers) {
            byEngine.put(driver.engine(), driver);
        }
    }

    /** Every engine Quarry ships. */
    public static Drivers standard() {
        return standard(null);
    }

    /**
     * Every engine Quarry ships — the one list of engines: each lives in its own package ({@code io.quarry.driver.h2},
     * ...) with its dialect — the H2 driver refusing {@code appDatabaseUrl}'s file when the application database
     * is H2 (see {@link H2Driver#fileOf(String)}).
     */
    public static Drivers standard(String appDatabaseUrl) {
        return new Drivers(List.of(new H2Driver(H2Driver.fileOf(appDatabaseUrl)), new PostgresDriver(), new MySqlDriver(),
                new SqliteDriver(), new DuckDbDriver()));
    }

    public Collection<Driver> all() {
        return byEngine.values();
    }

    /** The driver for an engine key; 400 "value must be a valid database engine." when there is none. */
    public Driver require(String engine) {
        Driver driver = engine == null ? null : byEngine.get(engine);
        if (driver == null) {
            throw ApiException.invalidField("engine", "value must be a valid database engine.");
        }
        return driver;
    }

    /** Lets every driver release what it keeps JVM-wide (called when Quarry stops). */
    public void release() {
        for (Driver driver : byEngine.values()) {
            try {
                driver.release();
            } catch (RuntimeException | LinkageError e) {
                org.slf4j.LoggerFactory.getLogger(Drivers.class).warn("Releasing the {} driver failed: {}", driver.engine(), e.toString());
            }
        }
    }

    public Driver find(String engine) {
        return byEngine.get(engine);
    }

    /** The {@code engines} setting: engine key → name and connection form. */
    public Map<String, Object> describe() {
        Map<String, Object> engines = new LinkedHashMap<>();
        for (Driver driver : byEngine.values()) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("driver-name", driver.displayName());
            d.put("details-fields", driver.detailFields().stream().map(DetailField::toJson).toList());
            d.put("source", Map.of("type", "official"));
            d.put("superseded-by", null);
            engines.put(driver.engine(), d);
        }
        return engines;
    }

    /**
     * Opens one connection outside any pool (to validate details), through the driver class itself rather than
     * DriverManager, so that drivers in Quarry's own class loader are found in any container. Time limits are the
     * spec's own properties (see {@link Driver#applyTimeouts}); {@link ConnectionTester} bounds the wait as well.
     */
    public static Connection open(Driver.ConnectionSpec spec) throws SQLException {
        try {
            java.sql.Driver jdbc = (java.sql.Driver) Class.forName(spec.driverClass(), true, Drivers.class.getClassLoader())
                    .getDeclaredConstructor().newInstance();
            Properties properties = new Properties();
            properties.putAll(spec.properties());
            Connection connection = jdbc.connect(spec.url(), properties);
            if (connection == null) {
                throw new SQLException("The " + spec.driverClass() + " driver does not accept the connection URL");
            }
            return connection;
        } catch (ReflectiveOperationException e) {
            throw new SQLException("JDBC driver " + spec.driverClass() + " is not available", e);
        }
    }
}
