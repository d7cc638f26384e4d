package io.quarry.revision;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.web.param.Body;
import io.quarry.web.param.ParamRule;
import io.quarry.web.param.PosInt;
import io.quarry.web.param.Validation;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;

/**
 * {@code /api/revision}: the history of a card or dashboard and reverting to an earlier state. Each entity kind plugs
 * in through {@link Revisions#register}.
 */
@Path("revision")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class RevisionResource {
    static final String[] ENTITIES = {"card", "dashboard"};

    private final Revisions revisions;
    private final Caller caller;

    @Inject
    public RevisionResource(Revisions revisions, Caller caller) {
        this.revisions = revisions;
        this.caller = caller;
    }

    @GET
    @Access(Access.Level.USER)
    public List<Map<String, Object>> list(@QueryParam("entity") String entity, @QueryParam("id") PosInt id) {
        Body body = Body.of(io.quarry.core.Json.object().put("entity", entity));
        String checked = body.enumOf("entity", false, ENTITIES);
        body.throwIfInvalid();
        Validation.required("id", id, ParamRule.POS_INT);
        return history(checked, id.value());
    }

    @GET
    @Path("{entity}/{id}")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> listByPath(@PathParam("entity") String entity, @PathParam("id") PosInt id) {
        Body body = Body.of(io.quarry.core.Json.object().put("entity", entity));
        String checked = body.enumOf("entity", false, ENTITIES);
        body.throwIfInvalid();
        return history(checked, id.value());
    }

    private List<Map<String, Object>> history(String entity, long id) {
        return revisions.readableHistory(caller, entity, id);
    }

    /** {@code {entity, id, revision_id}}: puts the stored object back and records a reversion; answers that revision. */
    @POST
    @Path("revert")
    @Access(Access.Level.USER)
    public Map<String, Object> revert(JsonNode json) {
        Body body = Body.of(json);
        Long id = body.posInt("id");
        String entity = body.enumOf("entity", false, ENTITIES);
        Long revisionId = body.posInt("revision_id");
        body.throwIfInvalid();
        return revisions.revert(caller, entity, id, revisionId);
    }
}
