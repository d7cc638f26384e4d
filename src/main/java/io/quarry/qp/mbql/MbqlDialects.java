package io.quarry.qp.mbql;

import java.util.Locale;

/** The dialect for a database's engine key. */
public final class MbqlDialects {
    private MbqlDialects() {
    }

    /** The dialect of an engine; null when Quarry cannot compile structured queries for it. */
    public static MbqlDialect forEngine(String engine) {
        if (engine == null) {
            return null;
        }
        return switch (engine.toLowerCase(Locale.ROOT)) {
            case "h2" -> new H2Dialect();
            case "postgres", "postgresql" -> new PostgresDialect();
            case "mysql", "mariadb" -> new MySqlDialect();
            case "sqlite" -> new SqliteDialect();
            case "duckdb" -> new DuckDbDialect();
            default -> null;
        };
    }
}
