package io.quarry.snippet;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.web.param.BoolStr;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;

/** {@code /api/native-query-snippet}: reusable SQL fragments for native queries. */
@Path("native-query-snippet")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class SnippetResource {
    private final SnippetService snippets;
    private final Caller caller;

    @Inject
    public SnippetResource(SnippetService snippets, Caller caller) {
        this.snippets = snippets;
        this.caller = caller;
    }

    @GET
    @Access(Access.Level.USER)
    public List<Map<String, Object>> list(@QueryParam("archived") BoolStr archived) {
        return snippets.list(caller, archived != null && archived.value());
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> get(@PathParam("id") PosInt id) {
        return snippets.get(caller, id.value());
    }

    @POST
    @Access(Access.Level.USER)
    public Map<String, Object> create(JsonNode json) {
        return snippets.create(caller, json);
    }

    @PUT
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> update(@PathParam("id") PosInt id, JsonNode json) {
        return snippets.update(caller, id.value(), json);
    }
}
