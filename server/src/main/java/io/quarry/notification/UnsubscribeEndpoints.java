package io.quarry.notification;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.web.param.Body;
import io.quarry.web.security.Access;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * The unsubscribe endpoints, served under two roots from this one class: the spec's {@code /api/session/pulse/unsubscribe}
 * and Metabase v0.63's {@code /api/pulse/unsubscribe} (each subclass carries one {@code @Path}).
 */
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public abstract class UnsubscribeEndpoints {
    private final UnsubscribeService unsubscribes;
    private final HttpServletRequest request;

    protected UnsubscribeEndpoints(UnsubscribeService unsubscribes, HttpServletRequest request) {
        this.unsubscribes = unsubscribes;
        this.request = request;
    }

    @POST
    @Access(Access.Level.PUBLIC)
    public Map<String, Object> unsubscribe(JsonNode json) {
        Params p = params(json);
        return answer(unsubscribes.unsubscribe(p.email(), p.hash(), p.pulseId(), request.getRemoteAddr()));
    }

    @POST
    @Path("undo")
    @Access(Access.Level.PUBLIC)
    public Map<String, Object> undo(JsonNode json) {
        Params p = params(json);
        return answer(unsubscribes.undo(p.email(), p.hash(), p.pulseId(), request.getRemoteAddr()));
    }

    /** {@code {"status": "success", "title": <pulse name>}}. */
    private static Map<String, Object> answer(String title) {
        Map<String, Object> answer = new java.util.LinkedHashMap<>();
        answer.put("status", "success");
        answer.put("title", title);
        return answer;
    }

    private static Params params(JsonNode json) {
        Body body = Body.of(json);
        String email = body.string("email");
        String hash = body.string("hash");
        Long pulseId = body.posInt("pulse-id");
        body.throwIfInvalid();
        return new Params(email, hash, pulseId);
    }

    private record Params(String email, String hash, long pulseId) {
    }
}
