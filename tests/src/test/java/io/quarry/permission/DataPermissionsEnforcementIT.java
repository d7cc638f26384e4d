package io.quarry.permission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The permission matrix: every role against every data endpoint, each cell with its expected status (and, for
 * lists, whether the database shows). Any leak — a 2xx where a 403 belongs, a database listed to someone who may not
 * query it — fails the test, naming the cell.
 */
class DataPermissionsEnforcementIT {
    private static TestServer server;
    private static Api api;
    private static Map<String, Api> roles;
    private static long db;
    private static long ordersTable;
    private static long nativeCard;
    private static long dashboard;
    private static long dashcard;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(Map.of());
        api = server.api();
        Api admin = api.as(Fixtures.setUp(api));
        db = PermissionFixtures.addShop(server, admin, "Shop");
        ordersTable = PermissionFixtures.tableId(admin, db, "ORDERS");
        nativeCard = admin.post(200, "card", Map.of("name", "Native orders", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", db, "type", "native", "native", Map.of("query", "SELECT COUNT(*) FROM ORDERS"))))
                .json().get("id").asLong();
        // a dashboard (in Root: All Users may read it) showing the native card
        dashboard = admin.post(200, "dashboard", Map.of("name", "Orders board")).json().get("id").asLong();
        dashcard = admin.put(200, "dashboard/" + dashboard, Map.of("dashcards", List.of(Map.of("id", -1, "card_id", nativeCard,
                "row", 0, "col", 0, "size_x", 4, "size_y", 4)))).json().get("dashcards").get(0).get("id").asLong();
        // A group created now gets All Users' defaults (view data, native SQL): its members keep full rights.
        long full = PermissionFixtures.group(admin, "Full");
        long builder = PermissionFixtures.group(admin, "Builder");
        long viewer = PermissionFixtures.group(admin, "Viewer");
        // All Users lose everything on the database; the other groups get what their name says.
        PermissionFixtures.grant(admin, 1, db, "view-data", "blocked");
        PermissionFixtures.grant(admin, builder, db, "create-queries", "query-builder");
        PermissionFixtures.grant(admin, viewer, db, "view-data", "unrestricted", "create-queries", "no");
        roles = new LinkedHashMap<>();
        roles.put("admin", admin);
        roles.put("full", PermissionFixtures.user(api, admin, full));
        roles.put("builder", PermissionFixtures.user(api, admin, builder));
        roles.put("viewer", PermissionFixtures.user(api, admin, viewer));
        roles.put("blocked", PermissionFixtures.user(api, admin));
        roles.put("anonymous", api);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> nativeQuery() {
        return Map.of("database", db, "type", "native", "native", Map.of("query", "SELECT COUNT(*) FROM ORDERS"));
    }

    private static Map<String, Object> mbqlQuery() {
        return Map.of("database", db, "type", "query", "query", Map.of("source-table", ordersTable));
    }

    /** One endpoint of the matrix: how to call it, and what each role must get (role order as in {@link #roles}). */
    private record Endpoint(String name, Function<Api, Api.Res> call, int[] statuses) {
    }

    private static boolean listed(Api.Res res) {
        for (JsonNode d : res.json().get("data")) {
            if (d.get("id").asLong() == db) {
                return true;
            }
        }
        return false;
    }

    @Test
    void everyRoleGetsExactlyItsRightsOnEveryEndpoint() {
        //                                                                  admin full builder viewer blocked anonymous
        List<Endpoint> endpoints = List.of(
                new Endpoint("POST /api/dataset (native)", a -> a.call("POST", "dataset", nativeQuery()),
                        new int[] {202, 202, 403, 403, 403, 401}),
                new Endpoint("POST /api/dataset (MBQL)", a -> a.call("POST", "dataset", mbqlQuery()),
                        new int[] {202, 202, 202, 403, 403, 401}),
                new Endpoint("POST /api/dataset/native (MBQL)", a -> a.call("POST", "dataset/native", mbqlQuery()),
                        new int[] {200, 200, 200, 403, 403, 401}),
                new Endpoint("POST /api/dataset/native (native)", a -> a.call("POST", "dataset/native", nativeQuery()),
                        new int[] {200, 200, 403, 403, 403, 401}),
                new Endpoint("POST /api/card/:id/query (native card)", a -> a.call("POST", "card/" + nativeCard + "/query", Map.of()),
                        new int[] {202, 202, 202, 202, 403, 401}),
                // a saved card runs with view data alone, from a dashboard too
                new Endpoint("POST /api/dashboard/:id/dashcard/:dcid/card/:cid/query (native card)",
                        a -> a.call("POST", "dashboard/" + dashboard + "/dashcard/" + dashcard + "/card/" + nativeCard + "/query", Map.of()),
                        new int[] {202, 202, 202, 202, 403, 401}),
                new Endpoint("GET /api/database", a -> a.call("GET", "database", null),
                        new int[] {200, 200, 200, 200, 200, 401}),
                new Endpoint("GET /api/database/:id", a -> a.call("GET", "database/" + db, null),
                        new int[] {200, 200, 200, 403, 403, 401}),
                new Endpoint("GET /api/database/:id/metadata", a -> a.call("GET", "database/" + db + "/metadata", null),
                        new int[] {200, 200, 200, 403, 403, 401}),
                new Endpoint("GET /api/database/:id/schemas", a -> a.call("GET", "database/" + db + "/schemas", null),
                        new int[] {200, 200, 200, 403, 403, 401}),
                new Endpoint("GET /api/table/:id/query_metadata", a -> a.call("GET", "table/" + ordersTable + "/query_metadata", null),
                        new int[] {200, 200, 200, 403, 403, 401}),
                new Endpoint("GET /api/table/:id", a -> a.call("GET", "table/" + ordersTable, null),
                        new int[] {200, 200, 200, 403, 403, 401}));
        List<String> roleNames = new ArrayList<>(roles.keySet());
        List<String> wrong = new ArrayList<>();
        for (Endpoint endpoint : endpoints) {
            for (int i = 0; i < roleNames.size(); i++) {
                Api.Res res = endpoint.call().apply(roles.get(roleNames.get(i)));
                if (res.status() != endpoint.statuses()[i]) {
                    wrong.add(endpoint.name() + " as " + roleNames.get(i) + ": expected " + endpoint.statuses()[i] + ", got "
                            + res.status() + " " + res.body().substring(0, Math.min(200, res.body().length())));
                }
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    @Test
    void databaseListShowsOnlyQueryableDatabasesWithTheCallersNativeRights() {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("admin", "write");
        expected.put("full", "write");
        expected.put("builder", "none");
        expected.put("viewer", null); // not listed
        expected.put("blocked", null);
        for (var entry : expected.entrySet()) {
            Api.Res res = roles.get(entry.getKey()).get(200, "database");
            assertEquals(entry.getValue() != null, listed(res), entry.getKey() + " listing: " + res.body());
            if (entry.getValue() != null) {
                for (JsonNode d : res.json().get("data")) {
                    if (d.get("id").asLong() == db) {
                        assertEquals(entry.getValue(), d.get("native_permissions").asText(), entry.getKey());
                    }
                }
                assertEquals(entry.getValue(),
                        roles.get(entry.getKey()).get(200, "database/" + db).json().get("native_permissions").asText());
            }
        }
        // include=tables never carries tables of databases the caller may not query
        for (JsonNode d : roles.get("viewer").get(200, "database", "include", "tables").json().get("data")) {
            assertTrue(d.get("id").asLong() != db, d.toString());
        }
        // with include_editable_data_model a caller without data access sees name and id only (Metabase's block view)
        JsonNode reduced = roles.get("blocked").get(200, "database/" + db, "include_editable_data_model", "true").json();
        assertEquals(List.of("id", "name"), keys(reduced));
        // the table list holds no table of the database
        for (JsonNode t : roles.get("blocked").get(200, "table").json()) {
            assertTrue(t.get("db_id").asLong() != db, t.toString());
        }
    }

    private static List<String> keys(JsonNode object) {
        List<String> keys = new ArrayList<>();
        object.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    @Test
    void refusedQueriesAnswerMetabasesPermissionFailure() {
        JsonNode failure = roles.get("builder").post(403, "dataset", nativeQuery()).json();
        assertEquals("failed", failure.get("status").asText());
        assertEquals("You do not have permissions to run this query.", failure.get("error").asText());
        assertEquals("missing-required-permissions", failure.get("error_type").asText());
        JsonNode blockedCard = roles.get("blocked").post(403, "card/" + nativeCard + "/query", Map.of()).json();
        assertEquals("missing-required-permissions", blockedCard.get("error_type").asText());
        JsonNode blockedDashcard = roles.get("blocked").post(403, "dashboard/" + dashboard + "/dashcard/" + dashcard + "/card/"
                + nativeCard + "/query", Map.of()).json();
        assertEquals("missing-required-permissions", blockedDashcard.get("error_type").asText());
        JsonNode viaDashboard = roles.get("builder").post(202, "dashboard/" + dashboard + "/dashcard/" + dashcard + "/card/"
                + nativeCard + "/query", Map.of()).json();
        assertEquals(3, viaDashboard.get("data").get("rows").get(0).get(0).asInt());
        // a native query smuggling another card in ({{#id}}) is still native SQL
        Map<String, Object> tagged = Map.of("database", db, "type", "native", "native", Map.of(
                "query", "SELECT * FROM {{#" + nativeCard + "}} t",
                "template-tags", Map.of("#" + nativeCard, Map.of("name", "#" + nativeCard, "display-name", "Card",
                        "type", "card", "card-id", nativeCard))));
        roles.get("builder").post(403, "dataset", tagged);
        roles.get("full").post(202, "dataset", tagged);
        // the saved card's data result really arrives for the viewer (view data without creating queries)
        JsonNode result = roles.get("viewer").post(202, "card/" + nativeCard + "/query", Map.of()).json();
        assertEquals(3, result.get("data").get("rows").get(0).get(0).asInt());
    }

    @Test
    void fieldsAndTheirValuesFollowTheirDatabase() {
        JsonNode table = roles.get("admin").get(200, "table/" + ordersTable + "/query_metadata").json();
        long fieldId = table.get("fields").get(0).get("id").asLong();
        roles.get("full").get(200, "field/" + fieldId);
        roles.get("builder").get(200, "field/" + fieldId + "/values");
        roles.get("viewer").get(403, "field/" + fieldId);
        roles.get("blocked").get(403, "field/" + fieldId);
        roles.get("blocked").get(403, "field/" + fieldId + "/values");
        roles.get("blocked").get(404, "field/99999999");
    }
}
