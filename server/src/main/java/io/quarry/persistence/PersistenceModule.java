package io.quarry.persistence;

import io.quarry.appdb.Db;
import io.quarry.card.CardService;
import io.quarry.qp.Warehouses;
import io.quarry.qp.run.QueryRunner;
import io.quarry.setting.Settings;
import io.quarry.user.UserService;
import io.quarry.warehouse.DatabaseService;
import java.time.Clock;
import java.util.concurrent.Executor;

/**
 * Model persistence: which models are read from their tables, each model's record and its refreshes, and the scheduled
 * refresh (its jobs handed to {@code ClusterJobs} by the root). Built in two steps around the query path: the tables
 * ({@link #tables}) before the query processor, the rest after the query runner and the cards.
 */
public record PersistenceModule(PersistedTables tables, PersistenceService persistence, RefreshJobs refreshJobs) {
    /**
     * The part built before the query processor: wherever a query uses a model ({@code card__N} sources, joins,
     * {@code {{#N}}} tags), the processor's card look-ups ask it for the model's table, and the cards ask it to drop a
     * deleted model's table.
     */
    public static PersistedTables tables(Db db, Settings settings, DatabaseService databases, Warehouses warehouses) {
        return new PersistedTables(db, settings, databases, warehouses);
    }

    /**
     * @param tables   the part built before the query processor ({@link #tables})
     * @param runner   refreshes run the model's query through it ({@code PERSISTENCE_REFRESH})
     * @param executor where refreshes run (the shared scheduler's threads)
     */
    public static PersistenceModule create(PersistedTables tables, Clock clock, Db db, Settings settings,
            DatabaseService databases, Warehouses warehouses, CardService cards, UserService users, QueryRunner runner,
            Executor executor) {
        PersistenceService persistence = new PersistenceService(db, settings, databases, warehouses, cards, users, runner, tables,
                executor, clock);
        return new PersistenceModule(tables, persistence, new RefreshJobs(persistence, tables));
    }
}
