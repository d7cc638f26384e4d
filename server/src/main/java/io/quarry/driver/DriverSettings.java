package io.quarry.driver;

import static io.quarry.setting.Setting.Type.INTEGER;
import static io.quarry.setting.Setting.Type.JSON;
import static io.quarry.setting.Setting.Visibility.INTERNAL;
import static io.quarry.setting.Setting.Visibility.PUBLIC;

import io.quarry.setting.Setting;
import io.quarry.setting.Settings;

/** Settings of connected databases' engines. */
public final class DriverSettings {
    /** Metabase's default: a connection attempt may take ten seconds. */
    public static final long DEFAULT_CONNECTION_TIMEOUT_MS = 10_000;

    private DriverSettings() {
    }

    public static void register(Settings settings, Drivers drivers) {
        settings.register(
                // engine key → name and connection form, as clients build their "add a database" forms from it
                Setting.of("engines", JSON).visibility(PUBLIC).computed(drivers::describe).build(),
                Setting.of("db-connection-timeout-ms", INTEGER).visibility(INTERNAL).defaultValue(DEFAULT_CONNECTION_TIMEOUT_MS)
                        .description("How long a connection test may take, in milliseconds "
                                + "(MB_DB_CONNECTION_TIMEOUT_MS).").build(),
                Setting.of("jdbc-data-warehouse-max-connection-pool-size", INTEGER).visibility(INTERNAL)
                        .defaultValue((long) DatabasePools.DEFAULT_MAX_POOL_SIZE)
                        .description("Maximum size of the connection pool of each connected database "
                                + "(MB_JDBC_DATA_WAREHOUSE_MAX_CONNECTION_POOL_SIZE); a changed size applies to pools built after "
                                + "the change.").build());
    }

    /** The configured size of a connected database's pool; Metabase's 15 when unset or not positive. */
    public static int maxPoolSize(Settings settings) {
        Long value = settings.integer("jdbc-data-warehouse-max-connection-pool-size");
        return value == null || value <= 0 ? DatabasePools.DEFAULT_MAX_POOL_SIZE : (int) Math.min(value, 1000);
    }

    /** The configured connection-test timeout. */
    public static long connectionTimeoutMillis(Settings settings) {
        Long value = settings.integer("db-connection-timeout-ms");
        return value == null || value <= 0 ? DEFAULT_CONNECTION_TIMEOUT_MS : value;
    }
}
