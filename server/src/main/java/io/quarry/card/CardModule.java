package io.quarry.card;

import io.quarry.appdb.Db;
import io.quarry.collection.CollectionAccess;
import io.quarry.parameters.ParameterValues;
import io.quarry.qp.run.QueryRunner;
import io.quarry.revision.Revisions;
import io.quarry.setting.Settings;
import io.quarry.sync.SchemaSync;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.MetadataService;
import java.time.Clock;

/**
 * The card module: saved questions, models and metrics, the possible values of their parameters, and models made from
 * uploaded CSV files. Its usage writer is built before the query runner (which records card use in it) and passed in.
 */
public record CardModule(CardService cards, CardParamValues paramValues, CardUploads uploads) {
    public static CardModule create(Clock clock, Db db, Settings settings, CollectionAccess access, Revisions revisions,
            DatabaseService databases, MetadataService metadata, SchemaSync schemaSync, CardUsageWriter usage,
            QueryRunner runner, ParameterValues parameterValues, CardService.Persisted persisted) {
        CardService cards = new CardService(db, databases, usage, runner, settings, access, revisions, clock, persisted);
        return new CardModule(cards, new CardParamValues(parameterValues),
                new CardUploads(metadata, databases, schemaSync, cards, settings, clock));
    }
}
