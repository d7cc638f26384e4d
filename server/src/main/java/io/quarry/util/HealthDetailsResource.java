package io.quarry.util;

import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * {@code GET /api/health/details}: what is wrong, for administrators ({@link HealthDetails}). Always 200 when it could
 * check (the body's {@code status} says {@code down}); {@code GET /api/health} stays Metabase's short answer for load
 * balancers. Metabase has no such endpoint: Quarry's own path.
 */
@Path("health/details")
@Produces(MediaType.APPLICATION_JSON)
public final class HealthDetailsResource {
    private final HealthDetails health;

    @Inject
    public HealthDetailsResource(HealthDetails health) {
        this.health = health;
    }

    @GET
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> details() {
        return health.check();
    }
}
