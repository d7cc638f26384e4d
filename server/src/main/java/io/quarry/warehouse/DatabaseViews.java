package io.quarry.warehouse;

import io.quarry.driver.Driver;
import io.quarry.driver.Feature;
import io.quarry.core.Caller;
import java.util.LinkedHashMap;
import java.util.Map;

/** The JSON form of a database, as Metabase's {@code GET /api/database/:id} returns it. */
public final class DatabaseViews {
    /** What a secret detail shows as in responses (Metabase's placeholder; sending it back keeps the stored value). */
    public static final String REDACTED = Driver.SECRET_PLACEHOLDER;

    private DatabaseViews() {
    }

    public static Map<String, Object> view(Database d, Driver driver, Caller caller) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", d.id);
        v.put("name", d.name);
        v.put("description", d.description);
        v.put("engine", d.engine);
        if (caller.superuser()) {
            v.put("details", redacted(d.details, driver));
        }
        v.put("settings", d.settings);
        v.put("is_sample", d.isSample);
        v.put("is_full_sync", d.isFullSync);
        v.put("is_on_demand", d.isOnDemand);
        v.put("is_audit", false);
        v.put("auto_run_queries", d.autoRunQueries);
        v.put("refingerprint", d.refingerprint);
        v.put("cache_ttl", d.cacheTtl);
        v.put("timezone", d.timezone);
        v.put("dbms_version", d.dbmsVersion == null ? null : Map.of("version", d.dbmsVersion));
        v.put("initial_sync_status", d.initialSyncStatus);
        v.put("caveats", d.caveats);
        v.put("points_of_interest", d.pointsOfInterest);
        v.put("creator_id", d.creatorId);
        v.put("created_at", d.createdAt);
        v.put("updated_at", d.updatedAt);
        v.put("metadata_sync_schedule", d.metadataSyncSchedule);
        v.put("cache_field_values_schedule", d.cacheFieldValuesSchedule);
        v.put("schedules", schedules(d));
        v.put("features", driver.features().stream().map(Feature::keyword).sorted().toList());
        v.put("native_permissions", caller.superuser() ? "write" : "none");
        v.put("can_upload", false);
        return v;
    }

    /** The stored cron schedules as Metabase's expanded schedule maps. */
    public static Map<String, Object> schedules(Database d) {
        Map<String, Object> schedules = new LinkedHashMap<>();
        schedules.put("metadata_sync", Schedules.toMap(d.metadataSyncSchedule));
        schedules.put("cache_field_values", Schedules.toMap(d.cacheFieldValuesSchedule));
        return schedules;
    }

    /** Details with every secret replaced by the placeholder, as the engine masks them ({@link Driver#maskedDetails}). */
    public static Map<String, Object> redacted(Map<String, Object> details, Driver driver) {
        return driver.maskedDetails(details);
    }
}
