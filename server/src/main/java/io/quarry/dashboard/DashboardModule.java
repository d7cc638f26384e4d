package io.quarry.dashboard;

import io.quarry.appdb.Db;
import io.quarry.collection.CollectionAccess;
import io.quarry.parameters.ParameterValues;
import io.quarry.revision.Revisions;
import io.quarry.setting.Settings;
import java.time.Clock;

/** The dashboard module: dashboards, their cards and tabs, and the possible values of their filters. */
public record DashboardModule(DashboardService dashboards, DashboardParamValues paramValues) {
    public static DashboardModule create(Db db, CollectionAccess access, Revisions revisions, Settings settings,
            ParameterValues parameterValues, Clock clock, SavedContent content) {
        return new DashboardModule(new DashboardService(db, access, revisions, settings, clock, content),
                new DashboardParamValues(db, access, parameterValues));
    }
}
