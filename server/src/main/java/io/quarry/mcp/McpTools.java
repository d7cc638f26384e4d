package io.quarry.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.card.Card;
import io.quarry.card.CardService;
import io.quarry.collection.CollectionService;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.dashboard.DashboardService;
import io.quarry.permission.DataPermissions;
import io.quarry.qp.QueryFailure;
import io.quarry.qp.QueryProcessor;
import io.quarry.qp.run.QueryOutcome;
import io.quarry.qp.run.QueryRequest;
import io.quarry.qp.run.QueryRunner;
import io.quarry.render.CardRenderer;
import io.quarry.render.Tabular;
import io.quarry.search.SearchService;
import io.quarry.warehouse.MetadataService;
import io.quarry.warehouse.Table;
import io.quarry.warehouse.TableQueryMetadata;
import io.quarry.web.error.ApiException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCP tools, named and shaped as v0.63's (its Agent API tools). Each call runs as the caller through the services
 * the REST API uses — search, table metadata, the query runner (so data and native rights, the row limit and the
 * query timeout apply), cards, dashboards and collections — and what those refuse comes back as a tool result with
 * {@code isError}, never as an HTTP error.
 *
 * <p>A query handle ({@code construct_query}'s answer) is the checked dataset query, base64url-encoded JSON: the
 * client passes it back to {@code execute_query}, {@code query}, {@code visualize_query} and {@code create_question}.
 * A handle is checked again whenever it is used, so an edited one gains nothing.
 */
public final class McpTools {
    private static final Logger log = LoggerFactory.getLogger(McpTools.class);
    static final int SEARCH_LIMIT = 50;
    static final int PAGE_ROWS = 200;
    static final int MAX_ROWS = 2000;
    static final int MAX_URIS = 5;
    static final int CHART_WIDTH = 800;
    private static final Set<String> SEARCH_MODELS = Set.of("table", "metric", "card", "dataset", "dashboard", "collection");
    private static final Pattern URI = Pattern.compile("metabase://(table|question|model|metric|dashboard|database)/(\\d+)(/fields)?");
    private static final List<String> DISPLAYS = List.of("table", "bar", "line", "area", "row", "pie", "scalar", "combo");

    /** A tool as {@code tools/list} describes it. */
    record Tool(String name, String description, Map<String, Object> inputSchema) {
        Map<String, Object> view() {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("name", name);
            v.put("description", description);
            v.put("inputSchema", inputSchema);
            return v;
        }
    }

    /** A refusal or a failure to report to the client as the tool's result. */
    static final class ToolError extends RuntimeException {
        ToolError(String message) {
            super(message, null, false, false);
        }
    }

    private final McpSettings settings;
    private final SearchService search;
    private final MetadataService metadata;
    private final TableQueryMetadata tableMetadata;
    private final DataPermissions dataPermissions;
    private final QueryProcessor processor;
    private final QueryRunner runner;
    private final CardService cards;
    private final DashboardService dashboards;
    private final CollectionService collections;
    private final CardRenderer renderer;
    private final List<Tool> tools;

    McpTools(McpSettings settings, SearchService search, MetadataService metadata, TableQueryMetadata tableMetadata,
             DataPermissions dataPermissions, QueryProcessor processor, QueryRunner runner, CardService cards,
             DashboardService dashboards, CollectionService collections, CardRenderer renderer) {
        this.settings = Objects.requireNonNull(settings, "settings is null");
        this.search = Objects.requireNonNull(search, "search is null");
        this.metadata = Objects.requireNonNull(metadata, "metadata is null");
        this.tableMetadata = Objects.requireNonNull(tableMetadata, "tableMetadata is null");
        this.dataPermissions = Objects.requireNonNull(dataPermissions, "dataPermissions is null");
        this.processor = Objects.requireNonNull(processor, "processor is null");
        this.runner = Objects.requireNonNull(runner, "runner is null");
        this.cards = Objects.requireNonNull(cards, "cards is null");
        this.dashboards = Objects.requireNonNull(dashboards, "dashboards is null");
        this.collections = Objects.requireNonNull(collections, "collections is null");
        this.renderer = Objects.requireNonNull(renderer, "renderer is null");
        this.tools = definitions();
    }

    // --- tools/list ------------------------------------------------------------------------------------------------

    /** The tools, {@code execute_sql} only while {@code mcp-execute-sql-enabled} is on. */
    List<Map<String, Object>> list() {
        boolean sql = settings.executeSqlEnabled();
        return tools.stream().filter(t -> sql || !t.name().equals("execute_sql")).map(Tool::view).toList();
    }

    private static List<Tool> definitions() {
        Map<String, Object> handle = prop("string", "A query handle from construct_query.");
        return List.of(
                new Tool("search", "Finds tables, metrics, questions, models, dashboards and collections the user may see, "
                        + "by words of their names and descriptions (at most " + SEARCH_LIMIT + ").",
                        schema(Map.of("term_queries", array("Words to look for."),
                                "semantic_queries", array("Phrases to look for (matched by their words).")), List.of())),
                new Tool("read_resource", "Reads up to " + MAX_URIS + " resources: metabase://table/{id} (its fields too), "
                        + "metabase://table/{id}/fields, metabase://database/{id} (its tables), metabase://question/{id}, "
                        + "metabase://model/{id}, metabase://metric/{id}, metabase://dashboard/{id}.",
                        schema(Map.of("uris", array("metabase:// URIs.")), List.of("uris"))),
                new Tool("construct_query", "Checks a structured (MBQL) dataset query — {database, type: \"query\", query: "
                        + "{source-table, aggregation, breakout, filter, order-by, limit}} — with the user's rights and "
                        + "answers a handle to run, chart or save it.",
                        schema(Map.of("query", prop("object", "An MBQL dataset query."),
                                "prompt", prop("string", "What the query is for (not used).")), List.of("query"))),
                new Tool("execute_query", "Runs a query handle: columns and rows (at most " + MAX_ROWS + ").",
                        schema(Map.of("query", handle), List.of("query"))),
                new Tool("query", "Runs a query handle (or a dataset query) a page of " + PAGE_ROWS + " rows at a time, "
                        + MAX_ROWS + " in all; pass the continuation_token answered to read the next page.",
                        schema(Map.of("query", prop(null, "A query handle or an MBQL dataset query."),
                                "continuation_token", prop("string", "The token of the previous page.")), List.of())),
                new Tool("execute_sql", "Runs SQL on a database (needs native query rights on it): columns and rows "
                        + "(at most " + MAX_ROWS + ").",
                        schema(Map.of("database_id", prop("integer", "The database."), "sql", prop("string", "The SQL.")),
                                List.of("database_id", "sql"))),
                new Tool("create_question", "Saves a query handle as a question.",
                        schema(Map.of("name", prop("string", "Its name."), "query", handle,
                                "display", prop("string", "table, bar, line, area, row, pie, scalar, ..."),
                                "description", prop("string", "Its description."),
                                "collection_id", prop("integer", "Its collection (none: the root collection)."),
                                "visualization_settings", prop("object", "Chart settings.")), List.of("name", "query"))),
                new Tool("update_question", "Changes a question: name, description, display, collection_id, archived, query.",
                        schema(Map.of("id", prop("integer", "The question."), "name", prop("string", null),
                                "description", prop("string", null), "display", prop("string", null),
                                "collection_id", prop("integer", null), "archived", prop("boolean", null),
                                "query", handle, "visualization_settings", prop("object", null)), List.of("id"))),
                new Tool("create_dashboard", "Creates a dashboard, with the questions given laid out on it.",
                        schema(Map.of("name", prop("string", "Its name."), "description", prop("string", null),
                                "collection_id", prop("integer", null),
                                "question_ids", Map.of("type", "array", "items", Map.of("type", "integer"))),
                                List.of("name"))),
                new Tool("update_dashboard", "Changes a dashboard: name, description, collection_id, archived.",
                        schema(Map.of("id", prop("integer", "The dashboard."), "name", prop("string", null),
                                "description", prop("string", null), "collection_id", prop("integer", null),
                                "archived", prop("boolean", null)), List.of("id"))),
                new Tool("create_collection", "Creates a collection.",
                        schema(Map.of("name", prop("string", "Its name."), "description", prop("string", null),
                                "parent_collection_id", prop("integer", "Its parent (none: the root collection).")),
                                List.of("name"))),
                new Tool("visualize_query", "Runs a query handle and answers its chart as a PNG image, with the columns "
                        + "and row count.",
                        schema(Map.of("query", handle, "display", prop("string", "bar, line, area, row, pie, scalar, table"),
                                "visualization_settings", prop("object", "Chart settings.")), List.of("query"))));
    }

    private static Map<String, Object> schema(Map<String, Object> properties, List<String> required) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", "object");
        s.put("properties", new java.util.TreeMap<>(properties));
        if (!required.isEmpty()) {
            s.put("required", required);
        }
        return s;
    }

    private static Map<String, Object> prop(String type, String description) {
        Map<String, Object> p = new LinkedHashMap<>();
        if (type != null) {
            p.put("type", type);
        }
        if (description != null) {
            p.put("description", description);
        }
        return p;
    }

    private static Map<String, Object> array(String description) {
        return Map.of("type", "array", "items", Map.of("type", "string"), "description", description);
    }

    // --- tools/call ------------------------------------------------------------------------------------------------

    /** The tool's result: {@code content} (and {@code isError} when it refused or failed). */
    Map<String, Object> call(Caller caller, String name, JsonNode arguments) {
        JsonNode args = arguments == null || arguments.isNull() || arguments.isMissingNode() ? Json.object() : arguments;
        try {
            if (!args.isObject()) {
                throw new ToolError("The arguments must be an object.");
            }
            return switch (name) {
                case "search" -> text(search(caller, args));
                case "read_resource" -> text(readResource(caller, args));
                case "construct_query" -> text(constructQuery(caller, args));
                case "execute_query" -> text(result(run(caller, queryOf(caller, args.get("query"))), 0, MAX_ROWS, null));
                case "query" -> text(page(caller, args));
                case "execute_sql" -> text(executeSql(caller, args));
                case "create_question" -> text(createQuestion(caller, args));
                case "update_question" -> text(updateQuestion(caller, args));
                case "create_dashboard" -> text(createDashboard(caller, args));
                case "update_dashboard" -> text(updateDashboard(caller, args));
                case "create_collection" -> text(createCollection(caller, args));
                case "visualize_query" -> visualize(caller, args);
                default -> error("Unknown tool: " + name);
            };
        } catch (ToolError e) {
            return error(e.getMessage());
        } catch (ApiException e) {
            return error(message(e));
        } catch (QueryFailure e) {
            return error(e.getMessage());
        } catch (RuntimeException e) {
            log.warn("MCP tool {} failed", name, e);
            return error("Internal error");
        }
    }

    static Map<String, Object> text(Object value) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("content", List.of(Map.of("type", "text", "text", value instanceof String s ? s : Json.write(value))));
        return result;
    }

    static Map<String, Object> error(String message) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("content", List.of(Map.of("type", "text", "text", message)));
        result.put("isError", true);
        return result;
    }

    /** What the REST API would have answered, in words: its message, else the fields it named. */
    private static String message(ApiException e) {
        Map<String, Object> body = e.body();
        if (body != null) {
            if (body.get("errors") instanceof Map<?, ?> errors && !errors.isEmpty()) {
                StringBuilder text = new StringBuilder();
                errors.forEach((k, v) -> text.append(text.isEmpty() ? "" : "; ").append(k).append(": ").append(v));
                return text.toString();
            }
            if (body.get("message") instanceof String m) {
                return m;
            }
        }
        return e.status() == 403 ? "You don't have permissions to do that." : e.status() == 404 ? "Not found." : e.getMessage();
    }

    // --- search and resources --------------------------------------------------------------------------------------

    private Map<String, Object> search(Caller caller, JsonNode args) {
        Set<String> terms = new LinkedHashSet<>();
        for (String key : List.of("term_queries", "semantic_queries")) {
            JsonNode list = args.path(key);
            if (!list.isMissingNode() && !list.isNull() && !list.isArray()) {
                throw new ToolError(key + " must be an array of strings.");
            }
            list.forEach(t -> {
                if (t.isTextual() && !t.asText().isBlank()) {
                    terms.add(t.asText().strip());
                }
            });
        }
        List<String> queries = terms.isEmpty() ? java.util.Collections.singletonList(null) : List.copyOf(terms);
        Map<String, Map<String, Object>> found = new LinkedHashMap<>();
        for (String q : queries) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> data = (List<Map<String, Object>>) search.search(caller,
                    new SearchService.Request(q, SEARCH_MODELS, false, null, null, null, SEARCH_LIMIT, 0)).get("data");
            for (Map<String, Object> hit : data) {
                String model = String.valueOf(hit.get("model"));
                found.putIfAbsent(model + "/" + hit.get("id"), hitView(model, hit));
            }
        }
        List<Map<String, Object>> data = found.values().stream().limit(SEARCH_LIMIT).toList();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("data", data);
        out.put("total_count", found.size());
        return out;
    }

    private static Map<String, Object> hitView(String model, Map<String, Object> hit) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("type", switch (model) {
            case "card" -> "question";
            case "dataset" -> "model";
            default -> model;
        });
        v.put("id", hit.get("id"));
        v.put("name", hit.get("name"));
        v.put("display_name", hit.getOrDefault("display_name", hit.get("name")));
        v.put("description", hit.get("description"));
        v.put("database_id", hit.get("database_id"));
        v.put("database_schema", hit.get("table_schema"));
        Object collection = hit.get("collection");
        v.put("collection_id", collection instanceof Map<?, ?> c ? c.get("id") : null);
        v.put("verified", false);
        return v;
    }

    private Map<String, Object> readResource(Caller caller, JsonNode args) {
        JsonNode uris = args.path("uris");
        if (!uris.isArray() || uris.isEmpty()) {
            throw new ToolError("uris must be a non-empty array of metabase:// URIs.");
        }
        if (uris.size() > MAX_URIS) {
            throw new ToolError("At most " + MAX_URIS + " URIs may be read at once.");
        }
        List<Map<String, Object>> resources = new ArrayList<>();
        for (JsonNode node : uris) {
            String uri = node.asText("");
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("uri", uri);
            try {
                r.put("content", resource(caller, uri));
            } catch (ToolError e) {
                r.put("error", e.getMessage());
            } catch (ApiException e) {
                r.put("error", message(e));
            }
            resources.add(r);
        }
        return Map.of("resources", resources);
    }

    private Object resource(Caller caller, String uri) {
        Matcher m = URI.matcher(uri);
        if (!m.matches()) {
            throw new ToolError("Unknown resource URI: " + uri);
        }
        long id = Long.parseLong(m.group(2));
        if (m.group(3) != null && !m.group(1).equals("table")) {
            throw new ToolError("Unknown resource URI: " + uri);
        }
        return switch (m.group(1)) {
            case "table" -> tableView(tableMetadata.of(id, caller, false, false, false));
            case "database" -> databaseView(caller, id);
            case "dashboard" -> dashboardView(dashboards.get(caller, id));
            default -> cardView(cards.requireReadable(id, caller), m.group(1));
        };
    }

    private static Map<String, Object> tableView(Map<String, Object> table) {
        Map<String, Object> v = new LinkedHashMap<>();
        for (String key : List.of("id", "db_id", "schema", "name", "display_name", "description")) {
            v.put(key, table.get(key));
        }
        List<Map<String, Object>> fields = new ArrayList<>();
        if (table.get("fields") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> f) {
                    Map<String, Object> field = new LinkedHashMap<>();
                    for (String key : List.of("id", "name", "display_name", "description", "base_type", "effective_type",
                            "semantic_type", "fk_target_field_id")) {
                        field.put(key, f.get(key));
                    }
                    fields.add(field);
                }
            }
        }
        v.put("fields", fields);
        return v;
    }

    private Map<String, Object> databaseView(Caller caller, long dbId) {
        dataPermissions.requireRead(caller, dbId);
        List<Map<String, Object>> tables = new ArrayList<>();
        for (Table t : metadata.tables(dbId, true)) {
            if (t.visibilityType != null) {
                continue;
            }
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("id", t.id);
            v.put("schema", t.schemaName);
            v.put("name", t.name);
            v.put("display_name", t.displayName);
            v.put("description", t.description);
            tables.add(v);
        }
        return Map.of("id", dbId, "tables", tables);
    }

    private static Map<String, Object> cardView(Card card, String asked) {
        String type = "model".equals(card.cardType) ? "model" : "metric".equals(card.cardType) ? "metric" : "question";
        if (!type.equals(asked) || card.archived) {
            throw ApiException.notFound();
        }
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", card.id);
        v.put("type", type);
        v.put("name", card.name);
        v.put("description", card.description);
        v.put("display", card.display);
        v.put("collection_id", card.collectionId);
        v.put("database_id", card.databaseId);
        v.put("dataset_query", readJson(card.datasetQuery));
        v.put("result_metadata", readJson(card.resultMetadata));
        return v;
    }

    private static Map<String, Object> dashboardView(Map<String, Object> dashboard) {
        if (Boolean.TRUE.equals(dashboard.get("archived"))) {
            throw ApiException.notFound();
        }
        Map<String, Object> v = new LinkedHashMap<>();
        for (String key : List.of("id", "name", "description", "collection_id")) {
            v.put(key, dashboard.get(key));
        }
        List<Map<String, Object>> dashcards = new ArrayList<>();
        if (dashboard.get("dashcards") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> dc) {
                    Map<String, Object> d = new LinkedHashMap<>();
                    d.put("id", dc.get("id"));
                    d.put("card_id", dc.get("card_id"));
                    dashcards.add(d);
                }
            }
        }
        v.put("dashcards", dashcards);
        return v;
    }

    private static Object readJson(String text) {
        if (text == null) {
            return null;
        }
        try {
            return Json.read(text);
        } catch (IOException e) {
            return null;
        }
    }

    // --- queries ---------------------------------------------------------------------------------------------------

    private Map<String, Object> constructQuery(Caller caller, JsonNode args) {
        JsonNode query = checked(caller, args.get("query"));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("query", encode(query));
        out.put("database_id", query.path("database").asLong());
        return out;
    }

    /**
     * A structured dataset query the caller may run, as given: resolved and compiled by the query processor with the
     * caller's rights. SQL is refused (execute_sql runs SQL).
     */
    private JsonNode checked(Caller caller, JsonNode query) {
        if (query == null || !query.isObject()) {
            throw new ToolError("query must be an MBQL dataset query object: {database, type: \"query\", query: {...}}.");
        }
        if (!query.path("database").canConvertToExactIntegral()) {
            throw new ToolError("query.database must be a database id.");
        }
        QueryProcessor.Resolved resolved = processor.resolve(query);
        if (resolved.usesNative()) {
            throw new ToolError("A query handle holds a structured query; run SQL with execute_sql.");
        }
        processor.prepare(query, caller, QueryProcessor.Purpose.API);
        return query;
    }

    /** The dataset query of a handle (or of a query object, checked the same way). */
    private JsonNode queryOf(Caller caller, JsonNode value) {
        if (value != null && value.isTextual()) {
            return checked(caller, decode(value.asText()));
        }
        return checked(caller, value);
    }

    static String encode(JsonNode query) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Json.write(query).getBytes(StandardCharsets.UTF_8));
    }

    static JsonNode decode(String handle) {
        try {
            return Json.read(new String(Base64.getUrlDecoder().decode(handle.strip()), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | IOException e) {
            throw new ToolError("Not a query handle: construct_query answers one.");
        }
    }

    /** Runs a dataset query as {@code POST /api/dataset} runs it, for the caller: the result, or a tool error. */
    private JsonNode run(Caller caller, JsonNode datasetQuery) {
        QueryOutcome outcome = runner.run(QueryRequest.adHoc(caller, datasetQuery));
        if (outcome instanceof QueryOutcome.Failed failed) {
            throw new ToolError(failed.failure().getMessage());
        }
        if (!(outcome instanceof QueryOutcome.Streamed streamed)) {
            throw new IllegalStateException("unexpected outcome " + outcome);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            streamed.body().writeTo(out);
        } catch (QueryOutcome.FailedBeforeOutput failure) {
            throw new ToolError(failure.failed().failure().getMessage());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        JsonNode result;
        try {
            result = Json.read(out.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("the query's answer is not JSON", e);
        }
        if ("failed".equals(result.path("status").asText())) {
            throw new ToolError(result.path("error").asText("The query failed."));
        }
        return result;
    }

    /** Rows {@code from} (at most {@code count} of them) of a result, with its columns. */
    private static Map<String, Object> result(JsonNode result, int from, int count, String continuationToken) {
        JsonNode data = result.path("data");
        List<Map<String, Object>> cols = new ArrayList<>();
        for (JsonNode col : data.path("cols")) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("name", col.path("name").asText(null));
            c.put("display_name", col.path("display_name").asText(null));
            c.put("base_type", col.path("base_type").asText(null));
            c.put("effective_type", col.path("effective_type").asText(col.path("base_type").asText(null)));
            cols.add(c);
        }
        JsonNode rows = data.path("rows");
        List<JsonNode> page = new ArrayList<>();
        for (int i = from; i < rows.size() && i < from + count; i++) {
            page.add(rows.get(i));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", "completed");
        out.put("data", Map.of("cols", cols, "rows", page));
        out.put("row_count", page.size());
        out.put("running_time", result.path("running_time").asLong());
        if (continuationToken != null) {
            out.put("continuation_token", continuationToken);
        }
        return out;
    }

    private Map<String, Object> page(Caller caller, JsonNode args) {
        JsonNode query;
        int offset = 0;
        JsonNode token = args.get("continuation_token");
        if (token != null && !token.isNull()) {
            JsonNode state = decode(token.asText());
            if (!state.path("offset").canConvertToInt() || state.path("offset").asInt() < 0 || !state.path("query").isObject()) {
                throw new ToolError("Not a continuation token of this query tool.");
            }
            offset = state.path("offset").asInt();
            query = checked(caller, state.get("query"));
        } else {
            query = queryOf(caller, args.get("query"));
        }
        JsonNode result = run(caller, query);
        int total = Math.min(result.path("data").path("rows").size(), MAX_ROWS);
        String next = null;
        if (offset + PAGE_ROWS < total) {
            ObjectNode state = Json.object();
            state.set("query", query);
            state.put("offset", offset + PAGE_ROWS);
            next = encode(state);
        }
        return result(result, offset, Math.min(PAGE_ROWS, Math.max(0, total - offset)), next);
    }

    private Map<String, Object> executeSql(Caller caller, JsonNode args) {
        if (!settings.executeSqlEnabled()) {
            throw new ToolError("Running SQL through MCP is turned off (mcp-execute-sql-enabled).");
        }
        JsonNode db = args.path("database_id");
        String sql = args.path("sql").asText("");
        if (!db.canConvertToExactIntegral() || db.asLong() <= 0) {
            throw new ToolError("database_id must be a database id.");
        }
        if (sql.isBlank()) {
            throw new ToolError("sql must be a non-blank string.");
        }
        ObjectNode query = Json.object();
        query.put("database", db.asLong());
        query.put("type", "native");
        query.putObject("native").put("query", sql);
        return result(run(caller, query), 0, MAX_ROWS, null);
    }

    private Map<String, Object> visualize(Caller caller, JsonNode args) {
        JsonNode result = run(caller, queryOf(caller, args.get("query")));
        String display = args.path("display").asText("bar");
        if (!DISPLAYS.contains(display)) {
            throw new ToolError("display must be one of " + String.join(", ", DISPLAYS) + ".");
        }
        ObjectNode card = Json.object();
        card.put("display", display);
        card.set("visualization_settings", args.path("visualization_settings").isObject()
                ? args.get("visualization_settings") : Json.object());
        byte[] png = renderer.png(card, Tabular.fromResultData(result.path("data")), CHART_WIDTH);
        Map<String, Object> summary = result(result, 0, 0, null);
        summary.put("row_count", result.path("data").path("rows").size());
        summary.put("display", display);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("content", List.of(
                Map.of("type", "image", "mimeType", "image/png", "data", Base64.getEncoder().encodeToString(png)),
                Map.of("type", "text", "text", Json.write(summary))));
        return out;
    }

    // --- writes ----------------------------------------------------------------------------------------------------

    private Map<String, Object> createQuestion(Caller caller, JsonNode args) {
        ObjectNode body = copy(args, "name", "description", "collection_id", "visualization_settings");
        body.set("dataset_query", queryOf(caller, args.get("query")));
        body.put("display", args.path("display").asText("table"));
        if (!body.has("visualization_settings")) {
            body.putObject("visualization_settings");
        }
        return questionView(cards.create(body, caller));
    }

    private Map<String, Object> updateQuestion(Caller caller, JsonNode args) {
        long id = id(args, "id");
        ObjectNode body = copy(args, "name", "description", "display", "collection_id", "archived", "visualization_settings");
        if (args.has("query")) {
            body.set("dataset_query", queryOf(caller, args.get("query")));
        }
        return questionView(cards.update(id, body, caller));
    }

    private static Map<String, Object> questionView(Card card) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", card.id);
        v.put("name", card.name);
        v.put("display", card.display);
        v.put("collection_id", card.collectionId);
        v.put("description", card.description);
        v.put("archived", card.archived);
        return v;
    }

    private Map<String, Object> createDashboard(Caller caller, JsonNode args) {
        List<Long> questionIds = new ArrayList<>();
        JsonNode ids = args.path("question_ids");
        if (!ids.isMissingNode() && !ids.isNull()) {
            if (!ids.isArray()) {
                throw new ToolError("question_ids must be an array of question ids.");
            }
            for (JsonNode q : ids) {
                if (!q.canConvertToExactIntegral() || q.asLong() <= 0) {
                    throw new ToolError("question_ids must be an array of question ids.");
                }
                // each question must be one the caller may read, before anything is created
                cards.requireReadable(q.asLong(), caller);
                questionIds.add(q.asLong());
            }
        }
        Map<String, Object> dashboard = dashboards.create(caller, copy(args, "name", "description", "collection_id"));
        long id = ((Number) dashboard.get("id")).longValue();
        if (!questionIds.isEmpty()) {
            ObjectNode layout = Json.object();
            var dashcards = layout.putArray("dashcards");
            for (int i = 0; i < questionIds.size(); i++) {
                ObjectNode dc = dashcards.addObject();
                dc.put("id", -(i + 1));
                dc.put("card_id", questionIds.get(i));
                dc.put("row", (i / 2) * 6);
                dc.put("col", (i % 2) * 12);
                dc.put("size_x", 12);
                dc.put("size_y", 6);
            }
            dashboard = dashboards.update(caller, id, layout);
        }
        return dashboardWriteView(dashboard);
    }

    private Map<String, Object> updateDashboard(Caller caller, JsonNode args) {
        long id = id(args, "id");
        return dashboardWriteView(dashboards.update(caller, id, copy(args, "name", "description", "collection_id", "archived")));
    }

    private static Map<String, Object> dashboardWriteView(Map<String, Object> dashboard) {
        Map<String, Object> v = new LinkedHashMap<>();
        for (String key : List.of("id", "name", "collection_id", "description", "archived")) {
            v.put(key, dashboard.get(key));
        }
        List<Object> dashcardIds = new ArrayList<>();
        if (dashboard.get("dashcards") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> dc) {
                    dashcardIds.add(dc.get("id"));
                }
            }
        }
        v.put("dashcard_ids", dashcardIds);
        return v;
    }

    private Map<String, Object> createCollection(Caller caller, JsonNode args) {
        ObjectNode body = copy(args, "name", "description");
        if (args.has("parent_collection_id")) {
            body.set("parent_id", args.get("parent_collection_id"));
        }
        Map<String, Object> c = collections.create(caller, body);
        Map<String, Object> v = new LinkedHashMap<>();
        for (String key : List.of("id", "name", "parent_id", "location", "description")) {
            v.put(key, c.get(key));
        }
        return v;
    }

    private static ObjectNode copy(JsonNode args, String... keys) {
        ObjectNode body = Json.object();
        for (String key : keys) {
            if (args.has(key)) {
                body.set(key, args.get(key));
            }
        }
        return body;
    }

    private static long id(JsonNode args, String key) {
        JsonNode id = args.path(key);
        if (!id.canConvertToExactIntegral() || id.asLong() <= 0) {
            throw new ToolError(key + " must be a positive integer.");
        }
        return id.asLong();
    }
}
