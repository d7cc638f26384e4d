package io.quarry.action;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.Db;
import io.quarry.card.Card;
import io.quarry.card.CardService;
import io.quarry.collection.CollectionAccess;
import io.quarry.core.Caller;
import io.quarry.core.EntityIds;
import io.quarry.core.Json;
import io.quarry.core.UserSummary;
import io.quarry.driver.Driver;
import io.quarry.driver.Feature;
import io.quarry.outbound.OutboundHttp;
import io.quarry.permission.DataPermissions;
import io.quarry.setting.Settings;
import io.quarry.user.User;
import io.quarry.user.UserService;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.DetailsCodec;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.web.param.Body;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Actions: writes attached to a model. Reading an action, and running it, needs read access to its model's
 * collection; creating, changing and deleting one needs write access to it, and for a query action native-query
 * rights on its database. Both the model's database and a query action's database must have
 * {@code database-enable-actions} on (a database setting, off by default) and an engine that supports actions.
 *
 * <p>HTTP actions are served as Metabase v0.63 documents them ({@link HttpActions}), every call going through the
 * {@link OutboundHttp} guard ({@code MB_HTTP_CHANNEL_HOST_STRATEGY}); the newest Metabase refuses them outright
 * ({@code HTTP actions are not supported.}), which the guard makes unnecessary here.
 */
public final class ActionService {
    /** What an HTTP action without a {@code response_handle} answers: 204. */
    public static final Object NO_CONTENT = new Object();
    static final String NOT_ENABLED = "Actions are not enabled.";
    static final Set<String> TYPES = Set.of("query", "implicit", "http");
    static final String[] KINDS = {"row/create", "row/update", "row/delete", "bulk/create", "bulk/update", "bulk/delete"};
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() { };
    private static final TypeReference<List<Object>> LIST = new TypeReference<>() { };

    private final Db db;
    private final CardService cards;
    private final DatabaseService databases;
    private final DataPermissions dataPermissions;
    private final UserService users;
    private final Settings settings;
    private final ActionRunner runner;
    private final HttpActions http;
    /** HTTP templates hold credentials (headers): stored like database details, encrypted under MB_ENCRYPTION_SECRET_KEY. */
    private final DetailsCodec templates;
    private final Clock clock;

    public ActionService(Db db, CardService cards, DatabaseService databases, DataPermissions dataPermissions,
            UserService users, Settings settings, ActionRunner runner, OutboundHttp outbound, DetailsCodec templates,
            Clock clock) {
        this.http = new HttpActions(outbound);
        this.templates = templates;
        this.db = db;
        this.cards = cards;
        this.databases = databases;
        this.dataPermissions = dataPermissions;
        this.users = users;
        this.settings = settings;
        this.runner = runner;
        this.clock = clock;
    }

    // --- read ----------------------------------------------------------------------------------------------------

    /** {@code GET /api/action}: non-archived actions of every readable model, or of one (after a read check on it). */
    public List<Map<String, Object>> list(Caller caller, Long modelId) {
        caller.id();
        if (modelId != null) {
            cards.requireReadable(modelId, caller);
        }
        CollectionAccess.Visible visible = cards.visible(caller);
        Map<Long, Map<String, Object>> creators = new HashMap<>();
        List<Map<String, Object>> out = new ArrayList<>();
        for (Action action : db.with(ActionMapper.class, m -> m.listActions(modelId))) {
            if (visible.canRead(action.modelCollectionId)) {
                out.add(view(action, creators, visible.canWrite(action.modelCollectionId)));
            }
        }
        return out;
    }

    /** {@code GET /api/action/:id}: 404 for an archived action, as in Metabase (it comes back once unarchived). */
    public Map<String, Object> get(Caller caller, long id) {
        return viewOf(caller, requireLive(caller, id));
    }

    private Map<String, Object> viewOf(Caller caller, Action action) {
        return view(action, new HashMap<>(), cards.visible(caller).canWrite(action.modelCollectionId));
    }

    /** {@code GET /api/action/public}: superusers, with public sharing on. */
    public List<Map<String, Object>> publicActions(Caller caller) {
        Checks.permitted(caller.superuser());
        requirePublicSharing();
        List<Map<String, Object>> out = new ArrayList<>();
        for (Action action : db.with(ActionMapper.class, ActionMapper::listPublicActions)) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("name", action.name);
            v.put("id", action.id);
            v.put("public_uuid", action.publicUuid);
            v.put("model_id", action.modelId);
            out.add(v);
        }
        return out;
    }

    // --- write ---------------------------------------------------------------------------------------------------

    public Map<String, Object> create(Caller caller, JsonNode json) {
        long userId = caller.id();
        Body body = Body.of(json).storedIn("model_action");
        String name = body.nonBlank("name");
        String type = body.enumOf("type", false, "query", "implicit", "http");
        Long modelId = body.posInt("model_id");
        String description = body.optString("description");
        String kind = body.optEnum("kind", KINDS);
        Long databaseId = body.optPosInt("database_id");
        Map<String, Object> datasetQuery = body.optMap("dataset_query");
        List<Object> parameters = list(body, "parameters");
        List<Object> parameterMappings = list(body, "parameter_mappings");
        Map<String, Object> visualizationSettings = body.optMap("visualization_settings");
        Map<String, Object> template = body.optMap("template");
        String responseHandle = body.optString("response_handle");
        String errorHandle = body.optString("error_handle");
        body.throwIfInvalid();
        Action action = new Action();
        action.template = template == null ? null : templates.encode(template);
        action.responseHandle = responseHandle;
        action.errorHandle = errorHandle;
        action.entityId = EntityIds.next();
        action.name = name;
        action.type = type;
        action.modelId = modelId;
        action.description = description;
        action.kind = kind;
        action.databaseId = databaseId;
        action.datasetQuery = datasetQuery == null ? null : Json.write(datasetQuery);
        action.parameters = Json.write(parameters == null ? List.of() : parameters);
        action.parameterMappings = Json.write(parameterMappings == null ? List.of() : parameterMappings);
        action.visualizationSettings = Json.write(visualizationSettings == null ? Map.of() : visualizationSettings);
        action.creatorId = userId;
        Card model = validate(caller, action);
        if (action.type.equals("implicit") && parameters == null) {
            action.parameters = Json.write(runner.implicitParameters(model, action.kind));
        }
        if (action.type.equals("query") && parameters == null) {
            action.parameters = Json.write(ActionRunner.queryParameters(parse(action.datasetQuery)));
        }
        if (action.type.equals("http") && parameters == null) {
            action.parameters = Json.write(HttpActions.parameters(templateOf(action)));
        }
        OffsetDateTime now = OffsetDateTime.now(clock);
        action.createdAt = now;
        action.updatedAt = now;
        db.run(session -> session.getMapper(ActionMapper.class).insertAction(action));
        return get(caller, action.id);
    }

    /**
     * {@code PUT /api/action/:id}: the keys present change; {@code archived} archives or restores (the only way back
     * for an archived action, which {@code GET} and the lists no longer show). The answer is the action as stored,
     * archived or not.
     */
    public Map<String, Object> update(Caller caller, long id, JsonNode json) {
        caller.id();
        Action action = Checks.found(db.with(ActionMapper.class, m -> m.findAction(id)));
        cards.requireWritable(action.modelId, caller);
        Body body = Body.of(json).storedIn("model_action");
        String name = body.optNonBlank("name");
        String type = body.optEnum("type", "query", "implicit", "http");
        Long modelId = body.optPosInt("model_id");
        String description = body.optString("description");
        String kind = body.optEnum("kind", KINDS);
        Long databaseId = body.optPosInt("database_id");
        Map<String, Object> datasetQuery = body.optMap("dataset_query");
        List<Object> parameters = list(body, "parameters");
        List<Object> parameterMappings = list(body, "parameter_mappings");
        Map<String, Object> visualizationSettings = body.optMap("visualization_settings");
        Boolean archived = body.optBool("archived");
        Map<String, Object> template = body.optMap("template");
        String responseHandle = body.optString("response_handle");
        String errorHandle = body.optString("error_handle");
        body.throwIfInvalid();
        if (template != null) {
            action.template = templates.encode(template);
        }
        if (body.has("response_handle")) {
            action.responseHandle = responseHandle;
        }
        if (body.has("error_handle")) {
            action.errorHandle = errorHandle;
        }
        if (name != null) {
            action.name = name;
        }
        if (type != null) {
            action.type = type;
        }
        if (modelId != null) {
            action.modelId = modelId;
        }
        if (body.has("description")) {
            action.description = description;
        }
        if (kind != null) {
            action.kind = kind;
        }
        if (databaseId != null) {
            action.databaseId = databaseId;
        }
        if (datasetQuery != null) {
            action.datasetQuery = Json.write(datasetQuery);
        }
        if (parameters != null) {
            action.parameters = Json.write(parameters);
        }
        if (parameterMappings != null) {
            action.parameterMappings = Json.write(parameterMappings);
        }
        if (visualizationSettings != null) {
            action.visualizationSettings = Json.write(visualizationSettings);
        }
        if (archived != null) {
            action.archived = archived;
        }
        validate(caller, action);
        action.updatedAt = OffsetDateTime.now(clock);
        db.run(session -> session.getMapper(ActionMapper.class).updateAction(action));
        return viewOf(caller, requireReadable(caller, id));
    }

    public void delete(Caller caller, long id) {
        caller.id();
        Action action = Checks.found(db.with(ActionMapper.class, m -> m.findAction(id)));
        cards.requireWritable(action.modelId, caller);
        db.run(session -> session.getMapper(ActionMapper.class).deleteAction(id));
    }

    /** The action's public UUID, made now unless it has one: superusers, public sharing on. */
    public String publicLink(Caller caller, long id) {
        Checks.permitted(caller.superuser());
        requirePublicSharing();
        Action action = requireLive(caller, id);
        if (action.publicUuid != null) {
            return action.publicUuid;
        }
        String uuid = UUID.randomUUID().toString();
        db.run(session -> session.getMapper(ActionMapper.class).setPublicUuid(id, uuid, caller.id()));
        return uuid;
    }

    public void removePublicLink(Caller caller, long id) {
        Checks.permitted(caller.superuser());
        requirePublicSharing();
        Action action = Checks.found(db.with(ActionMapper.class, m -> m.findAction(id)));
        if (action.publicUuid == null || action.archived) {
            throw ApiException.notFound();
        }
        db.run(session -> session.getMapper(ActionMapper.class).setPublicUuid(id, null, null));
    }

    // --- run -----------------------------------------------------------------------------------------------------

    /** {@code POST /api/action/:id/execute}: the result, or {@link #NO_CONTENT}. */
    public Object execute(Caller caller, long id, Object parameters) {
        return run(requireLive(caller, id), parameters);
    }

    /** {@code GET /api/action/:id/execute?parameters=}: the current values of the row a row/update or row/delete acts on. */
    public Map<String, Object> prefill(Caller caller, long id, Map<String, Object> parameters) {
        Action action = requireLive(caller, id);
        if (!action.type.equals("implicit")) {
            return Map.of();
        }
        if (!"row/update".equals(action.kind) && !"row/delete".equals(action.kind)) {
            throw ApiException.badRequest("Values can only be fetched for actions that require a Primary Key.");
        }
        Card model = cards.require(action.modelId);
        requireEnabled(model.databaseId);
        return runner.prefill(model, parameters);
    }

    /** The public view of a shared action (no ids of people, no query). */
    public Map<String, Object> publicAction(String uuid) {
        requirePublicSharing();
        Action action = Checks.found(db.with(ActionMapper.class, m -> m.findPublicAction(uuid)));
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", action.id);
        v.put("name", action.name);
        v.put("description", action.description);
        v.put("type", action.type);
        v.put("model_id", action.modelId);
        v.put("parameters", parse(action.parameters));
        v.put("visualization_settings", parse(action.visualizationSettings));
        v.put("public_uuid", action.publicUuid);
        if (action.kind != null) {
            v.put("kind", action.kind);
        }
        return v;
    }

    public Object executePublic(String uuid, Object parameters) {
        requirePublicSharing();
        Action action = Checks.found(db.with(ActionMapper.class, m -> m.findPublicAction(uuid)));
        return run(action, parameters);
    }

    private Object run(Action action, Object parameters) {
        boolean bulk = "implicit".equals(action.type) && action.kind != null && action.kind.startsWith("bulk/");
        if (!bulk && parameters != null && !(parameters instanceof Map<?, ?>)) {
            throw ApiException.invalidField("parameters", "value must be a map of parameter id to value (a list of rows is for bulk actions only).");
        }
        Card model = cards.require(action.modelId);
        requireEnabled(model.databaseId);
        if (bulk) {
            return runner.bulk(model, action.kind, parameters);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> given = parameters == null ? Map.of() : (Map<String, Object>) parameters;
        switch (action.type) {
            case "http" -> {
                HttpActions.Outcome outcome = http.execute(action.name, templateOf(action), action.responseHandle,
                        action.errorHandle, parseList(action.parameters), given);
                return outcome.hasBody() ? outcome.body() : NO_CONTENT;
            }
            case "implicit" -> {
                return runner.implicit(model, action.kind, given);
            }
            case "query" -> {
                requireEnabled(action.databaseId);
                return runner.query(action.databaseId, parseMap(action.datasetQuery), parseList(action.parameters),
                        parseMap(action.visualizationSettings), given);
            }
            default -> throw new IllegalStateException("Unknown action type " + action.type);
        }
    }

    // --- checks --------------------------------------------------------------------------------------------------

    /** A readable action that is not archived: an archived one is 404 (before the rights check), as in Metabase. */
    private Action requireLive(Caller caller, long id) {
        caller.id();
        Action action = Checks.found(db.with(ActionMapper.class, m -> m.findAction(id)));
        if (action.archived) {
            throw ApiException.notFound();
        }
        cards.requireReadable(action.modelId, caller);
        return action;
    }

    private Action requireReadable(Caller caller, long id) {
        caller.id();
        Action action = Checks.found(db.with(ActionMapper.class, m -> m.findAction(id)));
        cards.requireReadable(action.modelId, caller);
        return action;
    }

    /** The rules of a stored action, checked on create and on every update; returns the model. */
    private Card validate(Caller caller, Action action) {
        Card model = cards.require(action.modelId);
        if (!"model".equals(model.cardType)) {
            throw ApiException.invalidField("model_id", "The model does not exist: actions belong to a model.");
        }
        cards.requireWritable(action.modelId, caller);
        requireEnabled(model.databaseId);
        if (action.type.equals("http")) {
            http.validate(action.template == null ? null : templateOf(action), action.responseHandle, action.errorHandle);
            action.kind = null;
            action.databaseId = null;
            action.datasetQuery = null;
        } else if (action.type.equals("implicit")) {
            if (action.kind == null) {
                throw ApiException.invalidField("kind", "Implicit actions need a kind: row/create, row/update, row/delete, bulk/create, bulk/update or bulk/delete.");
            }
            runner.requireSimpleModel(model);
            action.databaseId = null;
            action.datasetQuery = null;
            action.template = null;
        } else {
            if (action.databaseId == null) {
                throw ApiException.badRequest("Must provide a database_id for query actions");
            }
            Map<String, Object> query = parseMap(action.datasetQuery);
            Object nativeQuery = query.get("native") instanceof Map<?, ?> n ? n.get("query") : null;
            if (!(nativeQuery instanceof String sql) || sql.isBlank()) {
                throw ApiException.invalidField("dataset_query",
                        "A query action needs a native query: {\"type\": \"native\", \"native\": {\"query\": \"...\"}}.");
            }
            databases.require(action.databaseId);
            requireEnabled(action.databaseId);
            if (!dataPermissions.access(caller, action.databaseId).canQueryNatively()) {
                throw ApiException.forbidden();
            }
            action.kind = null;
            action.template = null;
        }
        return model;
    }

    /** 400 unless the database has actions turned on and its engine supports them. */
    void requireEnabled(Long databaseId) {
        if (databaseId == null) {
            throw ApiException.badRequest(NOT_ENABLED);
        }
        Database database = databases.require(databaseId);
        Driver driver = databases.findDriverOf(database);
        if (driver == null || !driver.supports(Feature.ACTIONS)) {
            throw withDatabase(database.engine + " Database " + database.id + " \"" + database.name + "\" does not support actions.",
                    database.id);
        }
        Object enabled = database.settings == null ? null : database.settings.get(DatabaseService.ENABLE_ACTIONS_SETTING);
        if (!Boolean.TRUE.equals(enabled)) {
            throw withDatabase(NOT_ENABLED, database.id);
        }
    }

    private static ApiException withDatabase(String message, long databaseId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("message", message);
        body.put("database-id", databaseId);
        return new ApiException(400, message, body);
    }

    private void requirePublicSharing() {
        if (!settings.bool("enable-public-sharing")) {
            throw ApiException.badRequest("Public sharing is not enabled.");
        }
    }

    // --- views ---------------------------------------------------------------------------------------------------

    /**
     * An action as {@code GET /api/action/:id} shows it. An HTTP action's template (URL, headers, body: where its
     * credentials live) only to those who may edit its model ({@code mayEdit}: write on the model's collection);
     * others, who may still run it, see {@code "template": null}.
     */
    private Map<String, Object> view(Action a, Map<Long, Map<String, Object>> creators, boolean mayEdit) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", a.id);
        v.put("entity_id", a.entityId);
        v.put("name", a.name);
        v.put("description", a.description);
        v.put("type", a.type);
        v.put("model_id", a.modelId);
        v.put("archived", a.archived);
        v.put("parameters", parse(a.parameters));
        v.put("parameter_mappings", parse(a.parameterMappings));
        v.put("visualization_settings", parse(a.visualizationSettings));
        v.put("public_uuid", a.publicUuid);
        v.put("made_public_by_id", a.madePublicById);
        v.put("creator_id", a.creatorId);
        v.put("created_at", a.createdAt);
        v.put("updated_at", a.updatedAt);
        switch (a.type) {
            case "query" -> {
                v.put("database_id", a.databaseId);
                v.put("dataset_query", parse(a.datasetQuery));
            }
            case "implicit" -> v.put("kind", a.kind);
            default -> {
                v.put("template", a.template == null || !mayEdit ? null : templateOf(a));
                v.put("response_handle", a.responseHandle);
                v.put("error_handle", a.errorHandle);
            }
        }
        v.put("creator", a.creatorId == null ? null : creators.computeIfAbsent(a.creatorId, this::creator));
        return v;
    }

    private Map<String, Object> creator(long userId) {
        User user = users.find(userId);
        return user == null ? null : new UserSummary(user.id, user.email, user.firstName, user.lastName).view();
    }

    private static List<Object> list(Body body, String key) {
        JsonNode value = body.get(key);
        if (value == null || value.isNull() || value.isMissingNode()) {
            return null;
        }
        if (!value.isArray()) {
            body.addError(key, "nullable sequence", "invalid type, received: " + value);
            return null;
        }
        return Json.MAPPER.convertValue(value, LIST);
    }

    private Map<String, Object> templateOf(Action action) {
        return templates.decode(action.template);
    }

    static Object parse(String text) {
        if (text == null) {
            return null;
        }
        try {
            return Json.MAPPER.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Stored JSON does not parse", e);
        }
    }

    static Map<String, Object> parseMap(String text) {
        return text == null ? Map.of() : Json.MAPPER.convertValue(parse(text), MAP);
    }

    static List<Object> parseList(String text) {
        return text == null ? List.of() : Json.MAPPER.convertValue(parse(text), LIST);
    }
}
