package io.quarry.card;

import io.quarry.appdb.Db;
import io.quarry.collection.CollectionAccess;
import io.quarry.parameters.ParameterValues;
import io.quarry.permission.DataPermissions;
import io.quarry.qp.Warehouses;
import io.quarry.qp.run.QueryRunner;
import io.quarry.revision.Revisions;
import io.quarry.setting.Settings;
import io.quarry.sync.SchemaSync;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.MetadataService;
import java.time.Clock;

/**
 * The card module: saved questions, models and metrics, the possible values of their parameters, and models made from
 * uploaded CSV files. It is built in two steps around the query path: {@link ForQueries} first, then the rest, which
 * runs queries through the runner.
 */
public record CardModule(CardService cards, CardParamValues paramValues, CardUploads uploads) {
    /**
     * The part of the card module the query path uses, built before the query processor and runner: the processor
     * compiles card references ({@code card__123}, {@code {{#123}}}) through the look-ups, and the runner records each
     * card's use in the usage writer. The cards themselves (result metadata) run queries through the runner, so they
     * come after it.
     */
    public record ForQueries(CardLookups lookups, CardUsageWriter usage) {
        public static ForQueries create(Db db, CollectionAccess access, Clock clock) {
            return new ForQueries(new CardLookups(db, access), new CardUsageWriter(db, clock));
        }
    }

    /** @param forQueries the part built before the query processor and runner; the cards record their use in it */
    public static CardModule create(ForQueries forQueries, Clock clock, Db db, Settings settings, CollectionAccess access,
            Revisions revisions, DatabaseService databases, Warehouses warehouses, MetadataService metadata, SchemaSync schemaSync,
            QueryRunner runner, ParameterValues parameterValues, CardService.Persisted persisted, DataPermissions permissions) {
        CardService cards = new CardService(db, databases, forQueries.usage(), runner, settings, access, revisions, clock,
                persisted);
        return new CardModule(cards, new CardParamValues(parameterValues),
                new CardUploads(metadata, databases, warehouses, schemaSync, cards, settings, permissions, clock));
    }
}
