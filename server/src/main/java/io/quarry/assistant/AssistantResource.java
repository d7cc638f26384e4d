package io.quarry.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;
import io.quarry.web.param.Paging;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import java.util.Objects;

/**
 * {@code /api/assistant}: plain-language questions become queries (Metabase's "metabot v1" endpoints, answered with its
 * shapes), and feedback on them. The same endpoints answer under {@code /api/metabot}, v1's own path.
 */
@Path("assistant")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class AssistantResource {
    private static final int MAX_FEEDBACK_PAGE = 1000;

    private final AssistantService assistant;
    private final Caller caller;

    @Inject
    public AssistantResource(AssistantService assistant, Caller caller) {
        this.assistant = Objects.requireNonNull(assistant, "assistant is null");
        this.caller = Objects.requireNonNull(caller, "caller is null");
    }

    /** A native question (card-like object) answering {@code question} over the database. */
    @POST
    @Path("database/{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> database(@PathParam("id") PosInt id, JsonNode body) {
        return assistant.cardForDatabase(caller, id.value(), body);
    }

    /** The SQL answering {@code question} over the database. */
    @POST
    @Path("database/{id}/query")
    @Access(Access.Level.USER)
    public Map<String, Object> databaseQuery(@PathParam("id") PosInt id, JsonNode body) {
        return assistant.sqlForDatabase(caller, id.value(), body);
    }

    /** A question over a model. */
    @POST
    @Path("model/{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> model(@PathParam("id") PosInt id, JsonNode body) {
        return assistant.cardForModel(caller, id.value(), body);
    }

    /** Stores feedback on an answer. */
    @POST
    @Path("feedback")
    @Access(Access.Level.USER)
    public Map<String, Object> feedback(JsonNode body) {
        return assistant.recordFeedback(caller, body);
    }

    /** The feedback stored, newest first ({@code limit} default 50, at most 1,000; {@code offset}). Administrators only. */
    @GET
    @Path("feedback")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> feedbackList(@QueryParam("limit") String limit, @QueryParam("offset") String offset) {
        Paging paging = Paging.of(limit, offset);
        int size = paging.paged() ? Math.min(paging.limit(), MAX_FEEDBACK_PAGE) : 50;
        return assistant.listFeedback(size, paging.offset() == null ? 0 : paging.offset());
    }

    /** The same endpoints at metabot v1's path, {@code /api/metabot}. */
    @Path("metabot")
    public static final class Metabot extends AssistantResource {
        @Inject
        public Metabot(AssistantService assistant, Caller caller) {
            super(assistant, caller);
        }
    }
}
