package io.quarry.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import java.util.Objects;

/** {@code /api/llm}: v0.63's SQL generation for the SQL editor, answered by the same assistant. */
@Path("llm")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class LlmResource {
    private final AssistantService assistant;
    private final Caller caller;

    @Inject
    public LlmResource(AssistantService assistant, Caller caller) {
        this.assistant = Objects.requireNonNull(assistant, "assistant is null");
        this.caller = Objects.requireNonNull(caller, "caller is null");
    }

    /** {@code {prompt, database_id}} → {@code {sql, referenced_entities}}. */
    @POST
    @Path("generate-sql")
    @Access(Access.Level.USER)
    public Map<String, Object> generateSql(JsonNode body) {
        return assistant.generateSql(caller, body);
    }
}
