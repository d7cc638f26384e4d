package io.quarry.qp;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarry.appdb.Db;
import io.quarry.setting.Settings;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.MetadataService;
import io.quarry.warehouse.TableQueryMetadata;
import java.time.Clock;

/**
 * The query processor module: compiling and executing queries, the result cache, and result metadata for clients. The
 * runner ({@code io.quarry.qp.run.QueryRunner}) is built after it, with the card module's usage writer (it records the
 * cards' use) and before the cards (they run queries through it).
 */
public record QueryModule(QueryProcessor queryProcessor, QueryCache queryCache, QueryMetadata queryMetadata) {
    /**
     * @param lookups what the compiler reads from other modules (cards, segments, snippets, data permissions)
     * @param meters where queries' durations and the result cache's hits are counted
     */
    public static QueryModule create(Clock clock, Db db, Settings settings, int timeoutSeconds, DatabaseService databases,
            Warehouses warehouses, MetadataService metadata, TableQueryMetadata tableQueryMetadata, QueryProcessor.Lookups lookups,
            MeterRegistry meters) {
        QueryTimers timers = new QueryTimers();
        QueryProcessor processor = new QueryProcessor(databases, new QueryExecutor(warehouses, timers, meters), timers, metadata, settings,
                clock, timeoutSeconds, lookups);
        return new QueryModule(processor, new QueryCache(db, clock, meters), new QueryMetadata(databases, metadata, tableQueryMetadata));
    }
}
