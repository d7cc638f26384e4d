package io.quarry.qp.mbql;

import io.quarry.driver.Driver;
import io.quarry.driver.Drivers;
import io.quarry.driver.SqlDialect;
import java.util.Locale;
import java.util.Map;

/**
 * The dialect for an engine key, for the compiler's tests (no running Quarry). The compiler itself gets the dialect
 * from the database's driver ({@link Driver#dialect()}); the engines are the ones {@link Drivers#standard()} lists.
 * Main code has no engine-key switch of its own: this lives with the tests that need one.
 */
public final class MbqlDialects {
    /** Engine keys other tools use for the same engines. */
    private static final Map<String, String> ALIASES = Map.of("postgresql", "postgres", "mariadb", "mysql");
    private static final Drivers STANDARD = Drivers.standard();

    private MbqlDialects() {
    }

    /** The dialect of an engine; null when Quarry cannot compile structured queries for it. */
    public static SqlDialect forEngine(String engine) {
        if (engine == null) {
            return null;
        }
        String key = engine.toLowerCase(Locale.ROOT);
        Driver driver = STANDARD.find(ALIASES.getOrDefault(key, key));
        return driver == null ? null : driver.dialect();
    }
}
