package io.quarry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.core.Json;
import io.quarry.setting.Setting;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.Sources;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A property over the body-taking endpoints: for every body field an endpoint validates, a value of the wrong JSON type
 * and a number too big for its column is a 400 whose {@code errors} names the field, and the object reads back
 * unchanged (or, for a create, nothing is created). The fields are not listed here: they are read from the endpoint's
 * source, every {@link io.quarry.web.param.Body} accessor called between {@code Body.of} and {@code throwIfInvalid}, so
 * a field added to an endpoint is covered without touching this test. Path ids get the same treatment.
 */
class BodyFieldTypesIT {
    private static final BigInteger HUGE = new BigInteger("99999999999999999999");
    private static final Pattern ACCESSOR = Pattern.compile(
            "\\b(?:body|outer)\\.(optBool|bool|optPosInt|posInt|optNonBlank|nonBlank|optString|string|optEnum|enumOf|optMap|map"
                    + "|optEmail|email|optLocale)\\(\"([^\"]+)\"");
    private static final Pattern RULES = Pattern.compile("BodyRules\\.(optText|optBoolean)\\(body, \"([^\"]+)\"");
    /** Fields a read-back may change on its own (reading counts as a view). */
    private static final Set<String> VOLATILE = Set.of("view_count", "last_viewed_at", "last_used_at", "last-edit-info");

    private static TestServer server;
    private static Api admin;
    private static long databaseId;
    private static long tableId;

    enum Kind { BOOLEAN, POS_INT, STRING, MAP, LIST }

    record Field(String name, Kind kind) {
    }

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        Api anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        databaseId = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD)))
                .json().get("id").asLong();
        server.quarry().sync.syncInBackground(databaseId).get();
        tableId = admin.get(200, "table").json().get(0).get("id").asLong();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** The fields validated by the method whose declaration starts with {@code signature} in {@code source}. */
    static List<Field> fieldsOf(String source, String signature) throws IOException {
        String text = Files.readString(Sources.server("src/main/java/io/quarry").resolve(source));
        int start = text.indexOf(signature);
        assertTrue(start >= 0, signature + " not found in " + source);
        int end = text.indexOf("throwIfInvalid()", start);
        String block = text.substring(start, end);
        Map<String, Field> fields = new LinkedHashMap<>();
        for (Pattern pattern : List.of(ACCESSOR, RULES)) {
            Matcher m = pattern.matcher(block);
            while (m.find()) {
                fields.putIfAbsent(m.group(2), new Field(m.group(2), kindOf(m.group(1))));
            }
        }
        assertFalse(fields.isEmpty(), "no fields found for " + signature);
        return new ArrayList<>(fields.values());
    }

    private static Kind kindOf(String accessor) {
        return switch (accessor) {
            case "optBool", "bool", "optBoolean" -> Kind.BOOLEAN;
            case "optPosInt", "posInt" -> Kind.POS_INT;
            case "optMap", "map" -> Kind.MAP;
            default -> Kind.STRING;
        };
    }

    /** Values of the wrong type for a kind, and for integers the out-of-range ones. */
    static List<Object> wrongValues(Kind kind) {
        return switch (kind) {
            case BOOLEAN -> List.of("TRUE ", 1, Map.of());
            case POS_INT -> List.of("5", HUGE, 1.5, true, 0, -3, 2147483648L);
            case STRING -> List.of(42, true, List.of("x"), Map.of("a", 1));
            case MAP -> List.of("x", List.of(1), 7);
            case LIST -> List.of("x", 7, true, Map.of("a", 1), List.of("x"), List.of(7));
        };
    }

    private static JsonNode readBack(String path) {
        ObjectNode node = (ObjectNode) admin.get(200, path).json();
        node.remove(VOLATILE);
        return node;
    }

    /** Every wrong value of every field on a PUT: a 400 naming the field, and the object unchanged. */
    private static int checkUpdate(String path, String source, String signature, Map<String, Object> base) throws IOException {
        JsonNode before = readBack(path);
        int checked = 0;
        for (Field field : fieldsOf(source, signature)) {
            for (Object wrong : wrongValues(field.kind())) {
                if (field.kind() == Kind.POS_INT && wrong.equals(2147483648L) && field.name().endsWith("id")) {
                    continue; // ids are BIGINT: 2^31 is in range (and simply not found)
                }
                Map<String, Object> body = new LinkedHashMap<>(base);
                body.put(field.name(), wrong);
                Api.Res res = admin.call("PUT", path, body);
                assertEquals(400, res.status(), "PUT " + path + " " + Json.write(body) + " -> " + res.body());
                assertTrue(res.json().path("errors").has(field.name()), "PUT " + path + " " + Json.write(body) + " -> " + res.body());
                checked++;
            }
        }
        assertEquals(before, readBack(path), "PUT " + path + " changed the object");
        checkPathId("PUT", path, base);
        return checked;
    }

    /** Every wrong value of every field on a POST: a 400 naming the field, and no row added. */
    private static int checkCreate(String path, String table, String source, String signature, Map<String, Object> base)
            throws IOException {
        long before = AppDbSql.count(server, "SELECT COUNT(*) FROM " + table);
        int checked = 0;
        for (Field field : fieldsOf(source, signature)) {
            for (Object wrong : wrongValues(field.kind())) {
                if (field.kind() == Kind.POS_INT && wrong.equals(2147483648L) && field.name().endsWith("id")) {
                    continue;
                }
                Map<String, Object> body = new LinkedHashMap<>(base);
                body.put(field.name(), wrong);
                Api.Res res = admin.call("POST", path, body);
                assertEquals(400, res.status(), "POST " + path + " " + Json.write(body) + " -> " + res.body());
                assertTrue(res.json().path("errors").has(field.name()), "POST " + path + " " + Json.write(body) + " -> " + res.body());
                checked++;
            }
        }
        assertEquals(before, AppDbSql.count(server, "SELECT COUNT(*) FROM " + table), "POST " + path + " created a row");
        return checked;
    }

    /** The id in the path: not a number, zero, and past a long are each a 400 naming {@code id}. */
    private static void checkPathId(String method, String path, Map<String, Object> base) {
        String prefix = path.substring(0, path.lastIndexOf('/') + 1);
        for (String bad : List.of("abc", "0", HUGE.toString())) {
            Api.Res res = admin.call(method, prefix + bad, base);
            assertEquals(400, res.status(), method + " " + prefix + bad + " -> " + res.body());
            assertTrue(res.json().path("errors").has("id"), res.body());
        }
    }

    /** The fields validated between {@code signature} and {@code end} in {@code source} (for readers without throwIfInvalid). */
    static List<Field> fieldsOf(String source, String signature, String end) throws IOException {
        String text = Files.readString(Sources.server("src/main/java/io/quarry").resolve(source));
        int start = text.indexOf(signature);
        assertTrue(start >= 0, signature + " not found in " + source);
        int stop = text.indexOf(end, start);
        assertTrue(stop > start, end + " not found after " + signature + " in " + source);
        String block = text.substring(start, stop);
        Map<String, Field> fields = new LinkedHashMap<>();
        for (Pattern pattern : List.of(ACCESSOR, RULES)) {
            Matcher m = pattern.matcher(block);
            while (m.find()) {
                fields.putIfAbsent(m.group(2), new Field(m.group(2), kindOf(m.group(1))));
            }
        }
        assertFalse(fields.isEmpty(), "no fields found for " + signature);
        return new ArrayList<>(fields.values());
    }

    /** {@code derived} plus the fields an endpoint validates by hand (loops over keys, helpers), named here. */
    private static List<Field> with(List<Field> derived, Field... extra) {
        Map<String, Field> all = new LinkedHashMap<>();
        for (Field f : derived) {
            all.put(f.name(), f);
        }
        for (Field f : extra) {
            all.putIfAbsent(f.name(), f);
        }
        return new ArrayList<>(all.values());
    }

    /**
     * Every wrong value of every field sent by {@code method} to {@code path}: a 400 naming the field, and
     * {@code state} (a read-back or a row count) the same afterwards.
     */
    private static int checkFields(String method, String path, List<Field> fields, Map<String, Object> base,
            Supplier<Object> state) {
        Object before = state.get();
        int checked = 0;
        for (Field field : fields) {
            for (Object wrong : wrongValues(field.kind())) {
                if (field.kind() == Kind.POS_INT && wrong.equals(2147483648L) && field.name().endsWith("id")) {
                    continue; // ids are BIGINT: 2^31 is in range (and simply not found)
                }
                Map<String, Object> body = new LinkedHashMap<>(base);
                body.put(field.name(), wrong);
                Api.Res res = admin.call(method, path, body);
                assertEquals(400, res.status(), method + " " + path + " " + Json.write(body) + " -> " + res.body());
                assertTrue(res.json().path("errors").has(field.name()), method + " " + path + " " + Json.write(body) + " -> " + res.body());
                checked++;
            }
        }
        assertEquals(before, state.get(), method + " " + path + " changed something");
        return checked;
    }

    private static Supplier<Object> rows(String table) {
        return () -> AppDbSql.count(server, "SELECT COUNT(*) FROM " + table);
    }

    private static Supplier<Object> read(String path) {
        return () -> readBack(path);
    }

    /** The id in the path: not a number, zero, and past a long are each a 400 naming {@code name}. */
    private static void checkPathParam(String method, String prefix, String suffix, String name, Map<String, Object> base) {
        for (String bad : List.of("abc", "0", HUGE.toString())) {
            Api.Res res = admin.call(method, prefix + bad + suffix, base);
            assertEquals(400, res.status(), method + " " + prefix + bad + suffix + " -> " + res.body());
            assertTrue(res.json().path("errors").has(name), res.body());
        }
    }

    private static long create(String path, Map<String, Object> body) {
        return admin.post(200, path, body).json().get("id").asLong();
    }

    private static Map<String, Object> cardBody() {
        return Map.of("name", "Orders", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", databaseId, "type", "native", "native", Map.of("query", "SELECT 1")));
    }

    @Test
    void cards() throws IOException {
        long id = create("card", cardBody());
        int checked = checkUpdate("card/" + id, "card/CardService.java", "public Card update(", Map.of());
        checked += checkCreate("card", "report_card", "card/CardService.java", "public Card create(", cardBody());
        assertTrue(checked > 40, "checked " + checked);
    }

    @Test
    void collections() throws IOException {
        long id = create("collection", Map.of("name", "Typed"));
        checkUpdate("collection/" + id, "collection/CollectionService.java", "public Map<String, Object> update(Caller caller, long id", Map.of());
        checkCreate("collection", "collection", "collection/CollectionService.java", "public Map<String, Object> create(",
                Map.of("name", "New"));
        // the case from the report: a string that is nearly a boolean archives nothing
        Api.Res res = admin.put(400, "collection/" + id, Map.of("archived", "TRUE "));
        assertTrue(res.json().get("errors").has("archived"));
        assertFalse(admin.get(200, "collection/" + id).json().get("archived").asBoolean());
    }

    @Test
    void dashboards() throws IOException {
        long id = create("dashboard", Map.of("name", "Typed"));
        checkUpdate("dashboard/" + id, "dashboard/DashboardService.java", "private void update(SqlSession session,", Map.of());
        checkCreate("dashboard", "report_dashboard", "dashboard/DashboardService.java", "public Map<String, Object> create(",
                Map.of("name", "New"));
    }

    @Test
    void databases() throws IOException {
        checkUpdate("database/" + databaseId, "warehouse/DatabaseResource.java", "public Map<String, Object> update(", Map.of());
    }

    @Test
    void users() throws IOException {
        long id = create("user", Map.of("first_name", "Ty", "last_name", "Ped", "email", "typed@example.com"));
        checkUpdate("user/" + id, "user/UserResource.java", "public Map<String, Object> update(", Map.of());
        checkCreate("user", "core_user", "user/UserResource.java", "public Map<String, Object> create(",
                Map.of("first_name", "New", "last_name", "User", "email", "new.user@example.com"));
    }

    @Test
    void segments() throws IOException {
        Map<String, Object> definition = Map.of("source-table", tableId, "filter", List.of("=", java.util.Arrays.asList("field", 1, null), 1));
        long id = create("segment", Map.of("name", "Typed", "table_id", tableId, "definition", definition));
        checkUpdate("segment/" + id, "segment/SegmentService.java", "public Map<String, Object> update(",
                Map.of("revision_message", "edit"));
    }

    @Test
    void snippets() throws IOException {
        long id = create("native-query-snippet", Map.of("name", "typed", "content", "1 = 1"));
        checkUpdate("native-query-snippet/" + id, "snippet/SnippetService.java", "public Map<String, Object> update(", Map.of());
        checkCreate("native-query-snippet", "native_query_snippet", "snippet/SnippetService.java",
                "public Map<String, Object> create(", Map.of("name", "new", "content", "2 = 2"));
    }

    @Test
    void timelines() throws IOException {
        long id = create("timeline", Map.of("name", "Typed"));
        checkUpdate("timeline/" + id, "timeline/TimelineService.java", "public Map<String, Object> update(", Map.of());
        checkCreate("timeline", "timeline", "timeline/TimelineService.java", "public Map<String, Object> create(",
                Map.of("name", "New"));
        long event = create("timeline-event", Map.of("name", "Launch", "timestamp", "2026-01-01T00:00:00Z", "timezone", "UTC",
                "timeline_id", id));
        checkUpdate("timeline-event/" + event, "timeline/TimelineService.java", "public Map<String, Object> updateEvent(", Map.of());
    }

    @Test
    void segmentCreate() throws IOException {
        Map<String, Object> definition = Map.of("source-table", tableId, "filter", List.of("=", java.util.Arrays.asList("field", 1, null), 1));
        checkCreate("segment", "segment", "segment/SegmentService.java", "public Map<String, Object> create(",
                Map.of("name", "New", "table_id", tableId, "definition", definition));
    }

    @Test
    void timelineEventCreate() throws IOException {
        long timeline = create("timeline", Map.of("name", "Events"));
        checkCreate("timeline-event", "timeline_event", "timeline/TimelineService.java", "public Map<String, Object> createEvent(",
                Map.of("name", "Launch", "timestamp", "2026-01-01T00:00:00Z", "timezone", "UTC", "timeline_id", timeline));
    }

    @Test
    void databaseCreate() throws IOException {
        List<Field> fields = with(fieldsOf("warehouse/NewDatabases.java", "static NewDatabase read(", "return new NewDatabase("),
                new Field("engine", Kind.STRING));
        Map<String, Object> base = Map.of("engine", "h2", "name", "Shop 2",
                "details", Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD));
        assertTrue(checkFields("POST", "database", fields, base, rows("metabase_database")) > 15);
    }

    @Test
    void tableUpdate() throws IOException {
        List<Field> fields = with(fieldsOf("warehouse/MetadataService.java", "public static TableChanges tableChanges(", "return new TableChanges("),
                new Field("entity_type", Kind.STRING), new Field("description", Kind.STRING), new Field("caveats", Kind.STRING),
                new Field("points_of_interest", Kind.STRING), new Field("show_in_getting_started", Kind.BOOLEAN));
        checkFields("PUT", "table/" + tableId, fields, Map.of(), read("table/" + tableId));
        checkPathParam("PUT", "table/", "", "id", Map.of());
    }

    @Test
    void fieldUpdate() throws IOException {
        long fieldId = admin.get(200, "table/" + tableId + "/query_metadata").json().get("fields").get(0).get("id").asLong();
        List<Field> fields = with(fieldsOf("warehouse/MetadataService.java", "public Field updateField("),
                new Field("description", Kind.STRING), new Field("caveats", Kind.STRING), new Field("points_of_interest", Kind.STRING),
                new Field("semantic_type", Kind.STRING), new Field("coercion_strategy", Kind.STRING));
        checkFields("PUT", "field/" + fieldId, fields, Map.of(), read("field/" + fieldId));
        checkPathParam("PUT", "field/", "", "id", Map.of());
    }

    @Test
    void apiKeys() throws IOException {
        long group = create("permissions/group", Map.of("name", "Keyed"));
        checkCreate("api-key", "api_key", "auth/ApiKeyResource.java", "public Map<String, Object> create(",
                Map.of("name", "Typed key", "group_id", group));
        long id = create("api-key", Map.of("name", "Typed key 2", "group_id", group));
        checkFields("PUT", "api-key/" + id, fieldsOf("auth/ApiKeyResource.java", "public Map<String, Object> update("), Map.of(),
                () -> AppDbSql.value(server, "SELECT name || '/' || CAST(user_id AS VARCHAR(20)) || '/' || CAST(updated_at AS VARCHAR(40)) FROM api_key WHERE id = ?", id));
        checkPathParam("PUT", "api-key/", "", "id", Map.of());
    }

    @Test
    void groups() throws IOException {
        checkCreate("permissions/group", "permissions_group", "user/GroupResource.java", "public Map<String, Object> create(",
                Map.of("name", "New group"));
        long id = create("permissions/group", Map.of("name", "Typed group"));
        checkFields("PUT", "permissions/group/" + id, fieldsOf("user/GroupResource.java", "public Map<String, Object> rename("),
                Map.of(), read("permissions/group/" + id));
        checkPathParam("PUT", "permissions/group/", "", "group-id", Map.of("name", "x"));
    }

    @Test
    void memberships() throws IOException {
        long group = create("permissions/group", Map.of("name", "Members"));
        long user = create("user", Map.of("first_name", "Mem", "last_name", "Ber", "email", "member@example.com"));
        checkCreate("permissions/membership", "permissions_group_membership", "user/MembershipResource.java",
                "public List<Map<String, Object>> add(", Map.of("group_id", group, "user_id", user));
        admin.post(200, "permissions/membership", Map.of("group_id", group, "user_id", user));
        long id = AppDbSql.count(server, "SELECT id FROM permissions_group_membership WHERE group_id = ? AND user_id = ?", group, user);
        checkFields("PUT", "permissions/membership/" + id, fieldsOf("user/MembershipResource.java", "public Map<String, Object> update("),
                Map.of(), () -> admin.get(200, "permissions/membership").json());
        checkPathParam("PUT", "permissions/membership/", "", "id", Map.of("is_group_manager", false));
    }

    @Test
    void sessions() throws IOException {
        checkFields("POST", "session", fieldsOf("auth/SessionResource.java", "public Response login("),
                Map.of("username", "nobody@example.com", "password", "wrong-password"), rows("core_session"));
    }

    @Test
    void passwords() {
        long id = create("user", Map.of("first_name", "Pass", "last_name", "Word", "email", "password.user@example.com"));
        admin.put(204, "user/" + id + "/password", Map.of("password", "Typed-Pa55word!"));
        Supplier<Object> stored = () -> AppDbSql.value(server, "SELECT password FROM core_user WHERE id = ?", id);
        checkFields("PUT", "user/" + id + "/password", List.of(new Field("password", Kind.STRING), new Field("old_password", Kind.STRING)),
                Map.of("password", "Other-Pa55word!"), stored);
        checkPathParam("PUT", "user/", "/password", "id", Map.of("password", "Other-Pa55word!"));
    }

    private static Map<String, Object> bodyOf(Object... pairs) {
        Map<String, Object> body = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            body.put((String) pairs[i], pairs[i + 1]);
        }
        return body;
    }

    /**
     * A graph PUT: {@code revision}, {@code groups} and the flags of the wrong type, and graphs whose inner values are of
     * the wrong type, are each a 400 naming the field ({@code groups} for the inner ones); the graph and its revision
     * read back unchanged.
     */
    private static void checkGraph(String path, Map<String, Object> goodGroups, List<Map<String, Object>> badGroups,
            Map<String, Kind> flags) {
        JsonNode before = admin.get(200, path).json();
        long revision = before.get("revision").asLong();
        List<Map.Entry<String, Map<String, Object>>> cases = new ArrayList<>();
        for (Object wrong : List.of("5", 1.5, true, Map.of(), HUGE)) {
            cases.add(Map.entry("revision", bodyOf("revision", wrong, "groups", goodGroups)));
        }
        for (Object wrong : wrongValues(Kind.MAP)) {
            cases.add(Map.entry("groups", bodyOf("revision", revision, "groups", wrong)));
        }
        for (Map<String, Object> groups : badGroups) {
            cases.add(Map.entry("groups", bodyOf("revision", revision, "groups", groups)));
        }
        flags.forEach((flag, kind) -> {
            for (Object wrong : wrongValues(kind)) {
                cases.add(Map.entry(flag, bodyOf("revision", revision, "groups", goodGroups, flag, wrong)));
            }
        });
        for (Map.Entry<String, Map<String, Object>> c : cases) {
            Api.Res res = admin.call("PUT", path, c.getValue());
            assertEquals(400, res.status(), "PUT " + path + " " + Json.write(c.getValue()) + " -> " + res.body());
            assertTrue(res.json().path("errors").has(c.getKey()), "PUT " + path + " " + Json.write(c.getValue()) + " -> " + res.body());
        }
        assertEquals(before, admin.get(200, path).json(), "PUT " + path + " changed the graph");
    }

    @Test
    void collectionGraph() {
        long group = create("permissions/group", Map.of("name", "Graphed"));
        long collection = create("collection", Map.of("name", "Graphed"));
        String g = String.valueOf(group);
        String c = String.valueOf(collection);
        checkGraph("collection/graph", Map.of(g, Map.of(c, "write")),
                List.of(Map.of(g, "write"), Map.of(g, List.of("write")), Map.of(g, Map.of(c, 7)), Map.of(g, Map.of(c, true)),
                        Map.of(g, Map.of(c, "WRITE ")), Map.of("abc", Map.of(c, "write")), Map.of(g, Map.of("abc", "write"))),
                Map.of("namespace", Kind.STRING, "skip_graph", Kind.BOOLEAN));
    }

    @Test
    void dataPermissionGraph() {
        long group = create("permissions/group", Map.of("name", "Data graphed"));
        String g = String.valueOf(group);
        String d = String.valueOf(databaseId);
        checkGraph("permissions/graph", Map.of(g, Map.of(d, Map.of("create-queries", "no"))),
                List.of(Map.of(g, "x"), Map.of(g, List.of()), Map.of(g, Map.of(d, 7)), Map.of(g, Map.of(d, Map.of("create-queries", 7))),
                        Map.of(g, Map.of(d, Map.of("view-data", true))), Map.of(g, Map.of(d, Map.of("download", 7))),
                        Map.of(g, Map.of(d, Map.of("data-model", Map.of("schemas", 7)))), Map.of(g, Map.of(d, Map.of("details", 7))),
                        Map.of("abc", Map.of(d, Map.of("create-queries", "no")))),
                Map.of());
    }

    @Test
    void revisionRevert() throws IOException {
        long card = create("card", cardBody());
        admin.put(200, "card/" + card, Map.of("name", "Orders renamed"));
        long revision = admin.get(200, "revision?entity=card&id=" + card).json().get(1).get("id").asLong();
        checkFields("POST", "revision/revert", fieldsOf("revision/RevisionResource.java", "public Map<String, Object> revert("),
                Map.of("entity", "card", "id", card, "revision_id", revision), rows("revision"));
        assertEquals("Orders renamed", admin.get(200, "card/" + card).json().get("name").asText());
    }

    @Test
    void emailSettingsRefuseTheWrongTypeBeforeAnySmtpAttempt() {
        Supplier<Object> stored = () -> {
            List<JsonNode> email = new ArrayList<>();
            for (JsonNode s : admin.get(200, "setting").json()) {
                if (s.get("key").asText().startsWith("email-")) {
                    email.add(s);
                }
            }
            return email;
        };
        List<Field> fields = List.of(new Field("email-smtp-host", Kind.STRING), new Field("email-smtp-username", Kind.STRING),
                new Field("email-smtp-password", Kind.STRING), new Field("email-smtp-security", Kind.STRING),
                new Field("email-from-name", Kind.STRING), new Field("email-from-address", Kind.STRING));
        Map<String, Object> base = Map.of("email-smtp-host", "smtp.invalid", "email-smtp-port", 25, "email-smtp-security", "none");
        checkFields("PUT", "email", fields, base, stored);
        Object before = stored.get();
        for (Object wrong : List.of(HUGE, 1.5, true, 0, -3, 2147483648L, Map.of(), List.of(25), "port")) {
            Map<String, Object> body = new LinkedHashMap<>(base);
            body.put("email-smtp-port", wrong);
            Api.Res res = admin.call("PUT", "email", body);
            assertEquals(400, res.status(), "PUT email " + Json.write(body) + " -> " + res.body());
            assertTrue(res.json().path("errors").has("email-smtp-port"), "PUT email " + Json.write(body) + " -> " + res.body());
        }
        for (Object wrong : List.of(42, true, Map.of("a", 1), List.of(42))) {
            Map<String, Object> body = new LinkedHashMap<>(base);
            body.put("email-reply-to", wrong);
            Api.Res res = admin.call("PUT", "email", body);
            assertEquals(400, res.status(), "PUT email " + Json.write(body) + " -> " + res.body());
            assertTrue(res.json().path("errors").has("email-reply-to"), "PUT email " + Json.write(body) + " -> " + res.body());
        }
        assertEquals(before, stored.get(), "PUT email changed the settings");
    }

    @Test
    void dashboardCopy() throws IOException {
        long id = create("dashboard", Map.of("name", "To copy"));
        checkFields("POST", "dashboard/" + id + "/copy", fieldsOf("dashboard/DashboardService.java", "public Map<String, Object> copy("),
                Map.of(), rows("report_dashboard"));
        checkPathParam("POST", "dashboard/", "/copy", "id", Map.of());
    }

    @Test
    void cardQueries() throws IOException {
        long id = create("card", cardBody());
        checkFields("POST", "card/" + id + "/query", fieldsOf("card/CardResource.java", "public Response query("), Map.of(),
                read("card/" + id));
        checkFields("POST", "card/pivot/" + id + "/query", fieldsOf("card/CardResource.java", "public Response pivot("), Map.of(),
                read("card/" + id));
        checkPathParam("POST", "card/", "/query", "id", Map.of());
    }

    @Test
    void cardMoveAndTableBulkUpdateAndBookmarkOrderingRefuseWrongTypes() throws IOException {
        long card = create("card", cardBody());
        Supplier<Object> cardState = read("card/" + card);
        Object before = cardState.get();
        for (Object wrong : List.of("x", 7, Map.of(), List.of("1"), List.of(1.5), List.of(true), List.of(HUGE))) {
            Api.Res res = admin.call("POST", "card/collections", bodyOf("card_ids", wrong, "collection_id", null));
            assertEquals(400, res.status(), "POST card/collections " + wrong + " -> " + res.body());
            assertTrue(res.json().path("errors").has("card_ids"), res.body());
        }
        assertEquals(before, cardState.get(), "POST card/collections moved the card");

        List<Field> tableFields = with(fieldsOf("warehouse/MetadataService.java", "public static TableChanges tableChanges(", "return new TableChanges("),
                new Field("entity_type", Kind.STRING), new Field("description", Kind.STRING), new Field("caveats", Kind.STRING),
                new Field("points_of_interest", Kind.STRING), new Field("show_in_getting_started", Kind.BOOLEAN));
        tableFields.removeIf(f -> f.name().equals("field_order")); // not taken by the bulk update
        checkFields("PUT", "table", tableFields, Map.of("ids", List.of(tableId)), read("table/" + tableId));
        Object table = readBack("table/" + tableId);
        for (Object wrong : List.of("x", 7, Map.of(), List.of("1"), List.of(1.5), List.of(true), List.of(0), List.of(HUGE))) {
            Api.Res res = admin.call("PUT", "table", bodyOf("ids", wrong, "description", "changed"));
            assertEquals(400, res.status(), "PUT table ids " + wrong + " -> " + res.body());
            assertTrue(res.json().path("errors").has("ids"), res.body());
        }
        assertEquals(table, readBack("table/" + tableId), "PUT table changed the table");

        Supplier<Object> bookmarks = () -> admin.get(200, "bookmark").json();
        Object marks = bookmarks.get();
        for (Object wrong : List.of("x", 7, Map.of(), List.of("card"), List.of(Map.of("type", 7, "item_id", card)),
                List.of(Map.of("type", "card", "item_id", "1")), List.of(Map.of("type", "card", "item_id", HUGE)))) {
            Api.Res res = admin.call("PUT", "bookmark/ordering", bodyOf("orderings", wrong));
            assertEquals(400, res.status(), "PUT bookmark/ordering " + wrong + " -> " + res.body());
            assertTrue(res.json().path("errors").has("orderings"), res.body());
        }
        assertEquals(marks, bookmarks.get());
    }

    @Test
    void bookmarkPathAndSettingsBulkRefuseWrongTypes() {
        long card = create("card", cardBody());
        Supplier<Object> bookmarks = () -> admin.get(200, "bookmark").json();
        Object marks = bookmarks.get();
        Api.Res res = admin.call("POST", "bookmark/nonsense/" + card, null);
        assertEquals(400, res.status(), res.body());
        assertTrue(res.json().path("errors").has("model"), res.body());
        checkPathParam("POST", "bookmark/card/", "", "id", null);
        assertEquals(marks, bookmarks.get(), "POST bookmark changed the bookmarks");

        // the bulk write: one value of the wrong type refuses the whole body, naming that setting
        JsonNode siteName = admin.get(200, "setting/site-name").json();
        for (Object wrong : List.of("TRUE ", 1, Map.of())) {
            Map<String, Object> body = bodyOf("site-name", "Changed by a refused bulk write", "enable-embedding-static", wrong);
            res = admin.call("PUT", "setting", body);
            assertEquals(400, res.status(), "PUT setting " + Json.write(body) + " -> " + res.body());
            assertTrue(res.json().path("errors").has("enable-embedding-static"), "PUT setting " + Json.write(body) + " -> " + res.body());
        }
        assertEquals(siteName, admin.get(200, "setting/site-name").json(), "a refused bulk write changed site-name");
    }

    @Test
    void passwordCheck() {
        checkFields("POST", "util/password_check", List.of(new Field("password", Kind.STRING)), Map.of(), rows("core_user"));
    }

    @Test
    void typedQueryParametersOfListsRefuseTheWrongValue() {
        for (String query : List.of("card?f=nonsense", "card?f=42", "search?models=nonsense", "search?archived=maybe",
                "collection/root/items?models=nonsense", "collection/root/items?archived=maybe", "user?include_deactivated=maybe")) {
            Api.Res res = admin.call("GET", query, null);
            String name = query.substring(query.indexOf('?') + 1, query.indexOf('='));
            assertEquals(400, res.status(), "GET " + query + " -> " + res.body());
            assertTrue(res.json().path("errors").has(name), "GET " + query + " -> " + res.body());
        }
    }

    @Test
    void pagingQueryParametersOutOfRangeAreBadRequests() {
        for (String path : List.of("collection/root/items", "user", "search")) {
            for (String name : List.of("limit", "offset")) {
                for (String bad : List.of("abc", "-1", "2147483648", "3000000000", HUGE.toString(), "1.5")) {
                    Api.Res res = admin.call("GET", path + "?" + name + "=" + bad, null);
                    assertEquals(400, res.status(), path + "?" + name + "=" + bad + " -> " + res.body());
                    assertTrue(res.json().path("errors").has(name), res.body());
                }
            }
        }
    }

    @Test
    void settingsOfEveryTypeRefuseTheWrongType() {
        int checked = 0;
        for (JsonNode described : admin.get(200, "setting").json()) {
            String key = described.get("key").asText();
            Setting setting = server.quarry().settings.find(key);
            if (setting == null || described.path("is_env_setting").asBoolean()) {
                continue;
            }
            List<Object> wrong = switch (setting.type) {
                case BOOLEAN -> List.of("TRUE ", 1, Map.of());
                case INTEGER, POSITIVE_INTEGER -> List.of("twelve", HUGE, Map.of(), true);
                case STRING, KEYWORD, TIMESTAMP -> List.of(Map.of("a", 1), List.of(Map.of()));
                default -> List.<Object>of();
            };
            Api.Res read = admin.call("GET", "setting/" + key, null);
            if (read.status() != 200) {
                continue; // listed but not addressable one by one (computed)
            }
            JsonNode before = read.json();
            for (Object value : wrong) {
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("value", value);
                Api.Res res = admin.call("PUT", "setting/" + key, body);
                if (res.status() == 400 && !res.body().startsWith("{")) {
                    continue; // read-only settings refuse any write in plain text
                }
                assertEquals(400, res.status(), key + " " + Json.write(body) + " -> " + res.body());
                assertTrue(res.json().path("errors").has(key), key + " -> " + res.body());
                checked++;
            }
            assertEquals(before, admin.get(200, "setting/" + key).json(), key + " changed");
        }
        assertTrue(checked > 50, "checked " + checked);
    }

    // --- this session's endpoints: channels, subscriptions, alerts, persistence, the assistant ------------------------

    private static Map<String, Object> webhook(String name) {
        return Map.of("name", name, "type", "channel/http", "details",
                Map.of("url", "https://hooks.example.com/x", "auth-method", "none"));
    }

    @Test
    void channels() throws IOException {
        long id = create("channel", webhook("Typed hook"));
        checkFields("PUT", "channel/" + id, fieldsOf("notification/ChannelService.java", "public Map<String, Object> update("),
                Map.of(), read("channel/" + id));
        checkFields("POST", "channel", fieldsOf("notification/ChannelService.java", "public Map<String, Object> create("),
                webhook("New hook"), rows("channel"));
        checkFields("POST", "channel/test", List.of(new Field("type", Kind.STRING), new Field("details", Kind.MAP)),
                webhook("Tested hook"), rows("channel"));
        checkPathParam("PUT", "channel/", "", "id", Map.of());
    }

    private static Map<String, Object> subscription(long card) {
        return Map.of("name", "Typed subscription", "cards", List.of(Map.of("id", card, "include_csv", false, "include_xls", false)),
                "channels", List.of(Map.of("channel_type", "email", "enabled", true, "schedule_type", "daily", "schedule_hour", 8,
                        "recipients", List.of(Map.of("email", "typed@example.com")), "details", Map.of())));
    }

    @Test
    void subscriptions() throws IOException {
        long card = create("card", cardBody());
        long id = create("pulse", subscription(card));
        checkFields("PUT", "pulse/" + id, with(fieldsOf("notification/PulseService.java", "public Map<String, Object> update("),
                new Field("cards", Kind.LIST), new Field("channels", Kind.LIST), new Field("parameters", Kind.LIST)), Map.of(),
                read("pulse/" + id));
        List<Field> create = with(fieldsOf("notification/PulseService.java", "Checked checkCreate("),
                new Field("cards", Kind.LIST), new Field("channels", Kind.LIST));
        // POST /api/pulse/test takes disable_links and no parameters; POST /api/pulse the reverse
        checkFields("POST", "pulse/test", create, subscription(card), rows("pulse"));
        create.removeIf(f -> f.name().equals("disable_links"));
        checkFields("POST", "pulse", with(create, new Field("parameters", Kind.LIST)), subscription(card), rows("pulse"));
        checkPathParam("PUT", "pulse/", "", "id", Map.of());
    }

    @Test
    void alerts() throws IOException {
        long card = create("card", cardBody());
        Map<String, Object> alert = Map.of("alert_condition", "rows", "alert_first_only", false, "card", Map.of("id", card, "include_csv", false, "include_xls", false),
                "channels", List.of(Map.of("channel_type", "email", "enabled", true, "schedule_type", "daily", "schedule_hour", 8,
                        "recipients", List.of(Map.of("email", "typed@example.com")), "details", Map.of())));
        long id = create("alert", alert);
        checkFields("PUT", "alert/" + id, with(fieldsOf("notification/PulseService.java", "public Map<String, Object> updateAlert("),
                new Field("channels", Kind.LIST)), Map.of(), read("alert/" + id));
        checkFields("POST", "alert", with(fieldsOf("notification/PulseService.java", "public Map<String, Object> createAlert("),
                new Field("channels", Kind.LIST), new Field("card", Kind.MAP)), alert, rows("pulse"));
        checkPathParam("PUT", "alert/", "", "id", Map.of());
    }

    @Test
    void persistenceScheduleAndAssistantFeedback() throws IOException {
        checkFields("POST", "persist/set-refresh-schedule", fieldsOf("persistence/PersistResource.java", "public Response setRefreshSchedule("),
                Map.of(), () -> admin.get(200, "setting/persisted-model-refresh-cron-schedule").body());
        checkFields("POST", "assistant/feedback", fieldsOf("assistant/AssistantService.java", "public Map<String, Object> recordFeedback("),
                Map.of("feedback_type", "positive"), rows("assistant_feedback"));
    }

    // --- the remaining gaps of the last note: schedules, own password, sign-in-less endpoints, setup ------------------

    /** Sends each body and expects a 400 naming {@code field}. */
    private static void refuses(Api api, String method, String path, String field, List<Map<String, Object>> bodies) {
        for (Map<String, Object> body : bodies) {
            Api.Res res = api.call(method, path, body);
            assertEquals(400, res.status(), method + " " + path + " " + Json.write(body) + " -> " + res.body());
            assertTrue(res.json().path("errors").has(field), method + " " + path + " " + Json.write(body) + " -> " + res.body());
        }
    }

    @Test
    void databaseSchedulesOwnOldPasswordAndSignedOutPasswordEndpoints() {
        Object database = readBack("database/" + databaseId);
        refuses(admin, "PUT", "database/" + databaseId, "schedules", List.of(bodyOf("schedules", "hourly"), bodyOf("schedules", 7),
                bodyOf("schedules", List.of(1)), bodyOf("schedules", Map.of("metadata_sync", 7)),
                bodyOf("schedules", Map.of("metadata_sync", Map.of("schedule_type", "fortnightly"))),
                bodyOf("schedules", Map.of("metadata_sync", Map.of("schedule_type", "daily", "schedule_hour", 25))),
                bodyOf("schedules", Map.of("metadata_sync", Map.of("schedule_type", "daily", "schedule_hour", "8")))));
        assertEquals(database, readBack("database/" + databaseId), "a refused schedule changed the database");

        long me = admin.get(200, "user/current").json().get("id").asLong();
        Supplier<Object> hash = () -> AppDbSql.value(server, "SELECT password FROM core_user WHERE id = ?", me);
        Object before = hash.get();
        Supplier<Object> tokens = () -> AppDbSql.count(server, "SELECT COUNT(*) FROM core_user WHERE reset_token IS NOT NULL");
        Object tokensBefore = tokens.get();
        refuses(admin, "PUT", "user/" + me + "/password", "old_password", List.of(
                bodyOf("password", "a-new-long-secret-9", "old_password", 42),
                bodyOf("password", "a-new-long-secret-9", "old_password", true),
                bodyOf("password", "a-new-long-secret-9", "old_password", Map.of("a", 1)),
                bodyOf("password", "a-new-long-secret-9", "old_password", "not the password")));
        refuses(admin, "PUT", "user/" + me + "/password", "password", List.of(bodyOf("password", 42), bodyOf("password", true),
                bodyOf("password", List.of("x")), bodyOf("password", Map.of())));
        checkPathParam("PUT", "user/", "/password", "id", bodyOf("password", "a-new-long-secret-9"));

        Api signedOut = server.api();
        refuses(signedOut, "POST", "session/forgot_password", "email", List.of(bodyOf("email", 42), bodyOf("email", true),
                bodyOf("email", Map.of()), bodyOf("email", List.of("a@example.com")), bodyOf("email", "not-an-email"), Map.of()));
        refuses(signedOut, "POST", "session/reset_password", "token", List.of(bodyOf("token", 42, "password", "a-new-long-secret-9"),
                bodyOf("token", true, "password", "a-new-long-secret-9"), bodyOf("token", Map.of(), "password", "a-new-long-secret-9")));
        refuses(signedOut, "POST", "session/reset_password", "password", List.of(bodyOf("token", "1_abc", "password", 42),
                bodyOf("token", "1_abc", "password", List.of("x"))));
        refuses(signedOut, "POST", "session", "username", List.of(bodyOf("username", 42, "password", "x"),
                bodyOf("username", Map.of(), "password", "x")));
        refuses(signedOut, "POST", "session", "password", List.of(bodyOf("username", "a@example.com", "password", 42),
                bodyOf("username", "a@example.com", "password", true)));
        assertEquals(before, hash.get(), "a refused request changed the password");
        assertEquals(tokensBefore, tokens.get(), "a refused request made a reset token");
    }

    /** Setup before any user exists: every wrong type is a 400 naming the field, and no user is created. */
    @Test
    void setupRefusesWrongTypesAndCreatesNothing() {
        try (TestServer fresh = TestServer.start()) {
            Api anonymous = fresh.api();
            String token = anonymous.get(200, "session/properties").json().get("setup-token").asText();
            Map<String, Object> user = Map.of("first_name", "Ada", "last_name", "Admin", "email", "ada@example.com",
                    "password", "a-long-secret-1");
            for (Object wrong : List.of(42, true, Map.of(), List.of("x"))) {
                refuses(anonymous, "POST", "setup", "token", List.of(bodyOf("token", wrong, "user", user)));
                refuses(anonymous, "POST", "setup/validate", "token", List.of(bodyOf("token", wrong)));
            }
            for (String field : List.of("first_name", "last_name", "email", "password")) {
                for (Object wrong : List.of(42, true, Map.of("a", 1), List.of("x"))) {
                    Map<String, Object> bad = new LinkedHashMap<>(user);
                    bad.put(field, wrong);
                    Api.Res res = anonymous.call("POST", "setup", bodyOf("token", token, "user", bad, "prefs", Map.of("site_name", "Acme")));
                    assertEquals(400, res.status(), field + " " + wrong + " -> " + res.body());
                    assertTrue(res.json().path("errors").has(field) || res.json().path("errors").path("user").has(field),
                            field + " " + wrong + " -> " + res.body());
                }
            }
            for (Object wrong : List.of("TRUE ", 1, Map.of())) {
                Api.Res res = anonymous.call("POST", "setup", bodyOf("token", token, "user", user, "prefs",
                        Map.of("site_name", "Acme", "allow_tracking", wrong)));
                assertEquals(400, res.status(), "allow_tracking " + wrong + " -> " + res.body());
                assertTrue(res.json().path("errors").has("allow_tracking") || res.json().path("errors").path("prefs").has("allow_tracking"),
                        res.body());
            }
            refuses(anonymous, "POST", "setup", "user", List.of(bodyOf("token", token, "user", "ada", "prefs", Map.of("site_name", "Acme")),
                    bodyOf("token", token, "user", 7, "prefs", Map.of("site_name", "Acme"))));
            assertEquals(0L, AppDbSql.count(fresh, "SELECT COUNT(*) FROM core_user"), "a refused setup created a user");
            anonymous.post(200, "setup", bodyOf("token", token, "user", user, "prefs", Map.of("site_name", "Acme"))); // the right body works
        }
    }

    @Test
    void dashcardQueryAssistantQuestionsAndSignedOutUnsubscribeAndExternalAuth() throws IOException {
        long card = create("card", cardBody());
        long dashboard = create("dashboard", Map.of("name", "Queried"));
        long dashcard = admin.put(200, "dashboard/" + dashboard, Map.of("dashcards", List.of(Map.of("id", -1, "card_id", card,
                "row", 0, "col", 0, "size_x", 4, "size_y", 4)))).json().get("dashcards").get(0).get("id").asLong();
        String query = "dashboard/" + dashboard + "/dashcard/" + dashcard + "/card/" + card + "/query";
        List<Field> dashcardFields = List.of(new Field("dashboard_load_id", Kind.STRING), new Field("ignore_cache", Kind.BOOLEAN),
                new Field("parameters", Kind.LIST));
        checkFields("POST", query, dashcardFields, Map.of(), read("dashboard/" + dashboard));
        checkFields("POST", "dashboard/pivot/" + dashboard + "/dashcard/" + dashcard + "/card/" + card + "/query", dashcardFields,
                Map.of(), read("dashboard/" + dashboard));

        for (String path : List.of("assistant/database/" + databaseId, "assistant/database/" + databaseId + "/query",
                "assistant/model/" + card, "metabot/database/" + databaseId, "metabot/model/" + card)) {
            checkFields("POST", path, List.of(new Field("question", Kind.STRING)), Map.of(), rows("report_card"));
        }

        Api signedOut = server.api();
        Supplier<Object> recipients = rows("pulse_channel_recipient");
        Object before = recipients.get();
        Map<String, Object> base = Map.of("email", "typed@example.com", "hash", "abc", "pulse-id", 1);
        for (String path : List.of("pulse/unsubscribe", "pulse/unsubscribe/undo", "session/pulse/unsubscribe",
                "session/pulse/unsubscribe/undo")) {
            for (Field field : List.of(new Field("email", Kind.STRING), new Field("hash", Kind.STRING), new Field("pulse-id", Kind.POS_INT))) {
                List<Map<String, Object>> bodies = new ArrayList<>();
                for (Object wrong : wrongValues(field.kind())) {
                    if (wrong.equals(2147483648L)) {
                        continue; // pulse ids are BIGINT: 2^31 is in range (and only fails the hash)
                    }
                    Map<String, Object> body = new LinkedHashMap<>(base);
                    body.put(field.name(), wrong);
                    bodies.add(body);
                }
                refuses(signedOut, "POST", path, field.name(), bodies);
            }
        }
        assertEquals(before, recipients.get(), "a refused unsubscribe changed the recipients");
        refuses(signedOut, "POST", "session/external_auth", "token", List.of(bodyOf("token", 42), bodyOf("token", true),
                bodyOf("token", Map.of()), bodyOf("token", List.of("x")), Map.of()));
    }
}
