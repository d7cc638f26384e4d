package io.quarry.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.Db;
import io.quarry.assistant.SchemaSnapshot.FieldInfo;
import io.quarry.assistant.SchemaSnapshot.TableInfo;
import io.quarry.card.Card;
import io.quarry.card.CardService;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.permission.DataPermissions;
import io.quarry.driver.Driver;
import io.quarry.qp.QueryFailure;
import io.quarry.qp.QueryProcessor;
import io.quarry.qp.run.QueryOutcome;
import io.quarry.qp.run.QueryRequest;
import io.quarry.qp.run.QueryRunner;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.MetadataService;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.web.param.Body;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * The assistant: a question about a database or a model becomes a query. With a language model configured it asks the
 * model for SQL and checks the answer (one read-only statement that compiles and runs on the target with the caller's
 * rights, one more try with the error); without one, the offline {@link Translator} writes a structured query. Either
 * way the query goes through the query processor under the caller's rights before it is returned.
 */
public final class AssistantService {
    static final List<String> FEEDBACK_TYPES = List.of("positive", "negative", "great", "wrong-data", "incorrect-result",
            "invalid-sql");

    private final Db db;
    private final DatabaseService databases;
    private final MetadataService metadata;
    private final DataPermissions permissions;
    private final QueryProcessor processor;
    private final QueryRunner runner;
    private final CardService cards;
    private final AssistantSettings settings;
    private final ChatClient chat = new ChatClient();
    private final Clock clock;

    public AssistantService(Db db, io.quarry.setting.Settings settings, String encryptionSecretKey, DatabaseService databases,
                            MetadataService metadata, DataPermissions permissions, QueryProcessor processor, QueryRunner runner,
                            CardService cards, Clock clock) {
        this.db = Objects.requireNonNull(db, "db is null");
        this.settings = AssistantSettings.register(settings, encryptionSecretKey);
        this.databases = Objects.requireNonNull(databases, "databases is null");
        this.metadata = Objects.requireNonNull(metadata, "metadata is null");
        this.permissions = Objects.requireNonNull(permissions, "permissions is null");
        this.processor = Objects.requireNonNull(processor, "processor is null");
        this.runner = Objects.requireNonNull(runner, "runner is null");
        this.cards = Objects.requireNonNull(cards, "cards is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
    }

    /** A query written for a question: the dataset query to save, its SQL, and where it came from. */
    private record Answer(Map<String, Object> datasetQuery, String sql, String display, String source) {
    }

    // --- the endpoints ---------------------------------------------------------------------------------------------

    /** {@code POST /api/assistant/database/:id}: a card-like object, its {@code dataset_query} ready to save. */
    public Map<String, Object> cardForDatabase(Caller caller, long databaseId, JsonNode json) {
        String question = question(json);
        return card(answerForDatabase(caller, databaseId, question), question);
    }

    /**
     * v0.63's {@code POST /api/llm/generate-sql {prompt, database_id}}: {@code {sql, referenced_entities}}, the tables
     * the SQL reads. Offline when no model is configured (where v0.63 answers 403).
     */
    public Map<String, Object> generateSql(Caller caller, JsonNode json) {
        Body body = Body.of(json);
        String prompt = body.nonBlank("prompt");
        Long databaseId = body.posInt("database_id");
        body.throwIfInvalid();
        if (prompt.length() > 2000) {
            throw ApiException.invalidField("prompt", "The prompt may be at most 2,000 characters long.");
        }
        SchemaSnapshot schema = readableSchema(caller, databaseId);
        Answer answer = answer(caller, schema, prompt.strip());
        String upper = answer.sql().toUpperCase(Locale.ROOT);
        List<Map<String, Object>> entities = new ArrayList<>();
        for (TableInfo t : schema.tables()) {
            if (java.util.regex.Pattern.compile("(?<![A-Z0-9_])" + java.util.regex.Pattern.quote(t.name().toUpperCase(Locale.ROOT))
                    + "(?![A-Z0-9_])").matcher(upper).find()) {
                Map<String, Object> entity = new LinkedHashMap<>();
                entity.put("model", "table");
                entity.put("id", t.id());
                entity.put("name", t.name());
                entity.put("schema", t.schema());
                entity.put("columns", t.fields().stream().map(f -> Map.of("name", f.name(), "type", String.valueOf(f.baseType())))
                        .toList());
                entities.add(entity);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("sql", answer.sql());
        out.put("referenced_entities", entities);
        return out;
    }

    /** {@code POST /api/assistant/database/:id/query}: the SQL alone. */
    public Map<String, Object> sqlForDatabase(Caller caller, long databaseId, JsonNode json) {
        String question = question(json);
        Answer answer = answerForDatabase(caller, databaseId, question);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("sql", answer.sql());
        out.put("prompt_template_versions", List.of());
        out.put("source", answer.source());
        return out;
    }

    /** {@code POST /api/assistant/model/:id}: a card-like object whose query reads the model. */
    public Map<String, Object> cardForModel(Caller caller, long modelId, JsonNode json) {
        String question = question(json);
        Card model = cards.requireReadable(modelId, caller);
        if (!"model".equals(model.cardType) || model.archived || model.databaseId == null) {
            throw ApiException.notFound();
        }
        Database database = Checks.found(databases.find(model.databaseId));
        Checks.permitted(permissions.mayRunQuery(caller, database.id, false, true));
        AssistantSettings.Endpoint endpoint = settings.endpoint();
        Answer answer = endpoint == null ? offlineForModel(caller, model, database, question)
                : modelSql(caller, endpoint, model, database, question);
        return card(answer, question);
    }

    /**
     * {@code POST /api/assistant/feedback}: stored for administrators. The kind of feedback is {@code feedback_type}
     * (Metabase's key) or {@code feedback} (the spec's body, {@code {"feedback": "great", "prompt": ..., "sql": ...}});
     * one of the two is required.
     */
    public Map<String, Object> recordFeedback(Caller caller, JsonNode json) {
        Body body = Body.of(json);
        String typeKey = body.hasValue("feedback_type") || !body.hasValue("feedback") ? "feedback_type" : "feedback";
        String type = body.enumOf(typeKey, false, FEEDBACK_TYPES.toArray(String[]::new));
        String entityType = body.optString("entity_type");
        String prompt = body.optString("prompt");
        String sql = body.optString("sql");
        String message = body.optString("message");
        body.throwIfInvalid();
        FeedbackMapper.Feedback f = new FeedbackMapper.Feedback();
        f.userId = caller.authenticated() ? caller.userId() : null;
        f.feedbackType = type;
        f.entityType = limit(entityType, 32);
        f.prompt = prompt;
        f.generatedSql = sql;
        f.message = message;
        f.payload = Json.write(body.raw());
        f.createdAt = OffsetDateTime.now(clock);
        db.run(session -> session.getMapper(FeedbackMapper.class).insertFeedback(f));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("feedback", view(f));
        out.put("message", "Thanks for your feedback");
        return out;
    }

    /** {@code GET /api/assistant/feedback}: newest first, for administrators. */
    public Map<String, Object> listFeedback(int limit, int offset) {
        List<Map<String, Object>> data = db.with(FeedbackMapper.class, m -> m.listFeedback(limit, offset)).stream()
                .map(AssistantService::view).toList();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("data", data);
        out.put("total", db.with(FeedbackMapper.class, FeedbackMapper::countFeedback));
        out.put("limit", limit);
        out.put("offset", offset);
        return out;
    }

    private static Map<String, Object> view(FeedbackMapper.Feedback f) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", f.id);
        out.put("user_id", f.userId);
        out.put("feedback_type", f.feedbackType);
        out.put("entity_type", f.entityType);
        out.put("prompt", f.prompt);
        out.put("sql", f.generatedSql);
        out.put("message", f.message);
        out.put("created_at", f.createdAt);
        return out;
    }

    private static String limit(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max);
    }

    private static String question(JsonNode json) {
        Body body = Body.of(json);
        String question = body.nonBlank("question");
        body.throwIfInvalid();
        if (question.length() > 2000) {
            throw ApiException.invalidField("question", "The question may be at most 2,000 characters long.");
        }
        return question.strip();
    }

    private static Map<String, Object> card(Answer answer, String question) {
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("dataset_query", answer.datasetQuery());
        card.put("display", answer.display());
        card.put("name", question);
        card.put("visualization_settings", Map.of());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("card", card);
        out.put("prompt_template_versions", List.of());
        out.put("bot-sql", answer.sql());
        out.put("source", answer.source());
        return out;
    }

    // --- over a database -------------------------------------------------------------------------------------------

    private Answer answerForDatabase(Caller caller, long databaseId, String question) {
        return answer(caller, readableSchema(caller, databaseId), question);
    }

    /** The database's schema, once the caller is known to see it (404 for an unknown database, 403 for a hidden one). */
    private SchemaSnapshot readableSchema(Caller caller, long databaseId) {
        Database database = Checks.found(databases.find(databaseId));
        Checks.permitted(permissions.canRead(caller, databaseId));
        return SchemaSnapshot.load(metadata, databaseId, sqlName(database));
    }

    private Answer answer(Caller caller, SchemaSnapshot schema, String question) {
        long databaseId = schema.databaseId();
        AssistantSettings.Endpoint endpoint = settings.endpoint();
        if (endpoint == null) {
            return offline(caller, schema, question, permissions.mayRunQuery(caller, databaseId, true, false));
        }
        // the model writes SQL: only a caller who may write SQL on this database may have it written
        Checks.permitted(permissions.mayRunQuery(caller, databaseId, true, false));
        String sql = modelSql(caller, endpoint, databaseId, Prompts.system(schema, question, Prompts.SCHEMA_TOKEN_BUDGET),
                question, sqlText -> nativeQuery(databaseId, sqlText, Map.of()));
        return new Answer(nativeQuery(databaseId, sql, Map.of()), sql, "table", "llm");
    }

    private Answer offline(Caller caller, SchemaSnapshot schema, String question, boolean nativeRights) {
        Translator.Translation translation = translate(schema, question);
        String sql = compiledSql(caller, translation.query());
        // a native question for those who may run SQL (as Metabase's); the structured query for everyone else
        Map<String, Object> datasetQuery = nativeRights ? nativeQuery(schema.databaseId(), sql, Map.of()) : translation.query();
        return new Answer(datasetQuery, sql, translation.display(), "offline");
    }

    private static Translator.Translation translate(SchemaSnapshot schema, String question) {
        Translator translator = new Translator(schema);
        try {
            return translator.translate(question);
        } catch (Translator.NotUnderstood e) {
            String message = "I could not answer \"" + question + "\": " + e.getMessage()
                    + (e.example == null ? "" : " A question I can answer: \"" + e.example + "\".");
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("message", message);
            body.put("errors", Map.of("question", e.getMessage()));
            body.put("example", e.example);
            throw new ApiException(400, message, body);
        }
    }

    /** The structured query compiled for the caller (rights checked), its bind values written in. */
    private String compiledSql(Caller caller, Map<String, Object> query) {
        try {
            QueryProcessor.Prepared prepared = processor.prepare(Json.MAPPER.valueToTree(query), caller, QueryProcessor.Purpose.API);
            return SqlText.inline(prepared.compiled().sql(), prepared.compiled().params(), backslashEscapes(prepared.database()));
        } catch (QueryFailure failure) {
            if (failure.type() == QueryFailure.Type.MISSING_PERMISSIONS) {
                throw ApiException.forbidden();
            }
            throw new ApiException(400, "The question could not be compiled: " + failure.getMessage());
        }
    }

    private static Map<String, Object> nativeQuery(long databaseId, String sql, Map<String, Object> templateTags) {
        Map<String, Object> nativePart = new LinkedHashMap<>();
        nativePart.put("query", sql);
        nativePart.put("template-tags", templateTags);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("database", databaseId);
        out.put("type", "native");
        out.put("native", nativePart);
        return out;
    }

    // --- the language model ---------------------------------------------------------------------------------------

    /**
     * Asks the model for SQL and checks it: one read-only statement (anything else is refused, without another try),
     * then compiled and run on the target under the caller's rights; when that fails the model gets one more try with
     * the error. Returns the SQL that passed.
     */
    private String modelSql(Caller caller, AssistantSettings.Endpoint endpoint, long databaseId, String system, String question,
                            java.util.function.Function<String, Map<String, Object>> asQuery) {
        List<ChatClient.Message> messages = new ArrayList<>();
        messages.add(new ChatClient.Message("system", system));
        messages.add(new ChatClient.Message("user", question));
        String error = null;
        for (int attempt = 0; attempt < 2; attempt++) {
            String reply = chat.complete(endpoint, messages);
            String sql;
            try {
                sql = SqlText.readOnly(SqlText.extract(reply));
            } catch (SqlText.Refused refused) {
                Map<String, Object> body = new LinkedHashMap<>();
                String message = "The language model's answer was refused: " + refused.getMessage();
                body.put("message", message);
                throw new ApiException(400, message, body);
            }
            error = check(caller, asQuery.apply(sql), sql);
            if (error == null) {
                return sql;
            }
            messages.add(new ChatClient.Message("assistant", reply));
            messages.add(new ChatClient.Message("user", Prompts.retry(sql, error)));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        String message = "The language model's SQL did not run on the database, twice. Last error: " + error;
        body.put("message", message);
        throw new ApiException(400, message, body);
    }

    /**
     * Runs the query through the query runner with the caller's rights, as {@code POST /api/dataset} would, reading
     * nothing: a SELECT wrapped under {@code LIMIT 0}, anything else within the API's row limit. Null when it ran, else
     * the database's (or the processor's) error.
     */
    private String check(Caller caller, Map<String, Object> datasetQuery, String sql) {
        @SuppressWarnings("unchecked")
        Map<String, Object> nativePart = new LinkedHashMap<>((Map<String, Object>) datasetQuery.get("native"));
        String text = (String) nativePart.get("query");
        if (sql.strip().toLowerCase(Locale.ROOT).startsWith("select") && text.equals(sql)) {
            nativePart.put("query", "SELECT * FROM (\n" + text + "\n) assistant_check LIMIT 0");
        }
        Map<String, Object> checked = new LinkedHashMap<>(datasetQuery);
        checked.put("native", nativePart);
        QueryOutcome outcome = runner.run(QueryRequest.adHoc(caller, Json.MAPPER.valueToTree(checked)));
        if (outcome instanceof QueryOutcome.Failed failed) {
            return refusedOrError(failed);
        }
        QueryOutcome.Streamed streamed = (QueryOutcome.Streamed) outcome;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            streamed.body().writeTo(out);
        } catch (QueryOutcome.FailedBeforeOutput failure) {
            return refusedOrError(failure.failed());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            JsonNode result = Json.read(out.toString(StandardCharsets.UTF_8));
            return "failed".equals(result.path("status").asText()) ? result.path("error").asText("The query failed.") : null;
        } catch (IOException e) {
            return "The query's result could not be read.";
        }
    }

    private static String refusedOrError(QueryOutcome.Failed failed) {
        if (failed.failure().type() == QueryFailure.Type.MISSING_PERMISSIONS) {
            throw ApiException.forbidden();
        }
        return failed.failure().getMessage();
    }

    // --- over a model ----------------------------------------------------------------------------------------------

    /** The model as a one-table schema: its result columns, referred to by name. */
    private SchemaSnapshot modelSchema(Card model, Database database) {
        List<FieldInfo> columns = new ArrayList<>();
        long n = 0;
        for (JsonNode col : resultMetadata(model)) {
            String name = col.path("name").asText(null);
            if (name == null) {
                continue;
            }
            String display = col.path("display_name").asText(name);
            columns.add(new FieldInfo(++n, -1, name, display, col.path("base_type").asText("type/*"),
                    col.path("semantic_type").isTextual() ? col.path("semantic_type").asText() : null, null, List.of()));
        }
        TableInfo table = new TableInfo(-1, null, model.name, model.name, model.description, columns);
        return new SchemaSnapshot(database.id, sqlName(database), List.of(table), model.id);
    }

    private static List<JsonNode> resultMetadata(Card model) {
        List<JsonNode> out = new ArrayList<>();
        if (model.resultMetadata == null || model.resultMetadata.isBlank()) {
            return out;
        }
        try {
            Json.read(model.resultMetadata).forEach(out::add);
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    private Answer offlineForModel(Caller caller, Card model, Database database, String question) {
        SchemaSnapshot schema = modelSchema(model, database);
        if (schema.tables().get(0).fields().isEmpty()) {
            throw ApiException.badRequest("The model has no known columns yet: run it once, then ask again.");
        }
        Translator.Translation translation = translate(schema, question);
        String sql = compiledSql(caller, translation.query());
        return new Answer(translation.query(), sql, translation.display(), "offline");
    }

    private Answer modelSql(Caller caller, AssistantSettings.Endpoint endpoint, Card model, Database database, String question) {
        Checks.permitted(permissions.mayRunQuery(caller, database.id, true, false));
        SchemaSnapshot schema = modelSchema(model, database);
        String table = tableName(model.name);
        String tag = "#" + model.id + "-" + slug(model.name);
        Map<String, Object> tagSpec = new LinkedHashMap<>();
        tagSpec.put("id", UUID.randomUUID().toString());
        tagSpec.put("name", tag);
        tagSpec.put("display-name", tag);
        tagSpec.put("type", "card");
        tagSpec.put("card-id", model.id);
        Map<String, Object> tags = Map.of(tag, tagSpec);
        String prefix = "WITH " + table + " AS (SELECT * FROM {{" + tag + "}} AS INNER_QUERY)\n";
        String system = Prompts.systemForModel(sqlName(database), table, schema.tables().get(0).fields(), model.description,
                definition(caller, model));
        String sql = modelSql(caller, endpoint, database.id, system, question, s -> nativeQuery(database.id, prefix + s, tags));
        return new Answer(nativeQuery(database.id, prefix + sql, tags), prefix + sql, "table", "llm");
    }

    /** The SQL the model's query compiles to for the caller, or null when it does not compile. */
    private String definition(Caller caller, Card model) {
        try {
            QueryProcessor.Prepared prepared = processor.prepare(Json.read(model.datasetQuery), caller, QueryProcessor.Purpose.API, true);
            return SqlText.inline(prepared.compiled().sql(), prepared.compiled().params(), backslashEscapes(prepared.database()));
        } catch (QueryFailure | IOException | IllegalStateException e) {
            return null;
        }
    }

    /** The model's name as an unquoted SQL identifier: upper case letters, digits and underscores. */
    static String tableName(String name) {
        String t = name == null ? "" : name.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]+", "_").replaceAll("^_+|_+$", "");
        if (t.isEmpty() || Character.isDigit(t.charAt(0))) {
            t = "MODEL_" + t;
        }
        return t;
    }

    private static String slug(String name) {
        String s = name == null ? "" : name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        return s.isEmpty() ? "model" : s;
    }

    /** The name of the database's SQL for the language model ("PostgreSQL", "H2 (2.x)"), from its engine. */
    private String sqlName(Database database) {
        Driver driver = databases.findDriverOf(database);
        return driver == null ? database.engine : driver.dialect().sqlName();
    }

    /** Whether the database's string literals escape backslashes (MySQL and MariaDB by default). */
    private boolean backslashEscapes(Database database) {
        Driver driver = databases.findDriverOf(database);
        return driver != null && driver.dialect().backslashEscapes();
    }
}
