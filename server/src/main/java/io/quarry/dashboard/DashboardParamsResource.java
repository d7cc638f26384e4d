package io.quarry.dashboard;

import io.quarry.web.param.NonBlank;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * {@code GET /api/dashboard/:id/params/:key/values} and {@code .../search/:query}: possible values of a dashboard
 * filter (see {@link DashboardParamValues}). Other filters' values sent as query parameters are ignored.
 */
@Path("dashboard/{id}/params/{key}")
@Produces(MediaType.APPLICATION_JSON)
public final class DashboardParamsResource {
    private final DashboardParamValues values;
    private final Caller caller;

    @Inject
    public DashboardParamsResource(DashboardParamValues values, Caller caller) {
        this.values = values;
        this.caller = caller;
    }

    @GET
    @Path("values")
    @Access(Access.Level.USER)
    public Map<String, Object> values(@PathParam("id") PosInt id, @PathParam("key") NonBlank key) {
        return values.values(caller, id.value(), key.value(), null);
    }

    @GET
    @Path("search/{query}")
    @Access(Access.Level.USER)
    public Map<String, Object> search(@PathParam("id") PosInt id, @PathParam("key") NonBlank key, @PathParam("query") NonBlank query) {
        return values.values(caller, id.value(), key.value(), query.value());
    }
}
