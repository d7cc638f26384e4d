package io.quarry.notification;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.ColumnLengths;
import io.quarry.appdb.Db;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.warehouse.DetailsCodec;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.web.param.Body;
import java.net.URI;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.ibatis.exceptions.PersistenceException;

/**
 * {@code /api/channel}: the destinations notifications can be sent to besides email — today webhooks
 * ({@code channel/http}). Only administrators create, change and test channels, and only they see a channel's
 * {@code details} (its URL and the secrets in {@code auth-info}); the details are stored encrypted when
 * {@code MB_ENCRYPTION_SECRET_KEY} is set, as database details are.
 */
public final class ChannelService {
    public static final String HTTP = "channel/http";
    static final String NAME_TAKEN = "Channel with that name already exists";
    static final String NAMESPACED = "Must be a namespaced channel. E.g: channel/http";
    static final Set<String> DETAIL_KEYS = Set.of("url", "method", "auth-method", "auth-info", "fe-form-type");
    static final List<String> AUTH_METHODS = List.of("none", "header", "query-param", "request-body");
    static final List<String> FORM_TYPES = List.of("api-key", "bearer", "basic", "none");
    static final List<String> METHODS = List.of("get", "post", "put");

    private final Db db;
    private final DetailsCodec codec;
    private final Webhooks webhooks;
    private final Clock clock;

    public ChannelService(Db db, DetailsCodec codec, Webhooks webhooks, Clock clock) {
        this.db = db;
        this.codec = codec;
        this.webhooks = webhooks;
        this.clock = clock;
    }

    public List<Map<String, Object>> list(Caller caller, boolean includeInactive) {
        caller.id();
        List<Map<String, Object>> out = new ArrayList<>();
        for (Channel c : db.with(NotificationMapper.class, m -> m.channels(includeInactive))) {
            out.add(view(caller, c));
        }
        return out;
    }

    public Map<String, Object> get(Caller caller, long id) {
        caller.id();
        return view(caller, Checks.found(db.with(NotificationMapper.class, m -> m.findChannel(id))));
    }

    public Map<String, Object> create(Caller caller, JsonNode json) {
        requireAdmin(caller);
        Body body = Body.of(json).storedIn("channel");
        String name = body.nonBlank("name");
        String description = body.optNonBlank("description");
        String type = type(body, false);
        Map<String, Object> details = details(body, type, false);
        Boolean active = body.optBool("active");
        body.throwIfInvalid();
        checkUrl(details);
        OffsetDateTime now = OffsetDateTime.now(clock);
        Channel c = new Channel();
        c.name = name;
        c.description = description;
        c.type = type;
        c.details = codec.encode(details);
        c.active = active == null || active;
        c.createdAt = now;
        c.updatedAt = now;
        try {
            return db.tx(session -> {
                NotificationMapper m = session.getMapper(NotificationMapper.class);
                if (m.findChannelByName(name) != null) {
                    throw nameTaken();
                }
                m.insertChannel(c);
                return view(caller, m.findChannel(c.id));
            });
        } catch (PersistenceException e) {
            throw nameRace(name, e);
        }
    }

    /**
     * {@code PUT /api/channel/:id}: given fields change. Deactivating a channel deletes the pulse channels that send
     * through it and renames it {@code DEACTIVATED_<id> <name>} (cut to 254 characters), as Metabase does.
     */
    public Map<String, Object> update(Caller caller, long id, JsonNode json) {
        requireAdmin(caller);
        Body body = Body.of(json).storedIn("channel");
        String name = body.optNonBlank("name");
        String description = body.optNonBlank("description");
        String type = type(body, true);
        Boolean active = body.optBool("active");
        Map<String, Object> details = body.hasValue("details") ? details(body, null, true) : null;
        body.throwIfInvalid();
        Channel existing = Checks.found(db.with(NotificationMapper.class, m -> m.findChannel(id)));
        String effectiveType = type != null ? type : existing.type;
        if (details != null) {
            Body check = Body.of(Json.MAPPER.valueToTree(Map.of("details", details)));
            details(check, effectiveType, false);
            check.throwIfInvalid();
            checkUrl(details);
        }
        try {
            return db.tx(session -> {
                NotificationMapper m = session.getMapper(NotificationMapper.class);
                Channel c = Checks.found(m.findChannel(id));
                if (name != null && !name.equals(c.name)) {
                    Channel other = m.findChannelByName(name);
                    if (other != null && !other.id.equals(c.id)) {
                        throw nameTaken();
                    }
                    c.name = name;
                }
                if (body.has("description")) {
                    c.description = description;
                }
                if (type != null) {
                    c.type = type;
                }
                if (details != null) {
                    c.details = codec.encode(details);
                }
                if (active != null && active != c.active) {
                    c.active = active;
                    if (!active) {
                        m.deletePulseChannelsOfChannel(c.id);
                        c.name = ColumnLengths.cut("channel", "name", "DEACTIVATED_" + c.id + " " + c.name);
                    }
                }
                c.updatedAt = OffsetDateTime.now(clock);
                m.updateChannel(c);
                return view(caller, m.findChannel(id));
            });
        } catch (PersistenceException e) {
            throw nameRace(name, e);
        }
    }

    /** {@code POST /api/channel/test}: one request to the webhook; {@code {"ok": true}} or a 400 saying what went wrong. */
    public Map<String, Object> test(Caller caller, JsonNode json) {
        requireAdmin(caller);
        Body body = Body.of(json);
        String type = type(body, false);
        Map<String, Object> details = details(body, type, false);
        body.throwIfInvalid();
        checkUrl(details);
        webhooks.test(details);
        return Map.of("ok", true);
    }

    /** A channel's details in clear, for delivery; null when it is gone or inactive. */
    Map<String, Object> activeDetails(long id) {
        Channel c = db.with(NotificationMapper.class, m -> m.findChannel(id));
        return c == null || !c.active ? null : codec.decode(c.details);
    }

    private void checkUrl(Map<String, Object> details) {
        webhooks.check(String.valueOf(details.get("url")));
    }

    private static void requireAdmin(Caller caller) {
        caller.id();
        if (!caller.superuser()) {
            throw ApiException.forbidden();
        }
    }

    /** {@code type}: a namespaced channel type; only {@code channel/http} is known. */
    private static String type(Body body, boolean nullable) {
        JsonNode value = body.get("type", Body.Kind.STRING);
        if (value.isNull() || value.isMissingNode()) {
            if (!nullable) {
                body.addError("type", NAMESPACED, "missing required key, received: nil");
            }
            return null;
        }
        if (!value.isTextual() || !value.asText().startsWith("channel/")) {
            body.addError("type", NAMESPACED, "should be a namespaced channel, received: " + value);
            return null;
        }
        if (!value.asText().equals(HTTP)) {
            body.addError("type", "Unknown channel type: " + value.asText() + ". The known type is channel/http.",
                    "should be channel/http, received: " + value);
            return null;
        }
        return value.asText();
    }

    /**
     * An http channel's {@code details}: a closed map of {@code url} (an http or https URL), {@code auth-method}
     * (none, header, query-param, request-body), and optionally {@code auth-info} (a map), {@code fe-form-type} and
     * {@code method} (get, post, put).
     */
    private static Map<String, Object> details(Body body, String type, boolean shapeOnly) {
        JsonNode value = body.get("details", Body.Kind.MAP);
        if (!value.isObject()) {
            body.addError("details", "Value must be a map.", value.isNull() || value.isMissingNode()
                    ? "missing required key, received: nil" : "invalid type, received: " + value);
            return null;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        @SuppressWarnings("unchecked")
        Map<String, Object> given = Json.MAPPER.convertValue(value, Map.class);
        details.putAll(given);
        if (shapeOnly || type == null) {
            return details;
        }
        List<String> problems = new ArrayList<>();
        for (String key : given.keySet()) {
            if (!DETAIL_KEYS.contains(key)) {
                problems.add("unknown key " + key);
            }
        }
        Object url = given.get("url");
        if (!(url instanceof String s) || !validUrl(s)) {
            problems.add("url must be an http or https URL");
        }
        if (!(given.get("auth-method") instanceof String m) || !AUTH_METHODS.contains(m)) {
            problems.add("auth-method must be one of " + String.join(", ", AUTH_METHODS));
        }
        if (given.containsKey("auth-info") && !(given.get("auth-info") instanceof Map<?, ?>)) {
            problems.add("auth-info must be a map");
        }
        if (given.containsKey("fe-form-type") && !FORM_TYPES.contains(String.valueOf(given.get("fe-form-type")))) {
            problems.add("fe-form-type must be one of " + String.join(", ", FORM_TYPES));
        }
        if (given.containsKey("method") && !METHODS.contains(String.valueOf(given.get("method")))) {
            problems.add("method must be one of " + String.join(", ", METHODS));
        }
        if (!problems.isEmpty()) {
            body.addError("details", "value must be a map of url, auth-method and optionally auth-info, fe-form-type, method ("
                    + String.join("; ", problems) + ").", String.join("; ", problems) + ", received: " + value);
            return null;
        }
        return details;
    }

    private static boolean validUrl(String url) {
        try {
            URI uri = new URI(url);
            return uri.getHost() != null && ("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()));
        } catch (Exception e) {
            return false;
        }
    }

    private static ApiException nameTaken() {
        return ApiException.withErrors(409, Map.of("name", NAME_TAKEN), null);
    }

    private RuntimeException nameRace(String name, PersistenceException e) {
        if (name != null && db.with(NotificationMapper.class, m -> m.findChannelByName(name)) != null) {
            return nameTaken();
        }
        return e;
    }

    /** The wire form; {@code details} only for administrators (who alone may write channels). */
    private Map<String, Object> view(Caller caller, Channel c) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", c.id);
        v.put("name", c.name);
        v.put("description", c.description);
        v.put("type", c.type);
        if (caller.superuser()) {
            v.put("details", codec.decode(c.details));
        }
        v.put("active", c.active);
        v.put("created_at", c.createdAt);
        v.put("updated_at", c.updatedAt);
        return v;
    }
}
