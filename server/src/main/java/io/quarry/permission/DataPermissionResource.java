package io.quarry.permission;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.web.param.BoolStr;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/** {@code /api/permissions/graph}: the data permission graph (superusers only), whole, per database or per group. */
@Path("permissions/graph")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class DataPermissionResource {
    private final DataPermissionGraph graph;
    private final Caller caller;

    @Inject
    public DataPermissionResource(DataPermissionGraph graph, Caller caller) {
        this.graph = graph;
        this.caller = caller;
    }

    @GET
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> get() {
        return graph.graph(null, null);
    }

    @GET
    @Path("db/{db-id}")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> ofDatabase(@PathParam("db-id") PosInt dbId) {
        graph.requireDatabase(dbId.value());
        return graph.graph(null, dbId.value());
    }

    @GET
    @Path("group/{group-id}")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> ofGroup(@PathParam("group-id") PosInt groupId) {
        graph.requireGroup(groupId.value());
        return graph.graph(groupId.value(), null);
    }

    /**
     * Batch update: the groups and databases present are changed, everything else is kept. The body's {@code revision}
     * must be the current one (409 otherwise) unless {@code force=true}; {@code skip-graph=true} answers the revision only.
     */
    @PUT
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> put(@QueryParam("skip-graph") BoolStr skipGraph, @QueryParam("force") BoolStr force, JsonNode json) {
        return graph.update(json, BoolStr.orDefault(force, false), BoolStr.orDefault(skipGraph, false), caller.id());
    }
}
