package io.quarry.warehouse;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.driver.Drivers;
import io.quarry.web.param.Body;
import jakarta.ws.rs.POST;
import java.util.Map;

/**
 * A database to add, as {@code POST /api/database} and setup's {@code database} take it: reading and checking its
 * fields, and storing it (then starting its first sync). Shared by the database and setup resources.
 */
public final class NewDatabases {
    static final String INVALID_ENGINE = "value must be a valid database engine.";

    private NewDatabases() {
    }

    /** A database to add, as {@code POST /api/database} and setup's {@code database} take it. */
    public record NewDatabase(String engine, String name, Map<String, Object> details, Boolean isFullSync, Boolean isOnDemand,
                              Map<String, Object> schedules, Boolean autoRunQueries, Long cacheTtl, String connectionSource) {
        /** Reads and checks the fields, recording errors in {@code body}. */
        public static NewDatabase read(Body body, Drivers drivers) {
            String engine = NewDatabases.engine(body, drivers, false);
            String name = body.nonBlank("name");
            Map<String, Object> details = body.map("details");
            Boolean isFullSync = body.optBool("is_full_sync");
            Boolean isOnDemand = body.optBool("is_on_demand");
            Map<String, Object> schedules = NewDatabases.schedules(body);
            Boolean autoRun = body.optBool("auto_run_queries");
            Long cacheTtl = body.optPosInt("cache_ttl");
            String source = body.optEnum("connection_source", "admin", "setup");
            return new NewDatabase(engine, name, details, isFullSync, isOnDemand, schedules, autoRun, cacheTtl, source);
        }
    }

    /** Tries the connection (400 when it fails, nothing stored), stores the database and starts its first sync. */
    public static Database add(NewDatabase spec, DatabaseService databases, SyncLauncher sync, Long creatorId) {
        databases.requireConnection(spec.engine(), spec.details());
        return store(spec, databases, sync, creatorId);
    }

    /** Stores a database whose connection was already tried, and starts its first sync. */
    public static Database store(NewDatabase spec, DatabaseService databases, SyncLauncher sync, Long creatorId) {
        Database database = new Database();
        database.engine = spec.engine();
        database.name = spec.name();
        database.details = spec.details();
        database.creatorId = creatorId;
        database.isFullSync = spec.isFullSync() == null || spec.isFullSync();
        database.isOnDemand = spec.isOnDemand() != null && spec.isOnDemand();
        if (spec.autoRunQueries() != null) {
            database.autoRunQueries = spec.autoRunQueries();
        }
        database.cacheTtl = spec.cacheTtl() == null ? null : spec.cacheTtl().intValue();
        applySchedules(database, spec.schedules());
        Database created = databases.create(database);
        sync.syncInBackground(created.id);
        return created;
    }

    /** {@code engine}: a known engine key, else Metabase's "value must be a valid database engine.". */
    public static String engine(Body body, Drivers drivers, boolean nullable) {
        JsonNode value = body.get("engine", Body.Kind.STRING);
        if (value.isNull() || value.isMissingNode()) {
            if (!nullable) {
                body.addError("engine", INVALID_ENGINE, "missing required key, received: nil");
            }
            return null;
        }
        if (!value.isTextual() || drivers.find(value.asText()) == null) {
            body.addError("engine", (nullable ? "nullable " : "") + INVALID_ENGINE, "Valid database engine, received: "
                    + (value.isTextual() ? "\"" + value.asText() + "\"" : value.toString()));
            return null;
        }
        return value.asText();
    }

    /** {@code schedules}: a map whose {@code metadata_sync} and {@code cache_field_values} are valid schedule maps. */
    public static Map<String, Object> schedules(Body body) {
        JsonNode value = body.get("schedules", Body.Kind.MAP);
        if (value.isNull() || value.isMissingNode()) {
            return null;
        }
        Map<String, Object> schedules = body.optMap("schedules");
        if (schedules == null) {
            return null;
        }
        try {
            for (Map.Entry<String, Object> entry : schedules.entrySet()) {
                if (!entry.getKey().equals("metadata_sync") && !entry.getKey().equals("cache_field_values")) {
                    continue;
                }
                if (entry.getValue() == null && entry.getKey().equals("cache_field_values")) {
                    continue;
                }
                if (!(entry.getValue() instanceof Map<?, ?> map)) {
                    throw new IllegalArgumentException(entry.getKey());
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> schedule = (Map<String, Object>) map;
                Schedules.toCron(schedule);
            }
        } catch (IllegalArgumentException e) {
            body.addError("schedules", "nullable " + Schedules.INVALID, "invalid schedule map, received: " + value);
            return null;
        }
        return schedules;
    }

    /**
     * Applies a client's schedules, which Metabase honours only when the details let the user control scheduling;
     * otherwise (and for whatever is not given) the database keeps or gets randomised defaults.
     */
    @SuppressWarnings("unchecked")
    public static void applySchedules(Database database, Map<String, Object> schedules) {
        boolean userControls = database.details != null && Boolean.TRUE.equals(database.details.get("let-user-control-scheduling"));
        if (schedules == null || !userControls) {
            return;
        }
        if (schedules.get("metadata_sync") instanceof Map<?, ?> sync) {
            database.metadataSyncSchedule = Schedules.toCron((Map<String, Object>) sync);
        }
        if (schedules.containsKey("cache_field_values")) {
            Object values = schedules.get("cache_field_values");
            database.cacheFieldValuesSchedule = values instanceof Map<?, ?> m ? Schedules.toCron((Map<String, Object>) m) : null;
        }
    }
}
