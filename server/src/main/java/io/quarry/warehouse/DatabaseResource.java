package io.quarry.warehouse;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;
import io.quarry.driver.ConnectionTester;
import io.quarry.driver.Drivers;
import io.quarry.web.param.Body;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /api/database}: connected databases — add (after a real connection test), validate details, update, delete,
 * and add the bundled sample database. Reading them is {@link DatabaseMetadataResource}'s.
 */
@Path("database")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class DatabaseResource {
    /** Metabase's message for any bad {@code engine}. */

    private final DatabaseService databases;
    private final SampleDatabaseService sample;
    private final Drivers drivers;
    private final SyncLauncher sync;
    private final Caller caller;

    @Inject
    public DatabaseResource(DatabaseService databases, SampleDatabaseService sample, Drivers drivers, SyncLauncher sync,
                            Caller caller) {
        this.databases = databases;
        this.sample = sample;
        this.drivers = drivers;
        this.sync = sync;
        this.caller = caller;
    }

    /**
     * Adds a database. As Metabase: the details are tried for real first; a failed connection answers 400
     * {@code {"message", "errors": {field: hint}}} and stores nothing.
     */
    @POST
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> create(JsonNode json) {
        Body body = Body.of(json).storedIn("metabase_database", "name");
        NewDatabases.NewDatabase spec = NewDatabases.NewDatabase.read(body, drivers);
        body.throwIfInvalid();
        Database created = NewDatabases.add(spec, databases, sync, caller.id());
        return DatabaseViews.view(created, databases.driverOf(created), caller);
    }

    /**
     * Tests a connection: {@code {"valid": true}}, or — as Metabase answers — 200 {@code {"valid": false, "message",
     * "errors"}}. Takes Metabase's body {@code {"details": {"engine", "details"}}} or the flat {@code engine, details}.
     * With the {@code id} of a stored database (Quarry's admin page sends it), details are merged over its stored ones
     * as an update merges them, so that a secret shown masked ({@code **MetabasePass**}) is tried with its stored value.
     */
    @POST
    @Path("validate")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> validate(JsonNode json) {
        Body outer = Body.of(json);
        JsonNode nested = outer.get("details");
        Body body = nested.isObject() && nested.has("engine") ? outer.nested("details") : outer;
        String engine = NewDatabases.engine(body, drivers, false);
        Map<String, Object> details = body.map("details");
        Long id = outer.optPosInt("id");
        body.throwIfInvalid();
        outer.throwIfInvalid();
        if (id != null) {
            Database stored = databases.require(id);
            details = DatabaseService.mergeDetails(drivers.require(engine), stored.details, details);
        }
        ConnectionTester.Failure failure = databases.testConnection(engine, details);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("valid", failure == null);
        if (failure != null) {
            result.putAll(failure.body());
        }
        return result;
    }

    /** Adds the bundled sample database, or answers the one already added. */
    @POST
    @Path("sample_database")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> addSample() {
        Database database = sample.ensureAdded();
        return DatabaseViews.view(database, databases.driverOf(database), caller);
    }

    /**
     * Updates a database. Absent or null fields stay as they are (Metabase's rule), except {@code cache_ttl}, which null
     * clears. Details are merged over the stored ones, a secret sent back as {@code **MetabasePass**} keeps its value,
     * and changed details (or a changed engine) are tried for real before anything is written.
     */
    @PUT
    @Path("{id}")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> update(@PathParam("id") PosInt id, JsonNode json) {
        Body body = Body.of(json).storedIn("metabase_database", "name");
        String name = body.optNonBlank("name");
        String engine = NewDatabases.engine(body, drivers, true);
        Boolean refingerprint = body.optBool("refingerprint");
        Map<String, Object> details = body.optMap("details");
        Map<String, Object> schedules = NewDatabases.schedules(body);
        String description = body.optString("description");
        String caveats = body.optString("caveats");
        String pointsOfInterest = body.optString("points_of_interest");
        Boolean autoRun = body.optBool("auto_run_queries");
        Long cacheTtl = body.optPosInt("cache_ttl");
        Map<String, Object> settings = body.optMap("settings");
        Boolean isFullSync = body.optBool("is_full_sync");
        Boolean isOnDemand = body.optBool("is_on_demand");
        body.throwIfInvalid();

        Database database = databases.require(id.value());
        Map<String, Object> merged = details == null ? database.details : DatabaseService.mergeDetails(
                drivers.require(engine != null ? engine : database.engine), database.details, details);
        boolean detailsChanged = details != null && !DatabaseService.sameDetails(merged, database.details);
        boolean engineChanged = engine != null && !engine.equals(database.engine);
        if (detailsChanged || engineChanged) {
            databases.requireConnection(engine != null ? engine : database.engine, merged);
        }
        if (name != null) {
            database.name = name;
        }
        if (engine != null) {
            database.engine = engine;
        }
        database.details = merged;
        if (refingerprint != null) {
            database.refingerprint = refingerprint;
        }
        if (description != null) {
            database.description = description;
        }
        if (caveats != null) {
            database.caveats = caveats;
        }
        if (pointsOfInterest != null) {
            database.pointsOfInterest = pointsOfInterest;
        }
        if (autoRun != null) {
            database.autoRunQueries = autoRun;
        }
        if (body.has("cache_ttl")) {
            database.cacheTtl = cacheTtl == null ? null : cacheTtl.intValue();
        }
        if (settings != null) {
            // a PATCH: keys sent replace, keys sent as null are removed
            Map<String, Object> patched = new LinkedHashMap<>(database.settings == null ? Map.of() : database.settings);
            settings.forEach((k, v) -> {
                if (v == null) {
                    patched.remove(k);
                } else {
                    patched.put(k, v);
                }
            });
            database.settings = patched;
        }
        if (isOnDemand != null) {
            database.isOnDemand = isOnDemand;
        }
        if (isFullSync != null) {
            database.isFullSync = isFullSync;
        }
        if (schedules != null) {
            NewDatabases.applySchedules(database, schedules);
        }
        if (!database.isFullSync) {
            database.cacheFieldValuesSchedule = null; // no scheduled field-values scan without a full sync
        } else if (database.cacheFieldValuesSchedule == null) {
            database.cacheFieldValuesSchedule = Schedules.randomDaily();
        }
        Database updated = databases.update(database, detailsChanged || engineChanged);
        if (detailsChanged || engineChanged) {
            sync.syncInBackground(updated.id);
        }
        return DatabaseViews.view(updated, databases.driverOf(updated), caller);
    }

    @DELETE
    @Path("{id}")
    @Access(Access.Level.SUPERUSER)
    public Response delete(@PathParam("id") PosInt id) {
        databases.delete(id.value());
        return Response.noContent().build();
    }

}
