package io.quarry.qp.mbql;

import io.quarry.driver.Driver;
import io.quarry.driver.SqlDialect;
import io.quarry.qp.CompiledQuery;
import io.quarry.qp.Query;
import io.quarry.qp.QueryFailure;
import io.quarry.setting.Settings;
import io.quarry.qp.Warehouses;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.MetadataService;
import java.time.Clock;
import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;

/**
 * The compile stage of the query pipeline for structured queries: asks the database's driver for its dialect, reads
 * its metadata and compiles. Saved questions, segments and metrics are resolved through the {@link MbqlReferences} each
 * compilation is given (the query processor's, which carry the caller and the depth of card references).
 */
public final class MbqlQueries {
    private final MetadataService metadata;
    private final DatabaseService databases;
    private final Warehouses warehouses;
    private final Settings settings;
    private final Clock clock;

    public MbqlQueries(MetadataService metadata, DatabaseService databases, Warehouses warehouses, Settings settings, Clock clock) {
        this.metadata = metadata;
        this.databases = databases;
        this.warehouses = warehouses;
        this.settings = settings;
        this.clock = clock;
    }

    /** Compiles a structured query for the database's engine, resolving cards, segments and metrics through {@code references}. */
    public CompiledQuery compile(Query query, Database database, MbqlReferences references) {
        return compile(query, database, references, null);
    }

    /** As {@link #compile(Query, Database, MbqlReferences)}, for a persisted model's own query (read from its table when it matches). */
    public CompiledQuery compile(Query query, Database database, MbqlReferences references, MbqlReferences.PersistedTable persisted) {
        Driver driver = databases.findDriverOf(database);
        SqlDialect dialect = driver == null ? null : driver.dialect();
        if (dialect == null) {
            throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, "Structured queries are not supported for "
                    + database.engine + " databases yet.");
        }
        MbqlMetadata metadata = new WarehouseMetadata(this.metadata, warehouses, database, dialect);
        MbqlCompiler.Context context = new MbqlCompiler.Context(dialect, metadata, references, database.id,
                LocalDateTime.now(clock.withZone(ZoneOffset.UTC)), firstDayOfWeek(), (int) setting("breakout-bins-num",
                MbqlCompiler.DEFAULT_BINS), setting("breakout-bin-width", MbqlCompiler.DEFAULT_BIN_WIDTH));
        return new MbqlCompiler(context).compile(query.mbql(), query.parameters(), persisted);
    }

    /** Whether the query aggregates or limits itself (the larger row cap applies then). */
    public static boolean aggregatedOrLimited(Query query) {
        return query.type() == Query.Type.MBQL && MbqlCompiler.aggregatedOrLimited(query.mbql());
    }

    private DayOfWeek firstDayOfWeek() {
        String day = settings.string("start-of-week");
        return DayOfWeek.valueOf((day == null ? "sunday" : day).toUpperCase(Locale.ROOT));
    }

    private double setting(String key, double fallback) {
        if (settings.find(key) == null) {
            return fallback;
        }
        Object value = settings.get(key);
        return value instanceof Number n && n.doubleValue() > 0 ? n.doubleValue() : fallback;
    }
}
