package io.quarry.util;

import io.quarry.core.Caller;
import io.quarry.web.error.ApiException;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/**
 * {@code GET /api/metrics}: the same text as the separate listener's {@code /metrics}, on the application's own port,
 * for a deployment that cannot open another one (a WAR in a container someone else runs). Off unless
 * {@code MB_PROMETHEUS_API_ENABLED=true} (404, as a path that does not exist); on, it answers administrators only — a
 * session of one, or an API key of the Administrators group sent as {@code X-Api-Key} (403 for anyone else, 401
 * without credentials). Quarry's own path: Metabase serves metrics only on its separate port.
 */
@Path("metrics")
public final class MetricsResource {
    private final OpsMetrics metrics;
    private final Caller caller;

    @Inject
    public MetricsResource(OpsMetrics metrics, Caller caller) {
        this.metrics = metrics;
        this.caller = caller;
    }

    @GET
    @Access(Access.Level.USER)
    public Response scrape() {
        if (!metrics.apiEnabled()) {
            throw ApiException.notFound();
        }
        if (!caller.superuser()) {
            throw ApiException.forbidden();
        }
        return Response.ok(metrics.scrape(), OpsMetrics.CONTENT_TYPE).build();
    }
}
