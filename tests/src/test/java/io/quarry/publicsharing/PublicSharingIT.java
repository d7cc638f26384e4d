package io.quarry.publicsharing;

import static io.quarry.publicsharing.SharingFixture.count;
import static io.quarry.publicsharing.SharingFixture.csvCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Public links, as a stranger uses them: the card and dashboard cut down to what Metabase shows, their queries and
 * downloads with the card's own rights (the card sits in a collection ordinary users cannot read), parameters, the
 * 404 after unsharing, and every public endpoint refusing while sharing is off.
 */
class PublicSharingIT {
    private static SharingFixture f;

    @BeforeAll
    static void start() throws Exception {
        f = new SharingFixture("public-sample");
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    private static String share() {
        return f.admin.post(200, "card/" + f.cardId + "/public_link", Map.of()).json().get("uuid").asText();
    }

    private static Set<String> keys(JsonNode node) {
        Set<String> keys = new TreeSet<>();
        node.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    @Test
    void aStrangerWithTheUuidGetsTheCardRowsAndACsvAndAfterUnsharingA404() throws Exception {
        String uuid = share();
        JsonNode card = f.anonymous.get(200, "public/card/" + uuid).json();
        assertEquals(new TreeSet<>(List.of("id", "name", "description", "display", "visualization_settings", "parameters",
                "entity_id", "dataset_query", "param_fields")), keys(card));
        assertEquals(Set.of("type", "native"), keys(card.get("dataset_query")));
        assertEquals(Set.of("template-tags"), keys(card.get("dataset_query").get("native")), "no SQL text for strangers");
        JsonNode parameter = card.get("parameters").get(0);
        assertEquals("tag-cat", parameter.get("id").asText());
        assertEquals("category", parameter.get("slug").asText());
        assertEquals("[\"variable\",[\"template-tag\",\"category\"]]", parameter.get("target").toString());

        JsonNode all = f.anonymous.get(202, "public/card/" + uuid + "/query").json();
        assertEquals(Set.of("data", "json_query", "status"), keys(all));
        assertEquals("completed", all.get("status").asText());
        assertEquals(f.reference(null), count(all));
        JsonNode gizmo = f.anonymous.get(202, "public/card/" + uuid + "/query",
                "parameters", "[{\"id\":\"tag-cat\",\"value\":\"Gizmo\"}]").json();
        assertEquals(f.reference("Gizmo"), count(gizmo));
        assertTrue(f.reference("Gizmo") < f.reference(null), "the filter filters");
        String csv = f.anonymous.get(200, "public/card/" + uuid + "/query/csv",
                "parameters", "[{\"id\":\"tag-cat\",\"value\":\"Widget\"}]").body();
        assertEquals(f.reference("Widget"), csvCount(csv));
        assertEquals(f.reference(null), f.anonymous.get(200, "public/card/" + uuid + "/query/json").json().get(0).elements().next().asLong());
        f.anonymous.get(200, "public/card/" + uuid + "/query/xlsx");
        // the same card is not readable to an ordinary user through the private API: the link runs with the card's rights
        f.user.post(403, "card/" + f.cardId + "/query", Map.of());
        assertEquals(f.reference(null), count(f.user.get(202, "public/card/" + uuid + "/query").json()));

        f.admin.delete(204, "card/" + f.cardId + "/public_link");
        assertEquals("Not found.", f.anonymous.get(404, "public/card/" + uuid).body());
        assertEquals("Not found.", f.anonymous.get(404, "public/card/" + uuid + "/query").body());
        f.anonymous.get(404, "public/card/" + uuid + "/query/csv");
    }

    @Test
    void sharingTurnedOffRefusesEveryPublicEndpointAndKeepsTheLinks() {
        String uuid = share();
        String dashboard = f.admin.post(200, "dashboard/" + f.dashboardId + "/public_link", Map.of()).json().get("uuid").asText();
        f.admin.put(204, "setting/enable-public-sharing", Map.of("value", false));
        try {
            for (String path : List.of("public/card/" + uuid, "public/card/" + uuid + "/query", "public/card/" + uuid + "/query/csv",
                    "public/dashboard/" + dashboard, "public/dashboard/" + dashboard + "/dashcard/" + f.dashcardId + "/card/" + f.cardId,
                    "public/card/00000000-0000-0000-0000-000000000000")) {
                assertEquals("An error occurred.", f.anonymous.get(400, path).body(), path);
            }
        } finally {
            f.admin.put(204, "setting/enable-public-sharing", Map.of("value", true));
        }
        f.anonymous.get(200, "public/card/" + uuid);
        f.anonymous.get(200, "public/dashboard/" + dashboard);
    }

    @Test
    void unknownUuidsAreNotFoundAndBadInputIsAnErrorWithoutDetails() {
        String uuid = share();
        assertEquals("Not found.", f.anonymous.get(404, "public/card/00000000-0000-0000-0000-000000000000").body());
        assertEquals("Not found.", f.anonymous.get(404, "public/dashboard/00000000-0000-0000-0000-000000000000").body());
        assertEquals("An error occurred.", f.anonymous.get(400, "public/card/not-a-uuid").body());
        assertEquals("An error occurred.", f.anonymous.get(400, "public/card/" + uuid + "/query", "parameters", "{oops").body());
        assertEquals("An error occurred.", f.anonymous.get(400, "public/card/" + uuid + "/query",
                "parameters", "[{\"id\":\"no-such-parameter\",\"value\":1}]").body());
        assertEquals("An error occurred.", f.anonymous.get(400, "public/card/" + uuid + "/query", "parameters", "{\"a\":1}").body());
    }

    @Test
    void aFailingQueryHidesTheDatabaseMessage() {
        long broken = f.admin.post(200, "card", Map.of("name", "Broken", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", f.databaseId, "type", "native", "native", Map.of("query", "SELECT nope FROM nowhere"))))
                .json().get("id").asLong();
        String uuid = f.admin.post(200, "card/" + broken + "/public_link", Map.of()).json().get("uuid").asText();
        var res = f.anonymous.call("GET", "public/card/" + uuid + "/query", null);
        JsonNode body = res.json();
        assertEquals("failed", body.get("status").asText(), res.body());
        assertEquals(PublicResults.QUERY_ERROR, body.get("error").asText());
        assertFalse(res.body().toUpperCase().contains("NOWHERE"), res.body());
        var csv = f.anonymous.call("GET", "public/card/" + uuid + "/query/csv", null);
        assertTrue(csv.status() >= 400, csv.status() + " " + csv.body());
        assertFalse(csv.body().toUpperCase().contains("NOWHERE"), csv.body());
    }

    @Test
    void plainClientsPostThePublicDashcardExport() throws Exception {
        String uuid = f.admin.post(200, "dashboard/" + f.dashboardId + "/public_link", Map.of()).json().get("uuid").asText();
        try {
            String path = "public/dashboard/" + uuid + "/dashcard/" + f.dashcardId + "/card/" + f.cardId + "/csv";
            // curl -X POST: no body, no content type
            Plain noBody = plainPost(path, null, null);
            assertEquals(200, noBody.status(), noBody.body());
            assertEquals(f.reference(null), csvCount(noBody.body()));
            // curl -d '' and HttpURLConnection: an empty form-typed body
            Plain emptyForm = plainPost(path, "application/x-www-form-urlencoded", new byte[0]);
            assertEquals(200, emptyForm.status(), emptyForm.body());
            assertEquals(f.reference(null), csvCount(emptyForm.body()));
            // a malformed JSON body is refused before anything runs
            Plain malformed = plainPost(path, "application/json", "{\"parameters\":".getBytes(StandardCharsets.UTF_8));
            assertEquals(400, malformed.status(), malformed.body());
            assertEquals("Malformed JSON in request body.", malformed.body());
        } finally {
            f.admin.delete(204, "dashboard/" + f.dashboardId + "/public_link");
        }
    }

    private record Plain(int status, String body) {
    }

    /** A POST the way java.net.HttpURLConnection sends it: a content type only when given, a body only when given. */
    private Plain plainPost(String path, String contentType, byte[] body) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) f.server.base.resolve("api/" + path).toURL().openConnection();
        connection.setRequestMethod("POST");
        if (contentType != null) {
            connection.setRequestProperty("Content-Type", contentType);
        }
        if (body != null) {
            connection.setDoOutput(true);
            try (OutputStream out = connection.getOutputStream()) {
                out.write(body);
            }
        }
        int status = connection.getResponseCode();
        try (InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream()) {
            return new Plain(status, in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } finally {
            connection.disconnect();
        }
    }

    @Test
    void publicDashboardsShowCutDownCardsAndRunTheirDashcards() throws Exception {
        String uuid = f.admin.post(200, "dashboard/" + f.dashboardId + "/public_link", Map.of()).json().get("uuid").asText();
        assertEquals(uuid, f.admin.post(200, "dashboard/" + f.dashboardId + "/public_link", Map.of()).json().get("uuid").asText());
        assertTrue(f.admin.get(200, "dashboard/public").body().contains(uuid));
        JsonNode dashboard = f.anonymous.get(200, "public/dashboard/" + uuid).json();
        assertEquals(new TreeSet<>(List.of("id", "name", "description", "parameters", "auto_apply_filters", "width", "tabs",
                "param_fields", "dashcards")), keys(dashboard));
        JsonNode dashcard = dashboard.get("dashcards").get(0);
        assertEquals(new TreeSet<>(List.of("id", "card", "card_id", "dashboard_id", "series", "col", "row", "size_x", "size_y",
                "dashboard_tab_id", "parameter_mappings", "visualization_settings", "action")), keys(dashcard));
        assertFalse(dashcard.get("card").has("collection_id"), "cut-down card: " + dashcard.get("card"));
        assertEquals(Set.of("type", "native"), keys(dashcard.get("card").get("dataset_query")));

        String path = "public/dashboard/" + uuid + "/dashcard/" + f.dashcardId + "/card/" + f.cardId;
        assertEquals(f.reference(null), count(f.anonymous.get(202, path).json()));
        assertEquals(f.reference("Doohickey"), count(f.anonymous.get(202, path, "parameters",
                "[{\"id\":\"cat\",\"value\":\"Doohickey\"}]").json()));
        assertEquals(f.reference("Gizmo"), csvCount(f.anonymous.post(200, path + "/csv",
                Map.of("parameters", "[{\"id\":\"cat\",\"value\":\"Gizmo\"}]")).body()));
        assertEquals(f.reference("Gizmo"), csvCount(f.anonymous.postForm(200, path + "/csv",
                Map.of("parameters", "[{\"id\":\"cat\",\"value\":\"Gizmo\"}]")).body()));
        assertEquals("Not found.", f.anonymous.get(404, "public/dashboard/" + uuid + "/dashcard/" + (f.dashcardId + 999)
                + "/card/" + f.cardId).body());
        assertEquals("An error occurred.", f.anonymous.get(400, "public/dashboard/" + uuid + "/dashcard/x/card/" + f.cardId).body());

        f.user.post(403, "dashboard/" + f.dashboardId + "/public_link", Map.of());
        f.anonymous.post(401, "dashboard/" + f.dashboardId + "/public_link", Map.of());
        f.admin.delete(204, "dashboard/" + f.dashboardId + "/public_link");
        assertEquals("Not found.", f.anonymous.get(404, "public/dashboard/" + uuid).body());
        f.anonymous.get(404, path);
    }

    @Test
    void parameterValuesOfPublicCardsAndDashboards() throws Exception {
        long category = io.quarry.testing.AppDbSql.count(f.server, "SELECT f.id FROM metabase_field f JOIN metabase_table t "
                + "ON t.id = f.table_id WHERE t.db_id = ? AND UPPER(t.name) = 'PRODUCTS' AND UPPER(f.name) = 'CATEGORY'", f.databaseId);
        long products = io.quarry.testing.AppDbSql.count(f.server, "SELECT id FROM metabase_table WHERE db_id = ? "
                + "AND UPPER(name) = 'PRODUCTS'", f.databaseId);
        long card = f.admin.post(200, "card", Map.of("name", "Products", "display", "table", "visualization_settings", Map.of(),
                "collection_id", f.lockedCollection,
                "dataset_query", Map.of("database", f.databaseId, "type", "query", "query", Map.of("source-table", products)),
                "parameters", List.of(
                        Map.of("id", "p-cat", "name", "Category", "slug", "category", "type", "string/=",
                                "target", List.of("dimension", List.of("field", category, Map.of()))),
                        Map.of("id", "p-list", "name", "Size", "slug", "size", "type", "string/=",
                                "values_source_type", "static-list", "values_source_config", Map.of("values", List.of("Small", "Large")),
                                "target", List.of("dimension", List.of("field", category, Map.of())))))).json().get("id").asLong();
        String uuid = f.admin.post(200, "card/" + card + "/public_link", Map.of()).json().get("uuid").asText();
        JsonNode values = f.anonymous.get(200, "public/card/" + uuid + "/params/p-cat/values").json();
        assertEquals("[[\"Doohickey\"],[\"Gadget\"],[\"Gizmo\"],[\"Widget\"]]", values.get("values").toString());
        assertFalse(values.get("has_more_values").asBoolean());
        assertEquals("[[\"Gizmo\"]]", f.anonymous.get(200, "public/card/" + uuid + "/params/p-cat/search/giz").json()
                .get("values").toString());
        assertEquals("[[\"Small\"],[\"Large\"]]", f.anonymous.get(200, "public/card/" + uuid + "/params/p-list/values").json()
                .get("values").toString());
        assertEquals("An error occurred.", f.anonymous.get(400, "public/card/" + uuid + "/params/nope/values").body());
        // rows of the MBQL card, filtered by its parameter
        JsonNode gizmos = f.anonymous.get(202, "public/card/" + uuid + "/query", "parameters",
                "[{\"id\":\"p-cat\",\"value\":[\"Gizmo\"]}]").json();
        assertEquals(products("Gizmo"), gizmos.get("data").get("rows").size());

        long dashboard = f.admin.post(200, "dashboard", Map.of("name", "Products", "parameters",
                List.of(Map.of("id", "d-cat", "name", "Category", "slug", "category", "type", "string/=")))).json().get("id").asLong();
        Map<String, Object> dc = new java.util.LinkedHashMap<>();
        dc.put("id", -1);
        dc.put("card_id", card);
        dc.put("row", 0);
        dc.put("col", 0);
        dc.put("size_x", 4);
        dc.put("size_y", 4);
        dc.put("parameter_mappings", List.of(Map.of("parameter_id", "d-cat", "card_id", card,
                "target", List.of("dimension", List.of("field", category, Map.of())))));
        f.admin.put(200, "dashboard/" + dashboard, Map.of("dashcards", List.of(dc)));
        String dUuid = f.admin.post(200, "dashboard/" + dashboard + "/public_link", Map.of()).json().get("uuid").asText();
        assertEquals("[[\"Doohickey\"],[\"Gadget\"],[\"Gizmo\"],[\"Widget\"]]",
                f.anonymous.get(200, "public/dashboard/" + dUuid + "/params/d-cat/values").json().get("values").toString());
        assertEquals("[[\"Widget\"]]", f.anonymous.get(200, "public/dashboard/" + dUuid + "/params/d-cat/search/wid").json()
                .get("values").toString());
        assertEquals("An error occurred.", f.anonymous.get(400, "public/dashboard/" + dUuid + "/params/nope/values").body());
    }

    @Test
    void pivotQueriesOfPublicCards() {
        long category = io.quarry.testing.AppDbSql.count(f.server, "SELECT f.id FROM metabase_field f JOIN metabase_table t "
                + "ON t.id = f.table_id WHERE t.db_id = ? AND UPPER(t.name) = 'PRODUCTS' AND UPPER(f.name) = 'CATEGORY'", f.databaseId);
        long products = io.quarry.testing.AppDbSql.count(f.server, "SELECT id FROM metabase_table WHERE db_id = ? "
                + "AND UPPER(name) = 'PRODUCTS'", f.databaseId);
        long card = f.admin.post(200, "card", Map.of("name", "Products by category", "display", "pivot", "visualization_settings", Map.of(),
                "collection_id", f.lockedCollection, "dataset_query", Map.of("database", f.databaseId, "type", "query", "query",
                        Map.of("source-table", products, "aggregation", List.of(List.of("count")),
                                "breakout", List.of(List.of("field", category, Map.of())))))).json().get("id").asLong();
        String uuid = f.admin.post(200, "card/" + card + "/public_link", Map.of()).json().get("uuid").asText();
        JsonNode plain = f.anonymous.get(202, "public/card/" + uuid + "/query").json();
        assertEquals(4, plain.get("data").get("rows").size());
        JsonNode pivot = f.anonymous.get(202, "public/pivot/card/" + uuid + "/query").json();
        assertEquals("completed", pivot.get("status").asText(), pivot.toString());
        assertEquals(5, pivot.get("data").get("rows").size(), "four categories and the grand total: " + pivot);
    }

    private static long products(String category) throws Exception {
        try (var c = io.quarry.sample.SampleDatabase.connect(f.sample);
             var s = c.prepareStatement("SELECT COUNT(*) FROM PUBLIC.PRODUCTS WHERE CATEGORY = ?")) {
            s.setString(1, category);
            try (var rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Test
    void paramFieldsListTheFieldsTheCardsParametersFilter() throws Exception {
        long category = io.quarry.testing.AppDbSql.count(f.server, "SELECT f.id FROM metabase_field f JOIN metabase_table t ON t.id = f.table_id "
                + "WHERE t.db_id = ? AND t.name = 'PRODUCTS' AND f.name = 'CATEGORY'", f.databaseId);
        long filtered = f.admin.post(200, "card", Map.of("name", "Orders by a field filter", "display", "scalar", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", f.databaseId, "type", "native", "native", Map.of(
                        "query", "SELECT COUNT(*) FROM ORDERS JOIN PRODUCTS ON PRODUCTS.ID = ORDERS.PRODUCT_ID WHERE {{cat}}",
                        "template-tags", Map.of("cat", Map.of("id", "tag-ff", "name", "cat", "display-name", "Category",
                                "type", "dimension", "dimension", List.of("field", category, Map.of()), "widget-type", "string/="))))))
                .json().get("id").asLong();
        String uuid = f.admin.post(200, "card/" + filtered + "/public_link", Map.of()).json().get("uuid").asText();
        JsonNode fields = f.anonymous.get(200, "public/card/" + uuid).json().get("param_fields");
        assertEquals(Set.of(String.valueOf(category)), keys(fields));
        JsonNode field = fields.get(String.valueOf(category));
        assertEquals(category, field.get("id").asLong());
        assertEquals("CATEGORY", field.get("name").asText());
        assertEquals("type/Text", field.get("base_type").asText());
        assertTrue(field.has("table_id") && field.has("display_name") && field.has("has_field_values"), field.toString());
        assertEquals(f.reference("Gizmo"), count(f.anonymous.get(202, "public/card/" + uuid + "/query",
                "parameters", "[{\"id\":\"tag-ff\",\"type\":\"string/=\",\"value\":[\"Gizmo\"]}]").json()));
        // a text tag filters no field
        assertEquals("{}", f.anonymous.get(200, "public/card/" + share()).json().get("param_fields").toString());
    }

    @Test
    void oembedGivesTheIframeCodeOfALink() {
        String link = "http://127.0.0.1/public/question/" + share();
        JsonNode fixed = f.anonymous.get(200, "public/oembed", "url", link).json();
        assertEquals("1.0", fixed.get("version").asText());
        assertEquals("rich", fixed.get("type").asText());
        assertEquals(1024, fixed.get("width").asInt());
        assertEquals(800, fixed.get("height").asInt());
        assertEquals("<iframe src=\"" + link + "\" width=\"1024\" height=\"800\" frameborder=\"0\" allowtransparency></iframe>",
                fixed.get("html").asText());
        JsonNode sized = f.user.get(200, "public/oembed", "url", link + "?a=1&b=\"<x>", "maxwidth", 600, "maxheight", "400").json();
        assertEquals(600, sized.get("width").asInt());
        assertEquals("<iframe src=\"" + link + "?a=1&amp;b=&quot;&lt;x&gt;\" width=\"600\" height=\"400\" frameborder=\"0\" "
                + "allowtransparency></iframe>", sized.get("html").asText(), "the url cannot break out of its attribute");
        assertEquals("An error occurred.", f.anonymous.get(400, "public/oembed").body());
        assertEquals("An error occurred.", f.anonymous.get(400, "public/oembed", "url", link, "maxwidth", "-5").body());
        assertEquals("An error occurred.", f.anonymous.get(400, "public/oembed", "url", link, "maxheight", "tall").body());
    }
}
