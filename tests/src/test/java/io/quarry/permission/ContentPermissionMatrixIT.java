package io.quarry.permission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.TestServer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The content permission matrix: admin, an ordinary user (All Users only) and an anonymous caller against every
 * content endpoint, for content in four collections — A (All Users write), R (All Users read), N (no rights) and P
 * (another user's personal collection). Each cell has its exact expected status; list endpoints also say which ids
 * must show and which must not. All mismatches are collected first, so one run names every leak.
 */
class ContentPermissionMatrixIT {
    private static final String TOKEN = "zebra";

    /** Where content lives. */
    enum Coll { A, R, N, P }

    /** Who calls; the order the matrix calls them in (anonymous and user first: admin's writes must not decide theirs). */
    enum Role { ANONYMOUS, USER, ADMIN }

    /** What a per-collection endpoint needs from the caller on the content's collection. */
    enum Need { READ, WRITE, SUPERUSER }

    /** Ids of what was put in one collection. */
    static final class Content {
        long collection;
        String collectionName;
        long nativeCard;
        long model;
        long dashboard;
        long dashcard;
        long timeline;
        long event;
        long archiveCard;
        long moveCard;
        long cardRevision;
    }

    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api user;
    private static long db;
    private static long ordersTable;
    private static final Map<Coll, Content> content = new EnumMap<>(Coll.class);
    private static long snippetFolder;
    private static long lockedSnippet;
    private static long rootSnippet;
    private static long segment;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(Map.of());
        anonymous = server.api();
        admin = anonymous.as(io.quarry.testing.Fixtures.setUp(anonymous));
        db = PermissionFixtures.addShop(server, admin, "Shop");
        ordersTable = PermissionFixtures.tableId(admin, db, "ORDERS");
        admin.put(204, "setting/enable-public-sharing", Map.of("value", true));
        user = PermissionFixtures.user(anonymous, admin);
        Api other = PermissionFixtures.user(anonymous, admin);
        long personal = other.get(200, "user/current").json().get("personal_collection_id").asLong();

        long a = collection("Zebra Alpha", null);
        long r = collection("Zebra Readable", null);
        long n = collection("Zebra Nothing", null);
        long rev = admin.get(200, "collection/graph").json().get("revision").asLong();
        admin.put(200, "collection/graph", Map.of("revision", rev, "groups",
                Map.of("1", Map.of(String.valueOf(a), "write", String.valueOf(r), "read", String.valueOf(n), "none"))));
        fill(Coll.A, a);
        fill(Coll.R, r);
        fill(Coll.N, n);
        fill(Coll.P, personal);
        content.get(Coll.P).collectionName = admin.get(200, "collection/" + personal).json().get("name").asText();

        snippetFolder = collection("Zebra snippets", "snippets");
        long srev = admin.get(200, "collection/graph", "namespace", "snippets").json().get("revision").asLong();
        admin.put(200, "collection/graph", Map.of("revision", srev, "namespace", "snippets",
                "groups", Map.of("1", Map.of(String.valueOf(snippetFolder), "none"))));
        lockedSnippet = admin.post(200, "native-query-snippet", Map.of("name", "zebra locked", "content", "1 = 1",
                "collection_id", snippetFolder)).json().get("id").asLong();
        rootSnippet = admin.post(200, "native-query-snippet", Map.of("name", "zebra open", "content", "2 = 2"))
                .json().get("id").asLong();
        segment = admin.post(200, "segment", Map.of("name", "zebra segment", "table_id", ordersTable, "definition",
                Map.of("source-table", ordersTable, "filter", List.of(">", Arrays.asList("field", fieldId("ORDERS", "TOTAL"), null), 0))))
                .json().get("id").asLong();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long fieldId(String table, String field) {
        for (JsonNode t : admin.get(200, "database/" + db + "/metadata").json().get("tables")) {
            if (t.get("name").asText().equals(table)) {
                for (JsonNode f : t.get("fields")) {
                    if (f.get("name").asText().equals(field)) {
                        return f.get("id").asLong();
                    }
                }
            }
        }
        throw new AssertionError("no field " + table + "." + field);
    }

    private static long collection(String name, String namespace) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        if (namespace != null) {
            body.put("namespace", namespace);
        }
        return admin.post(200, "collection", body).json().get("id").asLong();
    }

    private static Map<String, Object> nativeCard(String name, long collectionId) {
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("name", name);
        card.put("display", "line");
        card.put("visualization_settings", Map.of());
        card.put("collection_id", collectionId);
        card.put("dataset_query", Map.of("database", db, "type", "native", "native", Map.of("query", "SELECT ID, TOTAL FROM ORDERS")));
        card.put("parameters", List.of(Map.of("id", "size", "type", "category", "slug", "size", "values_source_type", "static-list",
                "values_source_config", Map.of("values", List.of("Small", "Large")))));
        return card;
    }

    private static void fill(Coll c, long collectionId) {
        Content x = new Content();
        x.collection = collectionId;
        x.collectionName = admin.get(200, "collection/" + collectionId).json().get("name").asText();
        String tag = TOKEN + " " + c.name();
        x.nativeCard = admin.post(200, "card", nativeCard(tag + " native", collectionId)).json().get("id").asLong();
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("name", tag + " model");
        model.put("type", "model");
        model.put("display", "table");
        model.put("visualization_settings", Map.of());
        model.put("collection_id", collectionId);
        model.put("dataset_query", Map.of("database", db, "type", "query", "query", Map.of("source-table", ordersTable)));
        x.model = admin.post(200, "card", model).json().get("id").asLong();
        x.archiveCard = admin.post(200, "card", nativeCard(tag + " to archive", collectionId)).json().get("id").asLong();
        x.moveCard = admin.post(200, "card", nativeCard(tag + " to move", collectionId)).json().get("id").asLong();
        x.dashboard = admin.post(200, "dashboard", Map.of("name", tag + " dashboard", "collection_id", collectionId)).json().get("id").asLong();
        Map<String, Object> dc = new LinkedHashMap<>();
        dc.put("id", -1);
        dc.put("card_id", x.nativeCard);
        dc.put("row", 0);
        dc.put("col", 0);
        dc.put("size_x", 4);
        dc.put("size_y", 4);
        x.dashcard = admin.put(200, "dashboard/" + x.dashboard, Map.of("dashcards", List.of(dc))).json()
                .get("dashcards").get(0).get("id").asLong();
        x.timeline = admin.post(200, "timeline", Map.of("name", tag + " timeline", "collection_id", collectionId)).json().get("id").asLong();
        x.event = admin.post(200, "timeline-event", Map.of("timeline_id", x.timeline, "name", tag + " event",
                "timestamp", "2024-01-02T00:00:00Z", "time_matters", false, "timezone", "UTC")).json().get("id").asLong();
        x.cardRevision = admin.get(200, "revision", "entity", "card", "id", x.nativeCard).json().get(0).get("id").asLong();
        content.put(c, x);
    }

    // --- the table -------------------------------------------------------------------------------------------------

    /**
     * One row: a call, the expected status per role, and (for changes) a probe of the state the call may change: a
     * refused call must leave it as it was.
     */
    private record Row(String name, Function<Api, Api.Res> call, Map<Role, Integer> statuses, Supplier<String> probe) {
        Row(String name, Function<Api, Api.Res> call, Map<Role, Integer> statuses) {
            this(name, call, statuses, null);
        }
    }

    /** One list row: a call, how to read the ids it lists, which content id to look for, and per role which show. */
    private record ListRow(String name, Function<Api, Api.Res> call, Function<Api.Res, Set<Long>> ids,
                           ToLongFunction<Content> item, Map<Role, Map<Coll, Boolean>> shown) {
    }

    private static Map<Role, Integer> statuses(int admin, int user) {
        Map<Role, Integer> s = new EnumMap<>(Role.class);
        s.put(Role.ANONYMOUS, 401);
        s.put(Role.USER, user);
        s.put(Role.ADMIN, admin);
        return s;
    }

    /** The user's status for content in {@code c} given what the endpoint needs; admin gets {@code ok}. */
    private static int userStatus(Need need, Coll c, int ok) {
        return switch (need) {
            case READ -> c == Coll.A || c == Coll.R ? ok : 403;
            case WRITE -> c == Coll.A ? ok : 403;
            case SUPERUSER -> 403;
        };
    }

    /** Adds one row per collection. */
    private static void perCollection(List<Row> rows, String name, Need need, int ok, Function<Content, Function<Api, Api.Res>> call) {
        perCollection(rows, name, need, ok, call, null);
    }

    /** Adds one row per collection, each with a probe of what the call may change. */
    private static void perCollection(List<Row> rows, String name, Need need, int ok, Function<Content, Function<Api, Api.Res>> call,
                                      Function<Content, Supplier<String>> probe) {
        for (Coll c : Coll.values()) {
            rows.add(new Row(name + " [" + c + "]", call.apply(content.get(c)), statuses(ok, userStatus(need, c, ok)),
                    probe == null ? null : probe.apply(content.get(c))));
        }
    }

    /** The admin's view of an object, reduced to what the matrix's changes touch. */
    private static Supplier<String> state(String path) {
        return () -> {
            JsonNode o = admin.get(200, path).json();
            return o.path("name") + "|" + o.path("description") + "|" + o.path("archived") + "|" + o.path("collection_id")
                    + "|" + o.path("content");
        };
    }

    private static Supplier<String> rowCount(String table) {
        return () -> String.valueOf(AppDbSql.count(server, "SELECT COUNT(*) FROM " + table));
    }

    private static Map<String, Object> nulls(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], pairs[i + 1]);
        }
        return m;
    }

    private static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        // collections
        perCollection(rows, "GET /api/collection/:id", Need.READ, 200, x -> a -> a.call("GET", "collection/" + x.collection, null));
        perCollection(rows, "GET /api/collection/:id/items", Need.READ, 200, x -> a -> a.call("GET", "collection/" + x.collection + "/items", null));
        perCollection(rows, "GET /api/collection/:id/timelines", Need.READ, 200,
                x -> a -> a.call("GET", "collection/" + x.collection + "/timelines", null));
        perCollection(rows, "PUT /api/collection/:id", Need.WRITE, 200,
                x -> a -> a.call("PUT", "collection/" + x.collection, Map.of("description", "changed")),
                x -> state("collection/" + x.collection));
        // cards
        perCollection(rows, "GET /api/card/:id", Need.READ, 200, x -> a -> a.call("GET", "card/" + x.nativeCard, null));
        perCollection(rows, "GET /api/card/:id (model)", Need.READ, 200, x -> a -> a.call("GET", "card/" + x.model, null));
        perCollection(rows, "PUT /api/card/:id", Need.WRITE, 200,
                x -> a -> a.call("PUT", "card/" + x.nativeCard, Map.of("description", "changed")),
                x -> state("card/" + x.nativeCard));
        perCollection(rows, "POST /api/card/:id/query", Need.READ, 202, x -> a -> a.call("POST", "card/" + x.nativeCard + "/query", Map.of()));
        perCollection(rows, "POST /api/card/:id/query (model)", Need.READ, 202, x -> a -> a.call("POST", "card/" + x.model + "/query", Map.of()));
        perCollection(rows, "POST /api/card/:id/query/csv", Need.READ, 200,
                x -> a -> a.call("POST", "card/" + x.nativeCard + "/query/csv", Map.of()));
        perCollection(rows, "POST /api/card/:id/copy", Need.WRITE, 200, x -> a -> a.call("POST", "card/" + x.nativeCard + "/copy", Map.of()),
                x -> rowCount("report_card"));
        perCollection(rows, "PUT /api/card/:id (archive)", Need.WRITE, 200,
                x -> a -> a.call("PUT", "card/" + x.archiveCard, Map.of("archived", true)),
                x -> state("card/" + x.archiveCard));
        perCollection(rows, "PUT /api/card/:id (move to root)", Need.WRITE, 200,
                x -> a -> a.call("PUT", "card/" + x.moveCard, nulls("collection_id", null)),
                x -> state("card/" + x.moveCard));
        perCollection(rows, "POST /api/card/:id/public_link", Need.SUPERUSER, 200,
                x -> a -> a.call("POST", "card/" + x.nativeCard + "/public_link", Map.of()),
                x -> () -> String.valueOf(AppDbSql.value(server, "SELECT public_uuid FROM report_card WHERE id = ?", x.nativeCard)));
        perCollection(rows, "GET /api/card/:id/params/:key/values", Need.READ, 200,
                x -> a -> a.call("GET", "card/" + x.nativeCard + "/params/size/values", null));
        perCollection(rows, "GET /api/card/:id/series", Need.READ, 200, x -> a -> a.call("GET", "card/" + x.nativeCard + "/series", null));
        perCollection(rows, "GET /api/card/:id/related", Need.READ, 200, x -> a -> a.call("GET", "card/" + x.nativeCard + "/related", null));
        perCollection(rows, "GET /api/card/:id/timelines", Need.READ, 200, x -> a -> a.call("GET", "card/" + x.nativeCard + "/timelines", null));
        perCollection(rows, "GET /api/card/:id/query_metadata", Need.READ, 200,
                x -> a -> a.call("GET", "card/" + x.model + "/query_metadata", null));
        // dashboards
        perCollection(rows, "GET /api/dashboard/:id", Need.READ, 200, x -> a -> a.call("GET", "dashboard/" + x.dashboard, null));
        perCollection(rows, "PUT /api/dashboard/:id", Need.WRITE, 200,
                x -> a -> a.call("PUT", "dashboard/" + x.dashboard, Map.of("description", "changed")),
                x -> state("dashboard/" + x.dashboard));
        // Metabase copies into the collection_id of the body (absent = Root): read on the source, write on the target
        perCollection(rows, "POST /api/dashboard/:id/copy (to Root)", Need.READ, 200,
                x -> a -> a.call("POST", "dashboard/" + x.dashboard + "/copy", Map.of()),
                x -> rowCount("report_dashboard"));
        perCollection(rows, "POST /api/dashboard/:id/copy (into N)", Need.SUPERUSER, 200,
                x -> a -> a.call("POST", "dashboard/" + x.dashboard + "/copy", Map.of("collection_id", content.get(Coll.N).collection)),
                x -> rowCount("report_dashboard"));
        perCollection(rows, "POST /api/dashboard/:id/dashcard/:dc/card/:c/query", Need.READ, 202,
                x -> a -> a.call("POST", "dashboard/" + x.dashboard + "/dashcard/" + x.dashcard + "/card/" + x.nativeCard + "/query", Map.of()));
        perCollection(rows, "GET /api/dashboard/:id/query_metadata", Need.READ, 200,
                x -> a -> a.call("GET", "dashboard/" + x.dashboard + "/query_metadata", null));
        // timelines
        perCollection(rows, "GET /api/timeline/:id", Need.READ, 200,
                x -> a -> a.call("GET", "timeline/" + x.timeline + "?include=events", null));
        perCollection(rows, "PUT /api/timeline/:id", Need.WRITE, 200,
                x -> a -> a.call("PUT", "timeline/" + x.timeline, Map.of("description", "changed")),
                x -> state("timeline/" + x.timeline));
        perCollection(rows, "GET /api/timeline-event/:id", Need.READ, 200, x -> a -> a.call("GET", "timeline-event/" + x.event, null));
        perCollection(rows, "PUT /api/timeline-event/:id", Need.WRITE, 200,
                x -> a -> a.call("PUT", "timeline-event/" + x.event, Map.of("description", "changed")),
                x -> state("timeline-event/" + x.event));
        // bookmarks: reading is enough to bookmark
        perCollection(rows, "POST /api/bookmark/card/:id", Need.READ, 200, x -> a -> a.call("POST", "bookmark/card/" + x.nativeCard, null));
        perCollection(rows, "POST /api/bookmark/dashboard/:id", Need.READ, 200,
                x -> a -> a.call("POST", "bookmark/dashboard/" + x.dashboard, null));
        perCollection(rows, "POST /api/bookmark/collection/:id", Need.READ, 200,
                x -> a -> a.call("POST", "bookmark/collection/" + x.collection, null));
        // revisions
        perCollection(rows, "GET /api/revision (card)", Need.READ, 200,
                x -> a -> a.call("GET", "revision?entity=card&id=" + x.nativeCard, null));
        perCollection(rows, "GET /api/revision (dashboard)", Need.READ, 200,
                x -> a -> a.call("GET", "revision?entity=dashboard&id=" + x.dashboard, null));
        perCollection(rows, "POST /api/revision/revert (card)", Need.WRITE, 200,
                x -> a -> a.call("POST", "revision/revert", Map.of("entity", "card", "id", x.nativeCard, "revision_id", x.cardRevision)),
                x -> state("card/" + x.nativeCard));
        // f=using_model read-checks the model (Metabase: api/read-check :model/Card model-id)
        perCollection(rows, "GET /api/card?f=using_model", Need.READ, 200,
                x -> a -> a.call("GET", "card?f=using_model&model_id=" + x.model, null));
        // snippets in a folder without rights, and at Root (All Users write)
        rows.add(new Row("GET /api/native-query-snippet/:id [locked folder]",
                a -> a.call("GET", "native-query-snippet/" + lockedSnippet, null), statuses(200, 403)));
        rows.add(new Row("PUT /api/native-query-snippet/:id [locked folder]",
                a -> a.call("PUT", "native-query-snippet/" + lockedSnippet, Map.of("description", "changed")), statuses(200, 403),
                state("native-query-snippet/" + lockedSnippet)));
        rows.add(new Row("GET /api/native-query-snippet/:id [root]",
                a -> a.call("GET", "native-query-snippet/" + rootSnippet, null), statuses(200, 200)));
        rows.add(new Row("PUT /api/native-query-snippet/:id [root]",
                a -> a.call("PUT", "native-query-snippet/" + rootSnippet, Map.of("description", "changed")), statuses(200, 200)));
        rows.add(new Row("GET /api/collection/:id (snippet folder)",
                a -> a.call("GET", "collection/" + snippetFolder, null), statuses(200, 403)));
        // segments follow data permissions (All Users may query the database)
        rows.add(new Row("GET /api/segment/:id", a -> a.call("GET", "segment/" + segment, null), statuses(200, 200)));
        rows.add(new Row("GET /api/segment", a -> a.call("GET", "segment", null), statuses(200, 200)));
        return rows;
    }

    private static Set<Long> idsOf(JsonNode array) {
        Set<Long> ids = new HashSet<>();
        for (JsonNode item : array) {
            ids.add(item.get("id").asLong());
        }
        return ids;
    }

    private static Set<Long> dataIds(Api.Res res) {
        JsonNode json = res.json();
        return idsOf(json.isArray() ? json : json.get("data"));
    }

    private static Set<Long> treeIds(Api.Res res) {
        Set<Long> ids = new HashSet<>();
        collectTree(res.json(), ids);
        return ids;
    }

    private static void collectTree(JsonNode nodes, Set<Long> into) {
        for (JsonNode n : nodes) {
            if (n.get("id").isNumber()) {
                into.add(n.get("id").asLong());
            }
            if (n.has("children")) {
                collectTree(n.get("children"), into);
            }
        }
    }

    /** Items of one model (search hits, collection items), as ids. */
    private static Function<Api.Res, Set<Long>> modelIds(String model) {
        return res -> {
            Set<Long> ids = new HashSet<>();
            for (JsonNode hit : res.json().get("data")) {
                if (hit.get("model").asText().equals(model)) {
                    ids.add(hit.get("id").asLong());
                }
            }
            return ids;
        };
    }

    private static Map<Coll, Boolean> shows(Boolean a, Boolean r, Boolean n, Boolean p) {
        Map<Coll, Boolean> m = new EnumMap<>(Coll.class);
        m.put(Coll.A, a);
        m.put(Coll.R, r);
        m.put(Coll.N, n);
        m.put(Coll.P, p);
        return m;
    }

    /** Readable lists: admin sees A, R, N (other people's personal content not asserted), the user A and R only. */
    private static Map<Role, Map<Coll, Boolean>> readable() {
        Map<Role, Map<Coll, Boolean>> m = new EnumMap<>(Role.class);
        m.put(Role.ADMIN, shows(true, true, true, null));
        m.put(Role.USER, shows(true, true, false, false));
        return m;
    }

    /** Lists where the user shows nothing of ours (not theirs), but must never show N or P. */
    private static Map<Role, Map<Coll, Boolean>> noneForUser() {
        Map<Role, Map<Coll, Boolean>> m = new EnumMap<>(Role.class);
        m.put(Role.ADMIN, shows(null, null, null, null));
        m.put(Role.USER, shows(null, null, false, false));
        return m;
    }

    private static List<ListRow> listRows() {
        List<ListRow> rows = new ArrayList<>();
        Function<String, Function<Api, Api.Res>> get = path -> a -> a.call("GET", path, null);
        rows.add(new ListRow("GET /api/collection", get.apply("collection"), ContentPermissionMatrixIT::dataIds, x -> x.collection, readable()));
        rows.add(new ListRow("GET /api/collection/tree", get.apply("collection/tree"), ContentPermissionMatrixIT::treeIds,
                x -> x.collection, readable()));
        rows.add(new ListRow("GET /api/collection/root/items", get.apply("collection/root/items"), modelIds("collection"),
                x -> x.collection, readable()));
        rows.add(new ListRow("GET /api/card", get.apply("card"), ContentPermissionMatrixIT::dataIds, x -> x.nativeCard, readable()));
        rows.add(new ListRow("GET /api/card?f=all (models)", get.apply("card?f=all"), ContentPermissionMatrixIT::dataIds, x -> x.model, readable()));
        rows.add(new ListRow("GET /api/card?f=mine", get.apply("card?f=mine"), ContentPermissionMatrixIT::dataIds, x -> x.nativeCard, noneForUser()));
        rows.add(new ListRow("GET /api/card?f=bookmarked", get.apply("card?f=bookmarked"), ContentPermissionMatrixIT::dataIds,
                x -> x.nativeCard, readable()));
        rows.add(new ListRow("GET /api/card?f=database", get.apply("card?f=database&model_id=" + db), ContentPermissionMatrixIT::dataIds,
                x -> x.nativeCard, readable()));
        rows.add(new ListRow("GET /api/card?f=table", get.apply("card?f=table&model_id=" + ordersTable), ContentPermissionMatrixIT::dataIds,
                x -> x.model, readable()));
        rows.add(new ListRow("GET /api/card?f=archived", get.apply("card?f=archived"), ContentPermissionMatrixIT::dataIds,
                x -> x.archiveCard, readable()));
        rows.add(new ListRow("GET /api/card?f=using_model [model in A]",
                get.apply("card?f=using_model&model_id=" + content.get(Coll.A).model),
                ContentPermissionMatrixIT::dataIds, x -> x.nativeCard, noneForUser()));
        rows.add(new ListRow("GET /api/card/:id/series [A]", get.apply("card/" + content.get(Coll.A).nativeCard + "/series"),
                ContentPermissionMatrixIT::dataIds, x -> x.nativeCard, seriesShown()));
        rows.add(new ListRow("GET /api/dashboard", get.apply("dashboard"), ContentPermissionMatrixIT::dataIds, x -> x.dashboard, readable()));
        rows.add(new ListRow("GET /api/timeline", get.apply("timeline"), ContentPermissionMatrixIT::dataIds, x -> x.timeline, readable()));
        rows.add(new ListRow("GET /api/bookmark (cards)", get.apply("bookmark"), res -> {
            Set<Long> ids = new HashSet<>();
            for (JsonNode b : res.json()) {
                if (b.get("type").asText().equals("card")) {
                    ids.add(b.get("item_id").asLong());
                }
            }
            return ids;
        }, x -> x.nativeCard, readable()));
        String q = "search?q=" + TOKEN;
        rows.add(new ListRow("GET /api/search (card)", get.apply(q), modelIds("card"), x -> x.nativeCard, readable()));
        rows.add(new ListRow("GET /api/search (dataset)", get.apply(q), modelIds("dataset"), x -> x.model, readable()));
        rows.add(new ListRow("GET /api/search (dashboard)", get.apply(q), modelIds("dashboard"), x -> x.dashboard, readable()));
        rows.add(new ListRow("GET /api/search (collection)", get.apply(q), modelIds("collection"), x -> x.collection,
                readableExceptPersonal()));
        rows.add(new ListRow("GET /api/database/-1337/schemas", get.apply("database/-1337/schemas"), res -> {
            Set<Long> ids = new HashSet<>();
            Set<String> names = new HashSet<>();
            res.json().forEach(s -> names.add(s.asText()));
            for (Content x : content.values()) {
                if (names.contains(x.collectionName)) {
                    ids.add(x.collection);
                }
            }
            return ids;
        }, x -> x.collection, readable()));
        return rows;
    }

    /** The series of A's card lists the other cards, never A's own. */
    private static Map<Role, Map<Coll, Boolean>> seriesShown() {
        Map<Role, Map<Coll, Boolean>> m = readable();
        m.get(Role.ADMIN).put(Coll.A, null);
        m.get(Role.USER).put(Coll.A, null);
        return m;
    }

    /** The personal collection's own name does not contain the search token. */
    private static Map<Role, Map<Coll, Boolean>> readableExceptPersonal() {
        Map<Role, Map<Coll, Boolean>> m = readable();
        m.get(Role.USER).put(Coll.P, false);
        return m;
    }

    private static Api caller(Role role) {
        return switch (role) {
            case ANONYMOUS -> anonymous;
            case USER -> user;
            case ADMIN -> admin;
        };
    }

    private static String shortBody(Api.Res res) {
        return res.body().substring(0, Math.min(160, res.body().length())).replace('\n', ' ');
    }

    @Test
    void everyRoleGetsExactlyItsRightsOnEveryContentEndpoint() {
        List<String> wrong = new ArrayList<>();
        int cells = 0;
        for (Row row : rows()) {
            for (Role role : Role.values()) {
                cells++;
                int expected = row.statuses().get(role);
                boolean refused = expected >= 400 && row.probe() != null;
                String before = refused ? row.probe().get() : null;
                Api.Res res = row.call().apply(caller(role));
                if (res.status() != expected) {
                    wrong.add(row.name() + " as " + role + ": expected " + expected + ", got " + res.status() + " " + shortBody(res));
                }
                if (refused && !before.equals(row.probe().get())) {
                    wrong.add(row.name() + " as " + role + ": refused but CHANGED " + before + " -> " + row.probe().get());
                }
            }
        }
        for (ListRow row : listRows()) {
            for (Role role : Role.values()) {
                cells++;
                Api.Res res = row.call().apply(caller(role));
                int expected = role == Role.ANONYMOUS ? 401 : 200;
                if (res.status() != expected) {
                    wrong.add(row.name() + " as " + role + ": expected " + expected + ", got " + res.status() + " " + shortBody(res));
                    continue;
                }
                if (role == Role.ANONYMOUS) {
                    continue;
                }
                Set<Long> ids = row.ids().apply(res);
                for (Map.Entry<Coll, Boolean> e : row.shown().get(role).entrySet()) {
                    if (e.getValue() == null) {
                        continue;
                    }
                    long id = row.item().applyAsLong(content.get(e.getKey()));
                    if (ids.contains(id) != e.getValue()) {
                        wrong.add(row.name() + " as " + role + ": item of " + e.getKey() + " (id " + id + ") "
                                + (e.getValue() ? "missing" : "LEAKED"));
                    }
                }
            }
        }
        System.out.println("content permission matrix: " + cells + " cells, " + wrong.size() + " wrong");
        assertTrue(wrong.isEmpty(), wrong.size() + " of " + cells + " cells wrong:\n" + String.join("\n", wrong));
    }

    @Test
    void snippetListsShowOnlyReadableFolders() {
        Set<Long> mine = idsOf(user.get(200, "native-query-snippet").json());
        assertTrue(mine.contains(rootSnippet), mine.toString());
        assertTrue(!mine.contains(lockedSnippet), "snippet of a folder without rights LEAKED: " + mine);
        Set<Long> all = idsOf(admin.get(200, "native-query-snippet").json());
        assertTrue(all.contains(rootSnippet) && all.contains(lockedSnippet), all.toString());
        anonymous.get(401, "native-query-snippet");
        // nor does the folder show among the snippet collections' items
        Set<Long> folders = modelIds("collection").apply(user.get(200, "collection/root/items", "namespace", "snippets"));
        assertTrue(!folders.contains(snippetFolder), folders.toString());
        assertTrue(modelIds("collection").apply(admin.get(200, "collection/root/items", "namespace", "snippets")).contains(snippetFolder));
    }

    @Test
    void lockedCollectionRefusesItemsAndNewCardsWriteNothing() {
        Content n = content.get(Coll.N);
        assertEquals("You don't have permissions to do that.", user.get(403, "collection/" + n.collection + "/items").body());
        long before = AppDbSql.count(server, "SELECT COUNT(*) FROM report_card");
        Map<String, Object> card = nativeCard("zebra sneaky", n.collection);
        user.post(403, "card", card);
        assertEquals(before, AppDbSql.count(server, "SELECT COUNT(*) FROM report_card"));
        assertEquals(0, AppDbSql.count(server, "SELECT COUNT(*) FROM report_card WHERE name = ?", "zebra sneaky"));
        // read rights are not enough to add a card either
        user.post(403, "card", nativeCard("zebra sneaky", content.get(Coll.R).collection));
        assertEquals(before, AppDbSql.count(server, "SELECT COUNT(*) FROM report_card"));
        anonymous.post(401, "card", card);
        assertEquals(before, AppDbSql.count(server, "SELECT COUNT(*) FROM report_card"));
    }
}
