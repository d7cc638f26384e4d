package io.quarry.util;

import io.quarry.appdb.AppDatabase;
import io.quarry.appdb.AppDatabaseHealth;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/**
 * {@code GET /api/health}: 200 once started and the application database answers (503 before: see StartupGate).
 * Never blocks on the database for more than about 1.5 s ({@link AppDatabaseHealth}). One instance: a load balancer
 * asks often, and building the resource per request was a few percent of each answer.
 */
@Path("health")
@Singleton
@Produces(MediaType.APPLICATION_JSON)
public final class HealthResource {
    private final AppDatabase appDatabase;

    @Inject
    public HealthResource(AppDatabase appDatabase) {
        this.appDatabase = appDatabase;
    }

    @GET
    @Access(Access.Level.PUBLIC)
    public Response health() {
        AppDatabaseHealth.Result result = appDatabase.health().check();
        if (result.healthy()) {
            return Response.ok(Map.of("status", "ok")).build();
        }
        return Response.status(503).entity(Map.of("status", "Unable to get app-db connection", "reason", result.reason())).build();
    }
}
