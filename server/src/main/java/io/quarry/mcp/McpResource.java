package io.quarry.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.setting.Settings;
import io.quarry.web.body.UnreadBodies;
import io.quarry.web.security.Access;
import io.quarry.web.security.RequestOrigins;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code /api/metabase-mcp} (and the older {@code /api/mcp}): v0.63's built-in MCP server over the Streamable HTTP
 * transport, JSON-RPC 2.0 in {@code POST} bodies answered as JSON. {@code initialize} opens a session whose id comes back
 * in {@code Mcp-Session-Id} and must be sent with every later message; {@code DELETE} ends it. No server-sent event
 * stream is offered, so {@code GET} answers 405. The caller is the signed-in user (session cookie or
 * {@code X-Metabase-Session}) or an API key's; anonymous requests get 401 with a {@code WWW-Authenticate} challenge.
 * Requests with an {@code Origin} that is not this site's are refused (DNS rebinding), and cookie-authenticated ones
 * from another site are refused before they get here by the CSRF filter. The methods are {@code PUBLIC} to the access
 * check only so that this resource answers anonymous callers itself, in the JSON-RPC shape MCP clients read.
 */
@Path("metabase-mcp")
public class McpResource {
    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final String VERSION_HEADER = "MCP-Protocol-Version";
    /** The versions Quarry speaks, newest first; a client asking for another gets Metabase's. */
    static final List<String> VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
    static final String DEFAULT_VERSION = "2025-03-26";
    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;
    private static final String GUIDE_URI = "metabase://docs/construct-query.md";

    private final McpSettings mcpSettings;
    private final McpSessions sessions;
    private final McpTools tools;
    private final Settings settings;
    private final Caller caller;

    @Inject
    public McpResource(McpSettings mcpSettings, McpSessions sessions, McpTools tools, Settings settings, Caller caller) {
        this.mcpSettings = Objects.requireNonNull(mcpSettings, "mcpSettings is null");
        this.sessions = Objects.requireNonNull(sessions, "sessions is null");
        this.tools = Objects.requireNonNull(tools, "tools is null");
        this.settings = Objects.requireNonNull(settings, "settings is null");
        this.caller = Objects.requireNonNull(caller, "caller is null");
    }

    /** One or a batch of JSON-RPC messages. */
    @POST
    @Access(Access.Level.PUBLIC)
    @Consumes(MediaType.WILDCARD)
    public Response post(byte[] body, @Context HttpHeaders headers, @Context ContainerRequestContext request) {
        Response refused = closed(request);
        if (refused != null) {
            return refused;
        }
        // what is not JSON-RPC at all is a 400 whoever sends it; a well-formed message from nobody is a 401
        String text = body == null ? "" : new String(body, StandardCharsets.UTF_8);
        if (text.isBlank()) {
            return rpcError(400, null, PARSE_ERROR, "Parse error: empty body");
        }
        JsonNode message;
        try {
            message = Json.read(text);
        } catch (IOException e) {
            return rpcError(400, null, PARSE_ERROR, "Parse error");
        }
        List<JsonNode> messages = new ArrayList<>();
        if (message.isArray()) {
            message.forEach(messages::add);
        } else {
            messages.add(message);
        }
        if (message.isArray() && message.isEmpty()) {
            return rpcError(400, null, INVALID_REQUEST, "Invalid request: empty batch");
        }
        for (JsonNode m : messages) {
            if (!m.isObject()) {
                return rpcError(400, null, INVALID_REQUEST, "Invalid Request: a message must be a JSON-RPC object");
            }
        }
        refused = anonymous();
        if (refused != null) {
            return refused;
        }
        if (message.isArray()) {
            for (JsonNode m : messages) {
                if ("initialize".equals(m.path("method").asText())) {
                    return rpcError(400, null, INVALID_REQUEST, "initialize must not be batched");
                }
            }
        }
        if (messages.size() == 1 && "initialize".equals(message.path("method").asText()) && message.isObject()) {
            return initialize(message);
        }
        String version = headers.getHeaderString(VERSION_HEADER);
        if (version != null && !VERSIONS.contains(version.strip())) {
            return rpcError(400, null, INVALID_REQUEST, "Unsupported protocol version: " + version);
        }
        String sessionId = headers.getHeaderString(SESSION_HEADER);
        if (sessionId == null || sessionId.isBlank()) {
            return rpcError(400, null, INVALID_REQUEST, "Missing Mcp-Session-Id header");
        }
        McpSessions.Session session = sessions.find(sessionId.strip(), caller.id());
        if (session == null) {
            return rpcError(404, null, INVALID_REQUEST, "Invalid or expired session");
        }
        List<Object> answers = new ArrayList<>();
        for (JsonNode m : messages) {
            Object answer = handle(session, m);
            if (answer != null) {
                answers.add(answer);
            }
        }
        if (answers.isEmpty()) {
            return Response.accepted().build();
        }
        Object reply = message.isArray() ? answers : answers.get(0);
        if (eventStreamOnly(headers.getHeaderString(HttpHeaders.ACCEPT))) {
            // a client that takes only event streams gets the answers as one, ended once they are sent
            StringBuilder events = new StringBuilder();
            for (Object answer : answers) {
                events.append("event: message\ndata: ").append(Json.write(answer)).append("\n\n");
            }
            return Response.ok(events.toString(), "text/event-stream").header(SESSION_HEADER, session.id).build();
        }
        return json(200, reply).header(SESSION_HEADER, session.id).build();
    }

    /** No server-sent event stream is offered. */
    @GET
    @Access(Access.Level.PUBLIC)
    public Response get(@Context ContainerRequestContext request) {
        Response refused = refused(request);
        if (refused != null) {
            return refused;
        }
        return Response.status(405).header("Allow", "POST, DELETE").build();
    }

    /** Ends the session named by {@code Mcp-Session-Id}. */
    @DELETE
    @Access(Access.Level.PUBLIC)
    public Response delete(@Context HttpHeaders headers, @Context ContainerRequestContext request) {
        Response refused = refused(request);
        if (refused != null) {
            return refused;
        }
        String sessionId = headers.getHeaderString(SESSION_HEADER);
        if (sessionId == null || sessionId.isBlank()) {
            return rpcError(400, null, INVALID_REQUEST, "Missing Mcp-Session-Id header");
        }
        if (!sessions.end(sessionId.strip(), caller.id())) {
            return rpcError(404, null, INVALID_REQUEST, "Invalid or expired session");
        }
        return Response.ok().build();
    }

    /**
     * Why the request gets no further, or null: the server is off (404), the {@code Origin} is another site's (403),
     * nobody signed in (401 with the challenge MCP clients read).
     */
    private Response refused(ContainerRequestContext request) {
        Response closed = closed(request);
        return closed != null ? closed : anonymous();
    }

    /** The server is off (404) or the {@code Origin} is another site's (403); null when neither. */
    private Response closed(ContainerRequestContext request) {
        if (!mcpSettings.enabled()) {
            return rpcError(404, null, INVALID_REQUEST, "The MCP server is turned off (mcp-enabled?).");
        }
        String origin = request.getHeaderString("Origin");
        if (origin != null && !ownOrigin(request, origin)) {
            return rpcError(403, null, INVALID_REQUEST, "Origin not allowed");
        }
        return null;
    }

    /** Nobody signed in: 401 with the challenge MCP clients read. */
    private Response anonymous() {
        if (!caller.authenticated()) {
            return json(401, rpc(null, null, errorObject(INTERNAL_ERROR, "Authentication required")))
                    .header("WWW-Authenticate", "Bearer realm=\"mcp\"").build();
        }
        return null;
    }

    /** An {@code Accept} naming event streams and neither JSON nor any type. */
    static boolean eventStreamOnly(String accept) {
        if (accept == null) {
            return false;
        }
        String a = accept.toLowerCase(java.util.Locale.ROOT);
        return a.contains("text/event-stream") && !a.contains("application/json") && !a.contains("*/*")
                && !a.contains("application/*");
    }

    private boolean ownOrigin(ContainerRequestContext request, String origin) {
        String normalized = RequestOrigins.normalize(origin);
        if (normalized == null) {
            return false;
        }
        if (request.getProperty(UnreadBodies.SERVLET_REQUEST) instanceof HttpServletRequest servlet
                && RequestOrigins.own(servlet).contains(normalized)) {
            return true;
        }
        String siteUrl = settings.string("site-url");
        return siteUrl != null && normalized.equals(RequestOrigins.normalize(siteUrl));
    }

    private Response initialize(JsonNode message) {
        JsonNode params = message.path("params");
        String asked = params.path("protocolVersion").asText("");
        String version = VERSIONS.contains(asked) ? asked : DEFAULT_VERSION;
        McpSessions.Session session = sessions.open(caller.id(), version);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("protocolVersion", version);
        result.put("capabilities", Map.of("tools", Map.of("listChanged", false), "resources", Map.of("listChanged", false)));
        result.put("serverInfo", Map.of("name", "metabase", "version", "0.1.0"));
        result.put("instructions", "Quarry's MCP server (Metabase v0.63's tools). Find data with search and read_resource, "
                + "build a structured query with construct_query, run it with execute_query or query, chart it with "
                + "visualize_query, save it with create_question. Read " + GUIDE_URI + " for the query syntax.");
        return json(200, rpc(message.get("id"), result, null)).header(SESSION_HEADER, session.id).build();
    }

    /** The answer to one message, or null for a notification (or a client's response). */
    private Object handle(McpSessions.Session session, JsonNode m) {
        if (!m.isObject() || !"2.0".equals(m.path("jsonrpc").asText()) || (m.has("method") && !m.get("method").isTextual())) {
            return rpc(null, null, errorObject(INVALID_REQUEST, "Invalid Request"));
        }
        if (!m.has("method")) {
            return null;
        }
        String method = m.get("method").asText();
        JsonNode id = m.get("id");
        boolean notification = id == null || id.isNull();
        if (notification) {
            if (method.equals("notifications/initialized")) {
                session.initialized = true;
            }
            return null;
        }
        JsonNode params = m.path("params");
        try {
            return switch (method) {
                case "ping" -> rpc(id, Map.of(), null);
                case "initialize" -> rpc(id, null, errorObject(INVALID_REQUEST, "Session already initialized"));
                case "tools/list", "tools/call", "resources/list", "resources/read" -> initializedCall(session, id, method, params);
                default -> rpc(id, null, errorObject(METHOD_NOT_FOUND, "Method not found: " + method));
            };
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(McpResource.class).warn("MCP method {} failed", method, e);
            return rpc(id, null, errorObject(INTERNAL_ERROR, "Internal error"));
        }
    }

    private Map<String, Object> initializedCall(McpSessions.Session session, JsonNode id, String method, JsonNode params) {
        if (!session.initialized) {
            return rpc(id, null, errorObject(INVALID_REQUEST, "Session not initialized"));
        }
        switch (method) {
            case "tools/list":
                return rpc(id, Map.of("tools", tools.list()), null);
            case "tools/call": {
                JsonNode name = params.path("name");
                if (!name.isTextual()) {
                    return rpc(id, null, errorObject(INVALID_PARAMS, "Invalid params: name must be a tool's name"));
                }
                if (name.asText().equals("execute_sql") && !mcpSettings.executeSqlEnabled()) {
                    return rpc(id, McpTools.error("Running SQL through MCP is turned off (mcp-execute-sql-enabled)."), null);
                }
                return rpc(id, tools.call(caller, name.asText(), params.get("arguments")), null);
            }
            case "resources/list":
                return rpc(id, Map.of("resources", List.of(Map.of("uri", GUIDE_URI, "name", "construct-query.md",
                        "description", "How to write the queries construct_query takes.", "mimeType", "text/markdown"))), null);
            default: {
                String uri = params.path("uri").asText("");
                if (!uri.equals(GUIDE_URI)) {
                    return rpc(id, null, errorObject(INVALID_PARAMS, "Resource not found: " + uri));
                }
                return rpc(id, Map.of("contents", List.of(Map.of("uri", GUIDE_URI, "mimeType", "text/markdown",
                        "text", McpGuide.CONSTRUCT_QUERY))), null);
            }
        }
    }

    // --- JSON-RPC shapes -------------------------------------------------------------------------------------------

    static Map<String, Object> rpc(JsonNode id, Object result, Map<String, Object> error) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jsonrpc", "2.0");
        m.put("id", id == null || id.isMissingNode() ? null : id);
        if (error != null) {
            m.put("error", error);
        } else {
            m.put("result", result);
        }
        return m;
    }

    static Map<String, Object> errorObject(int code, String message) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("code", code);
        e.put("message", message);
        return e;
    }

    private static Response rpcError(int status, JsonNode id, int code, String message) {
        return json(status, rpc(id, null, errorObject(code, message))).build();
    }

    private static Response.ResponseBuilder json(int status, Object entity) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(Json.write(entity));
    }

    /** The same server at the older path. */
    @Path("mcp")
    public static final class Alias extends McpResource {
        @Inject
        public Alias(McpSettings mcpSettings, McpSessions sessions, McpTools tools, Settings settings, Caller caller) {
            super(mcpSettings, sessions, tools, settings, caller);
        }
    }
}
