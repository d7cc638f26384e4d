package io.quarry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.core.Json;
import io.quarry.boot.Resources;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Body;
import io.quarry.web.param.BoolStr;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The property of issue #10 over every resource method registered in {@link Resources#ALL}, read by reflection (so a
 * method added later is swept without touching this test):
 * <ul>
 *   <li>every typed path parameter and query parameter, given a value of the wrong type or out of range, is a 400 whose
 *   {@code errors} names it; every other path parameter given garbage is a 4xx;</li>
 *   <li>every body-taking method, given a body of the wrong JSON type, is a 400;</li>
 *   <li>none of it is ever a 5xx, and afterwards the application database holds exactly what it held before (every
 *   table's rows compared, except the bookkeeping tables a request writes by itself).</li>
 * </ul>
 * And the per-field property, over every body-taking method: the fields a method reads are learnt from its own
 * validation as it runs (a {@link Body.Observer} sees every field a {@link Body} accessor reads, with the type it
 * expects), so a field added to an endpoint later is swept without editing this test. For every such field, a value
 * of the wrong JSON type and, for integers, an out-of-range one is a 400 whose {@code errors} names the field, never a
 * 5xx, and the application database is unchanged afterwards. {@link BodyFieldTypesIT} adds read-backs per object.
 */
class EveryResourceMethodIT {
    private static final String HUGE = "99999999999999999999";
    /**
     * Tables a refused request may still write, and those the scheduler writes while the sweep runs (a job due at the
     * turn of a minute leases and records itself): sessions, logs, histories, caches, the migration bookkeeping.
     */
    private static final Set<String> BOOKKEEPING = Set.of("databasechangelog", "databasechangeloglock", "core_session",
            "login_history", "quarry_cache_revision", "query_execution", "audit_log", "view_log", "recent_views", "task_history", "query_cache",
            "qrtz_fired_triggers", "qrtz_scheduler_state", "qrtz_locks", "qrtz_triggers", "qrtz_simple_triggers",
            "qrtz_cron_triggers", "quarry_job_lease", "quarry_job_run");
    private static final Pattern TEMPLATE = Pattern.compile("\\{\\s*([^}:\\s]+)\\s*(?::\\s*([^}]*))?}");

    /**
     * Body-taking methods whose path names an object the sweep does not make (its module is owned elsewhere): the
     * wrong body type is answered by the 404 of the unknown object. The test fails when one of them stops being a 404.
     */
    private static final Set<String> UNREACHED = Set.of("PUT action/{id} (ActionResource.update)");

    private static TestServer server;
    private static long cardId;
    private static long databaseId;
    private static long tableId;
    private static long dashboardId;
    private static long dashcardId;
    private static String publicCard;
    private static String publicDashboard;
    private static Api admin;
    private static Api anonymous;

    record Endpoint(String verb, String template, Method method) {
        String label() {
            return verb + " " + template + " (" + method.getDeclaringClass().getSimpleName() + "." + method.getName() + ")";
        }
    }

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        long database = databaseId = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD)))
                .json().get("id").asLong();
        server.quarry().sync.syncInBackground(database).get();
        tableId = admin.get(200, "table").json().get(0).get("id").asLong();
        cardId = admin.post(200, "card", Map.of("name", "Orders", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", database, "type", "native", "native", Map.of("query", "SELECT 1"))))
                .json().get("id").asLong();
        dashboardId = admin.post(200, "dashboard", Map.of("name", "Board")).json().get("id").asLong();
        dashcardId = admin.put(200, "dashboard/" + dashboardId, Map.of("dashcards", List.of(Map.of("id", -1, "card_id", cardId,
                "row", 0, "col", 0, "size_x", 4, "size_y", 4)))).json().get("dashcards").get(0).get("id").asLong();
        admin.post(200, "collection", Map.of("name", "Shelf"));
        admin.put(204, "setting/enable-public-sharing", Map.of("value", true));
        publicCard = admin.post(200, "card/" + cardId + "/public_link", Map.of()).json().get("uuid").asText();
        publicDashboard = admin.post(200, "dashboard/" + dashboardId + "/public_link", Map.of()).json().get("uuid").asText();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static List<Endpoint> endpoints() {
        List<Endpoint> all = new ArrayList<>();
        for (Class<?> resource : Resources.ALL) {
            for (Method method : resource.getMethods()) {
                String verb = verb(method);
                if (verb != null) {
                    all.add(new Endpoint(verb, template(resource, method), method));
                }
            }
        }
        all.sort(java.util.Comparator.comparing(Endpoint::label));
        return all;
    }

    /** One body field as an accessor read it: its parent path ({@code ""} or {@code "database."}), key and type. */
    record Field(String at, String key, Body.Kind kind) {
        String path() {
            return at + key;
        }
    }

    /** Records the fields read; in probe mode, stops the request at its first validity check, before any work. */
    static final class Recorder implements Body.Observer {
        final Set<Field> fields = java.util.Collections.synchronizedSet(new java.util.LinkedHashSet<>());
        volatile boolean probing;

        @Override
        public void read(String at, String key, Body.Kind kind) {
            fields.add(new Field(at, key, kind));
        }

        @Override
        public void checking() {
            if (probing) {
                throw ApiException.invalidField(PROBE, "stopped by the test before any work");
            }
        }
    }

    private static final String PROBE = "quarry-test-probe";

    /**
     * Body-taking methods whose fields the sweep cannot learn, each for a reason and each with its own test of wrong
     * types; they are not probed. The sweep fails when another method reads no field through {@link Body} (so a new
     * endpoint cannot skip the typed accessors unnoticed) and when one of these no longer exists.
     */
    private static final Set<String> READ_ELSEWHERE = new java.util.TreeSet<>(Set.of(
            // keyed by setting name, each value of the setting's own type: BodyFieldTypesIT.settingsOfEveryTypeRefuseTheWrongType
            "PUT setting (SettingResource.writeMany)", "PUT setting/{key} (SettingResource.write)",
            // keyed by group and database ids: BodyFieldTypesIT.dataPermissionGraph
            "PUT permissions/graph (DataPermissionResource.put)",
            // a list of [type, id] pairs: BodyFieldTypesIT.cardMoveAndTableBulkUpdateAndBookmarkOrderingRefuseWrongTypes
            "PUT bookmark/ordering (BookmarkResource.ordering)",
            // closed once setup is done (403 whatever the fields, as Metabase): SetupIT checks its fields during setup,
            // SetupValidateIT that it is closed after
            "POST setup/validate (SetupResource.validate)",
            // Metabase's own 400 bodies per field (its schema's messages, not Body's): LoggerIT.badAdjustmentsAre400AndChangeNothing
            "POST logger/adjustment (Logger.adjust)",
            // the sweep makes no action (its module's fixtures are ActionsIT's): the 404 of action 1 comes first
            "PUT action/{id} (ActionResource.update)",
            // the sweep's dashcard runs its card before the options are read: DashboardExportIT covers the options
            "POST dashboard/{id}/dashcard/{dashcard-id}/card/{card-id}/query/{export-format: csv|json|xlsx|api} (DashboardResource.exportJson)"));

    /**
     * Methods whose body is, as in Metabase, a bare list or an object holding it ({@code [ids]} or
     * {@code {"field_order": [ids]}}): a list of the wrong elements is their bad body, not a list as such.
     */
    private static final Set<String> LIST_OR_OBJECT = Set.of("PUT table/{id}/fields/order (TableMetadataResource.fieldOrder)");

    /**
     * Bodies to discover fields with: {@code {}} for every method, and for the methods that read some fields only once
     * others are present (the inner structure of a query, a nested database) bodies that get there.
     */
    private static List<ObjectNode> probeBodies(Endpoint endpoint) {
        ObjectNode nativeQuery = Json.object();
        nativeQuery.put("database", databaseId).put("type", "native").putObject("native").put("query", "SELECT 1")
                .putObject("template-tags");
        nativeQuery.putArray("parameters");
        ObjectNode structured = Json.object();
        structured.put("database", databaseId).put("type", "query").putObject("query").put("source-table", tableId);
        List<ObjectNode> probes = new ArrayList<>(List.of(Json.object()));
        switch (endpoint.verb() + " " + endpoint.template().replaceAll("\\{[^}]*}", "{}")) {
            case "POST dataset", "POST dataset/pivot", "POST dataset/native", "POST dataset/query_metadata", "POST card/related" -> {
                probes.add(nativeQuery);
                probes.add(structured);
            }
            case "POST dataset/{}" -> {
                probes.add(Json.object().<ObjectNode>set("query", nativeQuery));
                probes.add(Json.object().<ObjectNode>set("query", structured));
            }
            case "POST setup" -> probes.add((ObjectNode) Json.object().set("database", Json.object().put("engine", "h2")));
            case "POST database/validate" -> probes.add((ObjectNode) Json.object().set("details", Json.object().put("engine", "h2")));
            default -> { }
        }
        return probes;
    }

    /** Values of the wrong JSON type for a kind, and for integers the out-of-range ones. */
    private static List<Object> wrongValues(Field field) {
        return switch (field.kind()) {
            case BOOLEAN -> List.of("TRUE ", 1, Map.of());
            case POS_INT -> field.key().equals("id") || field.key().endsWith("_id") || field.key().endsWith("-id")
                    ? List.of("5", new java.math.BigInteger(HUGE), 1.5, true, 0, -3)
                    : List.of("5", new java.math.BigInteger(HUGE), 1.5, true, 0, -3, 2147483648L);
            case STRING -> List.of(42, true, List.of("x"), Map.of("a", 1));
            case POS_INTS -> List.of("x", 7, List.of("x"), List.of(0), List.of(1.5), Map.of());
            case MAP -> List.of("x", List.of(1), 7);
            case OBJECTS -> List.of("x", 7, List.of(7));
        };
    }

    @Test
    void everyBodyFieldOfEveryMethodRefusesTheWrongTypeAndChangesNothing() throws Exception {
        Map<String, String> before = snapshot();
        Recorder recorder = new Recorder();
        Body.observe(recorder);
        List<String> wrong = new ArrayList<>();
        List<String> readNothing = new ArrayList<>();
        List<String> listed = new ArrayList<>();
        int swept = 0;
        try {
            for (Endpoint endpoint : endpoints()) {
                Parameter body = bodyParameter(endpoint.method());
                if (body == null || body.getType() != JsonNode.class) {
                    continue; // no body, or form fields (strings by nature, decoded by the same accessors)
                }
                if (READ_ELSEWHERE.contains(endpoint.label())) {
                    listed.add(endpoint.label()); // not probed: with no validity check to stop at, the probe would run it
                    continue;
                }
                String url = fill(endpoint.template(), validPathValues(endpoint.template()));
                Map<Field, ObjectNode> fields = new LinkedHashMap<>();
                for (ObjectNode probe : probeBodies(endpoint)) {
                    recorder.fields.clear();
                    recorder.probing = true;
                    Api.Res first = admin.call(endpoint.verb(), url, probe);
                    recorder.probing = false;
                    if (first.status() >= 500) {
                        wrong.add(endpoint.label() + ": probe " + probe + " -> " + first.status() + " " + first.body());
                    }
                    for (Field field : new ArrayList<>(recorder.fields)) {
                        fields.putIfAbsent(field, probe);
                    }
                }
                System.out.println("body fields of " + endpoint.label() + ": " + fields.keySet());
                if (fields.isEmpty()) {
                    readNothing.add(endpoint.label());
                }
                for (Map.Entry<Field, ObjectNode> entry : fields.entrySet()) {
                    Field field = entry.getKey();
                    ObjectNode probe = entry.getValue();
                    if (field.at().contains("[]")) {
                        continue; // inside list elements: each list's own elements are checked by its owner's test
                    }
                    swept++;
                    for (Object bad : wrongValues(field)) {
                        ObjectNode sent = probe.deepCopy();
                        put(sent, field, bad);
                        Api.Res res = admin.call(endpoint.verb(), url, sent);
                        // behind a public link every refusal is Metabase's plain 400 "An error occurred.", naming nothing
                        boolean named = errorsName(res, field.key())
                                || endpoint.template().startsWith("public/") && res.body().equals("An error occurred.");
                        if (res.status() != 400 || !named) {
                            wrong.add(endpoint.label() + " field " + field.path() + " (" + field.kind() + "): " + Json.write(sent)
                                    + " -> " + res.status() + " " + res.body().substring(0, Math.min(200, res.body().length())));
                        }
                    }
                }
            }
        } finally {
            Body.observe(null);
        }
        assertEquals(List.of(), readNothing, "body-taking methods that read no field through Body");
        assertEquals(READ_ELSEWHERE, new java.util.TreeSet<>(listed), "methods listed in READ_ELSEWHERE that no longer exist");
        assertEquals(List.of(), wrong, "answers to a wrong body field");
        Map<String, String> after = snapshot();
        List<String> changed = new ArrayList<>();
        before.forEach((table, rows) -> {
            if (!rows.equals(after.get(table))) {
                changed.add(table + ":\n" + rows + "\n->\n" + after.get(table));
            }
        });
        assertEquals(List.of(), changed, "a refused body changed the application database");
        assertTrue(swept > 300, swept + " fields swept");
    }

    /** Sets {@code value} at the field's path, making the parent objects it needs. */
    private static void put(ObjectNode body, Field field, Object value) {
        ObjectNode parent = body;
        for (String step : field.at().split("\\.")) {
            if (!step.isEmpty()) {
                parent = parent.get(step) instanceof ObjectNode inner ? inner : parent.putObject(step);
            }
        }
        parent.set(field.key(), Json.MAPPER.valueToTree(value));
    }

    @Test
    void badPathQueryAndBodyValuesOfEveryMethodAreRefusedAndChangeNothing() throws Exception {
        Map<String, String> before = snapshot();
        List<String> wrong = new ArrayList<>();
        int calls = 0;
        List<Endpoint> endpoints = endpoints();
        for (Endpoint endpoint : endpoints) {
            for (Api caller : isPublic(endpoint.method()) ? List.of(admin, anonymous) : List.of(admin)) {
                calls += sweep(endpoint, caller, wrong);
            }
        }
        assertEquals(List.of(), wrong, "answers to bad input");
        Map<String, String> after = snapshot();
        List<String> changed = new ArrayList<>();
        before.forEach((table, rows) -> {
            if (!rows.equals(after.get(table))) {
                changed.add(table + ":\n" + rows + "\n->\n" + after.get(table));
            }
        });
        assertEquals(List.of(), changed, "a refused request changed the application database");
        assertTrue(endpoints.size() > 200 && calls > 500, endpoints.size() + " methods, " + calls + " calls");
    }

    /**
     * Every method answers whatever {@code Accept} says (Metabase ignores it): each is called with JSON, HTML, a type
     * nobody serves, a list of them and an unreadable header, on ids and names that do not exist (so nothing is
     * changed), and none is ever a 406 or a 415, nor a 5xx; the status is the same as with no {@code Accept} at all.
     * Then the HTML and PNG previews and a CSV download are asked for with {@code Accept: application/json}.
     */
    @Test
    void everyMethodAnswersWhateverTheAcceptHeaderSays() {
        Api own = anonymous.as(Fixtures.login(anonymous, Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD));
        List<String> accepts = List.of("application/json", "text/html", "application/x-quarry-unknown",
                "text/csv, image/gif;q=0.5", "not a media type", "application/json;q=abc");
        List<String> wrong = new ArrayList<>();
        int calls = 0;
        for (Endpoint endpoint : endpoints()) {
            if (endpoint.label().startsWith("DELETE session ")) {
                continue; // would sign this sweep out
            }
            String url = fill(endpoint.template(), missingPathValues(endpoint.template()));
            String body = bodyFor(endpoint);
            int plain = own.call(endpoint.verb(), url, body).status();
            for (String accept : accepts) {
                Api.Res res = own.withHeader("Accept", accept).call(endpoint.verb(), url, body);
                calls++;
                if (res.status() == 406 || res.status() == 415 || res.status() >= 500 || res.status() != plain) {
                    wrong.add(endpoint.label() + " Accept: " + accept + " -> " + res.status() + " (without: " + plain + ") "
                            + res.body().substring(0, Math.min(120, res.body().length())));
                }
            }
        }
        assertEquals(List.of(), wrong, "answers that depend on Accept");
        assertTrue(calls > 1000, calls + " calls");

        Api json = own.withHeader("Accept", "application/json");
        Api.Res html = json.get(200, "pulse/preview_card/" + cardId);
        assertTrue(html.header("Content-Type").startsWith("text/html") && html.body().contains("<html"), html.body());
        assertEquals(404, json.call("GET", "pulse/preview_card/999999", null).status());
        assertEquals(404, own.withHeader("Accept", "text/html").call("GET", "card/999999", null).status());
        Api.Res png = json.get(200, "pulse/preview_card_png/" + cardId);
        assertTrue(png.header("Content-Type").startsWith("image/png"), png.header("Content-Type"));
        Api.Res csv = json.post(200, "card/" + cardId + "/query/csv", Map.of());
        assertTrue(csv.header("Content-Type").startsWith("text/csv"), csv.header("Content-Type"));
        Api.Res card = own.withHeader("Accept", "text/html").get(200, "card/" + cardId);
        assertEquals(cardId, card.json().get("id").asLong());
        // the card's use is written in the background: written now, so that no later test sees it arrive
        server.quarry().cards.flushUsage();
    }

    /** Path values naming nothing that exists (a word list takes its first word, a fixed id its value). */
    private static Map<String, String> missingPathValues(String template) {
        Map<String, String> values = new LinkedHashMap<>();
        Matcher m = TEMPLATE.matcher(template);
        while (m.find()) {
            String pattern = m.group(2) == null ? null : m.group(2).trim();
            String value = switch (m.group(1)) {
                case "export-format" -> "csv";
                case "uuid" -> "00000000-0000-0000-0000-000000000000";
                case "token" -> "not-a-token";
                case "key", "schema", "query", "param-key", "name", "model", "entity", "modal", "slug", "email" -> "quarry-no-such-name";
                default -> "999999";
            };
            if (pattern != null && !value.matches(pattern)) {
                value = pattern.split("\\|")[0];
            }
            values.put(m.group(1), value);
        }
        return values;
    }

    /** The endpoint's anonymous endpoints are swept once more without a session. */
    private static boolean isPublic(Method method) {
        Access access = method.isAnnotationPresent(Access.class) ? method.getAnnotation(Access.class)
                : method.getDeclaringClass().getAnnotation(Access.class);
        return access != null && access.value() == Access.Level.PUBLIC;
    }

    private static int sweep(Endpoint endpoint, Api caller, List<String> wrong) {
        int calls = 0;
        {
            Map<String, String> valid = validPathValues(endpoint.template());
            for (Parameter parameter : endpoint.method().getParameters()) {
                PathParam path = parameter.getAnnotation(PathParam.class);
                QueryParam query = parameter.getAnnotation(QueryParam.class);
                if (path != null) {
                    boolean typed = parameter.getType() == PosInt.class;
                    String pattern = patternOf(endpoint.template(), path.value());
                    for (String bad : List.of("abc", "0", "-3", "1.5", HUGE)) {
                        if (pattern != null && !bad.matches(pattern)) {
                            continue; // the route itself does not match: Jersey's 404
                        }
                        Map<String, String> values = new LinkedHashMap<>(valid);
                        values.put(path.value(), bad);
                        String url = fill(endpoint.template(), values);
                        calls++;
                        check(caller, endpoint, url, bodyFor(endpoint), typed ? path.value() : null, wrong);
                    }
                }
                if (query != null && (parameter.getType() == PosInt.class || parameter.getType() == BoolStr.class)) {
                    List<String> bads = parameter.getType() == BoolStr.class ? List.of("maybe", "1", "TRUE ")
                            : List.of("abc", "0", "-3", "1.5", HUGE);
                    for (String bad : bads) {
                        String url = fill(endpoint.template(), valid) + "?" + query.value() + "="
                                + URLEncoder.encode(bad, StandardCharsets.UTF_8);
                        calls++;
                        check(caller, endpoint, url, bodyFor(endpoint), query.value(), wrong);
                    }
                }
            }
            if (bodyParameter(endpoint.method()) != null) {
                boolean list = List.class.isAssignableFrom(bodyParameter(endpoint.method()).getType());
                List<String> bads = list ? List.of("{}", "\"x\"", "7", "true")
                        : LIST_OR_OBJECT.contains(endpoint.label()) ? List.of("[\"x\"]", "[0]", "\"x\"", "7", "true")
                        : List.of("[1]", "\"x\"", "7", "true");
                for (String bad : bads) {
                    calls++;
                    check(caller, endpoint, fill(endpoint.template(), valid), bad, UNREACHED.contains(endpoint.label()) ? "404" : "", wrong);
                }
            }
        }
        return calls;
    }

    /** {@code field} null: any 4xx; "" : a 400; "404": a 404; otherwise a 400 naming it. */
    private static void check(Api caller, Endpoint endpoint, String url, String body, String field, List<String> wrong) {
        Api.Res res = caller.call(endpoint.verb(), url, body);
        String seen = (caller == anonymous ? "anonymous " : "") + endpoint.label() + ": " + endpoint.verb() + " " + url + (body == null ? "" : " " + body) + " -> "
                + res.status() + " " + res.body().substring(0, Math.min(160, res.body().length()));
        if ("404".equals(field)) {
            if (res.status() != 404) {
                wrong.add(seen);
            }
        } else if (res.status() >= 500 || res.status() < 400) {
            wrong.add(seen);
        } else if (field != null && res.status() != 400) {
            wrong.add(seen);
        } else if (field != null && !field.isEmpty() && !errorsName(res, field)) {
            wrong.add(seen);
        }
    }

    private static boolean errorsName(Api.Res res, String field) {
        try {
            return res.json().path("errors").has(field);
        } catch (RuntimeException | AssertionError notJson) {
            return false;
        }
    }

    /** A body that is right in type for the method, so that only the bad parameter is wrong. */
    private static String bodyFor(Endpoint endpoint) {
        Parameter body = bodyParameter(endpoint.method());
        if (body == null) {
            return null;
        }
        return List.class.isAssignableFrom(body.getType()) ? "[]" : "{}";
    }

    private static Parameter bodyParameter(Method method) {
        for (Parameter parameter : method.getParameters()) {
            if (parameter.getAnnotations().length == 0) {
                return parameter;
            }
        }
        return null;
    }

    private static Map<String, String> validPathValues(String template) {
        Map<String, String> values = new LinkedHashMap<>();
        boolean dashboard = template.startsWith("dashboard") || template.startsWith("public/dashboard");
        Matcher m = TEMPLATE.matcher(template);
        while (m.find()) {
            String name = m.group(1);
            String pattern = m.group(2);
            String value = switch (name) {
                case "export-format" -> "csv";
                case "model", "entity" -> "card";
                case "key" -> "site-name";
                case "schema" -> "PUBLIC";
                case "uuid" -> dashboard ? publicDashboard : publicCard;
                case "dashcard-id" -> String.valueOf(dashcardId);
                case "card-id" -> String.valueOf(cardId);
                case "id" -> String.valueOf(dashboard ? dashboardId : template.startsWith("card") ? cardId : 1);
                case "token" -> "not-a-token";
                default -> "1";
            };
            if (pattern != null && !value.matches(pattern.trim())) {
                value = pattern.trim().split("\\|")[0];
            }
            values.put(name, value);
        }
        return values;
    }

    private static String patternOf(String template, String name) {
        Matcher m = TEMPLATE.matcher(template);
        while (m.find()) {
            if (m.group(1).equals(name)) {
                return m.group(2) == null ? null : m.group(2).trim();
            }
        }
        return null;
    }

    private static String fill(String template, Map<String, String> values) {
        Matcher m = TEMPLATE.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(URLEncoder.encode(values.get(m.group(1)), StandardCharsets.UTF_8)));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Every table but the bookkeeping ones: its rows, sorted, as text. */
    private static Map<String, String> snapshot() throws Exception {
        Map<String, String> tables = new TreeMap<>();
        try (Connection c = AppDbSql.connect(server)) {
            DatabaseMetaData meta = c.getMetaData();
            List<String> names = new ArrayList<>();
            try (ResultSet rs = meta.getTables(null, null, "%", new String[]{"TABLE"})) {
                while (rs.next()) {
                    String schema = rs.getString("TABLE_SCHEM");
                    if (schema != null && (schema.equalsIgnoreCase("INFORMATION_SCHEMA") || schema.equalsIgnoreCase("pg_catalog"))) {
                        continue;
                    }
                    String name = rs.getString("TABLE_NAME");
                    if (!BOOKKEEPING.contains(name.toLowerCase())) {
                        names.add((schema == null ? "" : "\"" + schema + "\".") + "\"" + name + "\"");
                    }
                }
            }
            try (Statement s = c.createStatement()) {
                for (String name : names) {
                    List<String> rows = new ArrayList<>();
                    try (ResultSet rs = s.executeQuery("SELECT * FROM " + name)) {
                        ResultSetMetaData columns = rs.getMetaData();
                        while (rs.next()) {
                            StringBuilder row = new StringBuilder();
                            for (int i = 1; i <= columns.getColumnCount(); i++) {
                                row.append(columns.getColumnName(i)).append('=').append(rs.getString(i)).append(';');
                            }
                            rows.add(row.toString());
                        }
                    }
                    rows.sort(null);
                    tables.put(name, String.join("\n", rows));
                }
            }
        }
        return tables;
    }

    private static String verb(Method method) {
        if (method.isAnnotationPresent(GET.class)) {
            return "GET";
        }
        if (method.isAnnotationPresent(POST.class)) {
            return "POST";
        }
        if (method.isAnnotationPresent(PUT.class)) {
            return "PUT";
        }
        if (method.isAnnotationPresent(DELETE.class)) {
            return "DELETE";
        }
        if (method.isAnnotationPresent(PATCH.class)) {
            return "PATCH";
        }
        return null;
    }

    /** {@code <class path>/<method path>} relative to /api, templates kept with their patterns. */
    private static String template(Class<?> resource, Method method) {
        StringBuilder path = new StringBuilder();
        for (Path part : new Path[]{resource.getAnnotation(Path.class), method.getAnnotation(Path.class)}) {
            if (part != null) {
                String value = part.value().replaceAll("^/+|/+$", "");
                if (!value.isEmpty()) {
                    path.append(path.length() == 0 ? "" : "/").append(value);
                }
            }
        }
        return path.toString();
    }
}
