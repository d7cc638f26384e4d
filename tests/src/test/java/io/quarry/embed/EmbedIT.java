package io.quarry.embed;

import static io.quarry.publicsharing.SharingFixture.count;
import static io.quarry.publicsharing.SharingFixture.csvCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Json;
import io.quarry.publicsharing.SharingFixture;
import io.quarry.testing.AppDbSql;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Signed embeds and their admin preview: tokens signed with the right and a wrong key, expired, {@code alg: none},
 * without {@code alg}; the parameter rules (enabled from the URL, locked from the token only, disabled refused) with
 * row counts checked against plain SQL on the Sample Database; the object's and the instance's switches.
 */
class EmbedIT {
    private static final String SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    private static SharingFixture f;

    @BeforeAll
    static void start() throws Exception {
        f = new SharingFixture("embed-sample");
        f.admin.put(204, "setting/embedding-secret-key", Map.of("value", SECRET));
        f.admin.put(204, "setting/enable-embedding-static", Map.of("value", true));
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    @BeforeEach
    void embeddable() {
        f.admin.put(204, "setting/enable-embedding-static", Map.of("value", true));
        f.admin.put(200, "card/" + f.cardId, Map.of("enable_embedding", true, "embedding_params", Map.of("category", "enabled")));
        f.admin.put(200, "dashboard/" + f.dashboardId, Map.of("enable_embedding", true, "embedding_params", Map.of("category", "enabled")));
    }

    private static String sign(Map<String, Object> claims, String secret) {
        var builder = JWT.create().withPayload(claims);
        return builder.sign(Algorithm.HMAC256(secret.getBytes(StandardCharsets.UTF_8)));
    }

    private static String cardToken(Object params) {
        Map<String, Object> claims = new HashMap<>();
        claims.put("resource", Map.of("question", f.cardId));
        claims.put("params", params);
        claims.put("exp", Instant.now().getEpochSecond() + 600);
        return sign(claims, SECRET);
    }

    /** A token with a hand-made header, signed with HMAC-SHA256 (or not at all when {@code signed} is false). */
    private static String rawToken(String header, Map<String, Object> claims, boolean signed) throws Exception {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String content = b64.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "."
                + b64.encodeToString(Json.write(claims).getBytes(StandardCharsets.UTF_8));
        if (!signed) {
            return content + ".";
        }
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return content + "." + b64.encodeToString(mac.doFinal(content.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void tokensAreCheckedForKeyExpiryAndAlgorithm() throws Exception {
        Map<String, Object> claims = Map.of("resource", Map.of("question", f.cardId), "params", Map.of());
        f.anonymous.get(200, "embed/card/" + sign(claims, SECRET));
        assertEquals("Message seems corrupt or manipulated.", f.anonymous.get(400, "embed/card/" + sign(claims,
                "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210")).body());
        Map<String, Object> expired = new HashMap<>(claims);
        expired.put("exp", Instant.now().getEpochSecond() - 120);
        assertTrue(f.anonymous.get(400, "embed/card/" + sign(expired, SECRET)).body().startsWith("Token is expired"));
        Map<String, Object> withinLeeway = new HashMap<>(claims);
        withinLeeway.put("exp", Instant.now().getEpochSecond() - 20);
        f.anonymous.get(200, "embed/card/" + sign(withinLeeway, SECRET));
        assertEquals("JWT `alg` cannot be `none`.", f.anonymous.get(400, "embed/card/"
                + rawToken("{\"alg\":\"none\",\"typ\":\"JWT\"}", claims, false)).body());
        assertEquals("JWT is missing `alg`.", f.anonymous.get(400, "embed/card/"
                + rawToken("{\"typ\":\"JWT\"}", claims, true)).body());
        f.anonymous.get(200, "embed/card/" + rawToken("{\"alg\":\"HS256\",\"typ\":\"JWT\"}", claims, true));
        assertEquals("Message seems corrupt or manipulated.", f.anonymous.get(400, "embed/card/not.a.token").body());
        assertEquals("Token is missing value for keypath [:resource :question]",
                f.anonymous.get(400, "embed/card/" + sign(Map.of("resource", Map.of("dashboard", 1)), SECRET)).body());
        assertEquals("Card id should be a positive integer.",
                f.anonymous.get(400, "embed/card/" + sign(Map.of("resource", Map.of("question", -3)), SECRET)).body());
        assertEquals("Not found.", f.anonymous.get(400, "embed/card/" + sign(Map.of("resource", Map.of("question", 999999)), SECRET)).body());
    }

    @Test
    void enabledParametersFilterFromTheUrl() throws Exception {
        String token = cardToken(Map.of());
        JsonNode card = f.anonymous.get(200, "embed/card/" + token).json();
        assertEquals("enabled", card.get("embedding_params").get("category").asText());
        assertEquals("category", card.get("parameters").get(0).get("slug").asText());
        assertFalse(card.get("dataset_query").has("database"), "cut down as a public card");
        assertEquals(f.reference(null), count(f.anonymous.get(202, "embed/card/" + token + "/query").json()));
        assertEquals(f.reference("Gizmo"), count(f.anonymous.get(202, "embed/card/" + token + "/query", "category", "Gizmo").json()));
        assertEquals(f.reference("Widget"), count(f.anonymous.get(202, "embed/card/" + token + "/query",
                "parameters", "{\"category\":\"Widget\"}").json()));
        assertEquals(f.reference(null), count(f.anonymous.get(202, "embed/card/" + token + "/query", "category", "").json()),
                "an empty value is no value");
        assertEquals(f.reference("Gizmo"), csvCount(f.anonymous.get(200, "embed/card/" + token + "/query/csv", "category", "Gizmo").body()));
        // a value in the token and the URL at once
        assertEquals("You can't specify a value for category if it's already set in the JWT.",
                f.anonymous.get(400, "embed/card/" + cardToken(Map.of("category", "Gizmo")) + "/query", "category", "Widget").body());
        assertEquals("Unknown parameter nope.", f.anonymous.get(400, "embed/card/" + token + "/query", "nope", "1").body());
        // the ordinary user cannot read the card privately; the embed runs it with the card's rights
        f.user.post(403, "card/" + f.cardId + "/query", Map.of());
    }

    @Test
    void lockedParametersComeFromTheTokenOnlyAndDisabledOnesAreRefused() throws Exception {
        f.admin.put(200, "card/" + f.cardId, Map.of("embedding_params", Map.of("category", "locked")));
        String gizmo = cardToken(Map.of("category", "Gizmo"));
        assertEquals(f.reference("Gizmo"), count(f.anonymous.get(202, "embed/card/" + gizmo + "/query").json()));
        assertEquals(0, f.anonymous.get(200, "embed/card/" + gizmo).json().get("parameters").size(), "locked: not shown");
        assertEquals("You can only specify a value for category in the JWT.",
                f.anonymous.get(400, "embed/card/" + gizmo + "/query", "category", "Widget").body());
        assertEquals("You can only specify a value for category in the JWT.",
                f.anonymous.get(400, "embed/card/" + gizmo + "/query", "parameters", "{\"category\":\"Widget\"}").body());
        assertEquals("You must specify a value for category in the JWT.",
                f.anonymous.get(400, "embed/card/" + cardToken(Map.of()) + "/query").body());

        f.admin.put(200, "card/" + f.cardId, Map.of("embedding_params", Map.of("category", "disabled")));
        assertEquals("You're not allowed to specify a value for category.",
                f.anonymous.get(400, "embed/card/" + cardToken(Map.of()) + "/query", "category", "Gizmo").body());
        assertEquals("You're not allowed to specify a value for category.",
                f.anonymous.get(400, "embed/card/" + gizmo + "/query").body());
        assertEquals(f.reference(null), count(f.anonymous.get(202, "embed/card/" + cardToken(Map.of()) + "/query").json()));
    }

    @Test
    void theObjectAndTheInstanceMustAllowEmbedding() {
        String token = cardToken(Map.of());
        f.admin.put(200, "card/" + f.cardId, Map.of("enable_embedding", false));
        assertEquals("Embedding is not enabled for this object.", f.anonymous.get(400, "embed/card/" + token).body());
        assertEquals("Embedding is not enabled for this object.", f.anonymous.get(400, "embed/card/" + token + "/query").body());
        f.admin.put(200, "card/" + f.cardId, Map.of("enable_embedding", true));
        f.admin.put(204, "setting/enable-embedding-static", Map.of("value", false));
        assertEquals("Embedding is not enabled.", f.anonymous.get(400, "embed/card/" + token).body());
        assertEquals("Embedding is not enabled.", f.admin.get(400, "preview_embed/card/" + token).body());
    }

    @Test
    void previewIsForAdminsIgnoresTheObjectsFlagAndReadsTheRulesFromTheToken() throws Exception {
        f.admin.put(200, "card/" + f.cardId, Map.of("enable_embedding", false));
        Map<String, Object> claims = new HashMap<>();
        claims.put("resource", Map.of("question", f.cardId));
        claims.put("params", Map.of("category", "Gadget"));
        claims.put("_embedding_params", Map.of("category", "locked"));
        String token = sign(claims, SECRET);
        for (String base : List.of("preview_embed", "preview-embed")) {
            assertEquals(f.reference("Gadget"), count(f.admin.get(202, base + "/card/" + token + "/query").json()), base);
            f.admin.get(200, base + "/card/" + token);
            assertEquals("You can only specify a value for category in the JWT.",
                    f.admin.get(400, base + "/card/" + token + "/query", "category", "Widget").body());
            f.user.get(403, base + "/card/" + token);
            f.anonymous.get(401, base + "/card/" + token);
            assertEquals("Token is missing value for keypath [:_embedding_params]", f.admin.get(400, base + "/card/"
                    + sign(Map.of("resource", Map.of("question", f.cardId)), SECRET)).body());
            f.admin.get(404, base + "/card/" + sign(Map.of("resource", Map.of("question", 999999), "_embedding_params", Map.of()), SECRET));
        }
    }

    @Test
    void embeddedDashboardsRunTheirDashcardsWithTheTokensAndTheUrlsValues() throws Exception {
        String token = sign(Map.of("resource", Map.of("dashboard", f.dashboardId), "params", Map.of()), SECRET);
        JsonNode dashboard = f.anonymous.get(200, "embed/dashboard/" + token).json();
        assertEquals("category", dashboard.get("parameters").get(0).get("slug").asText());
        assertEquals(1, dashboard.get("dashcards").get(0).get("parameter_mappings").size());
        String path = "embed/dashboard/" + token + "/dashcard/" + f.dashcardId + "/card/" + f.cardId;
        assertEquals(f.reference(null), count(f.anonymous.get(202, path).json()));
        assertEquals(f.reference("Gizmo"), count(f.anonymous.get(202, path, "category", "Gizmo").json()));
        assertEquals(f.reference("Gizmo"), csvCount(f.anonymous.get(200, path + "/csv", "category", "Gizmo").body()));
        assertEquals("Invalid field: dashcard-id", f.anonymous.get(400, "embed/dashboard/" + token + "/dashcard/x/card/" + f.cardId).body());

        f.admin.put(200, "dashboard/" + f.dashboardId, Map.of("embedding_params", Map.of("category", "locked")));
        String locked = sign(Map.of("resource", Map.of("dashboard", f.dashboardId), "params", Map.of("category", "Widget")), SECRET);
        assertEquals(0, f.anonymous.get(200, "embed/dashboard/" + locked).json().get("parameters").size());
        assertEquals(0, f.anonymous.get(200, "embed/dashboard/" + locked).json().get("dashcards").get(0).get("parameter_mappings").size());
        String lockedPath = "embed/dashboard/" + locked + "/dashcard/" + f.dashcardId + "/card/" + f.cardId;
        assertEquals(f.reference("Widget"), count(f.anonymous.get(202, lockedPath).json()));
        assertEquals("You can only specify a value for category in the JWT.", f.anonymous.get(400, lockedPath, "category", "Gizmo").body());
        assertEquals("Token is missing value for keypath [:resource :dashboard]",
                f.anonymous.get(400, "embed/dashboard/" + sign(Map.of("resource", Map.of("question", 1)), SECRET)).body());
        f.admin.put(200, "dashboard/" + f.dashboardId, Map.of("enable_embedding", false));
        assertEquals("Embedding is not enabled for this object.", f.anonymous.get(400, "embed/dashboard/" + locked).body());
    }

    @Test
    void parameterValuesOnlyForEnabledParametersTheTokenDoesNotSet() {
        f.admin.put(200, "card/" + f.cardId, Map.of("embedding_params", Map.of("category", "enabled")));
        String open = cardToken(Map.of());
        // a text tag filters no field: no values, but the call is allowed
        assertEquals("[]", f.anonymous.get(200, "embed/card/" + open + "/params/tag-cat/values").json().get("values").toString());
        assertEquals("Cannot search for values: \"category\" is not an enabled parameter.",
                f.anonymous.get(400, "embed/card/" + cardToken(Map.of("category", "Gizmo")) + "/params/tag-cat/values").body());
        f.admin.put(200, "card/" + f.cardId, Map.of("embedding_params", Map.of("category", "locked")));
        assertEquals("Cannot search for values: \"category\" is not an enabled parameter.",
                f.anonymous.get(400, "embed/card/" + cardToken(Map.of("category", "Gizmo")) + "/params/tag-cat/search/G").body());
        String dashboard = sign(Map.of("resource", Map.of("dashboard", f.dashboardId), "params", Map.of()), SECRET);
        f.admin.put(200, "dashboard/" + f.dashboardId, Map.of("embedding_params", Map.of("category", "disabled")));
        assertEquals("Cannot search for values: \"category\" is not an enabled parameter.",
                f.anonymous.get(400, "embed/dashboard/" + dashboard + "/params/cat/values").body());
    }

    @Test
    void previewsShowAtMost2000RowsEmbedsAndDownloadsTheUsualLimits() throws Exception {
        long all = f.reference(null);
        assertTrue(all > 2000, "the sample has more orders than a preview shows");
        long big = f.admin.post(200, "card", Map.of("name", "Every order", "display", "table", "visualization_settings", Map.of(),
                "enable_embedding", true, "embedding_params", Map.of(),
                "dataset_query", Map.of("database", f.databaseId, "type", "native", "native", Map.of("query", "SELECT ID FROM ORDERS"))))
                .json().get("id").asLong();
        f.admin.put(200, "card/" + big, Map.of("enable_embedding", true, "embedding_params", Map.of()));
        long dashboard = f.admin.post(200, "dashboard", Map.of("name", "Every order")).json().get("id").asLong();
        Map<String, Object> dc = new HashMap<>(Map.of("id", -1, "card_id", big, "row", 0, "col", 0, "size_x", 4, "size_y", 4));
        long dashcard = f.admin.put(200, "dashboard/" + dashboard, Map.of("dashcards", List.of(dc))).json()
                .get("dashcards").get(0).get("id").asLong();
        f.admin.put(200, "dashboard/" + dashboard, Map.of("enable_embedding", true, "embedding_params", Map.of()));

        String card = sign(Map.of("resource", Map.of("question", big), "params", Map.of(), "_embedding_params", Map.of()), SECRET);
        String dash = sign(Map.of("resource", Map.of("dashboard", dashboard), "params", Map.of(), "_embedding_params", Map.of()), SECRET);
        String dashcardPath = "/dashcard/" + dashcard + "/card/" + big;
        for (String base : List.of("preview_embed", "preview-embed")) {
            assertEquals(2000, f.admin.get(202, base + "/card/" + card + "/query").json().get("data").get("rows").size(), base);
            assertEquals(2000, f.admin.get(202, base + "/dashboard/" + dash + dashcardPath).json().get("data").get("rows").size(), base);
        }
        // embeds keep the API's row limit (here raised above 2,000, so the cap is the preview's own)
        f.admin.put(204, "setting/unaggregated-query-row-limit", Map.of("value", 5000));
        try {
            for (String base : List.of("preview_embed", "preview-embed")) {
                assertEquals(2000, f.admin.get(202, base + "/card/" + card + "/query").json().get("data").get("rows").size(), base);
                assertEquals(2000, f.admin.get(202, base + "/dashboard/" + dash + dashcardPath).json().get("data").get("rows").size());
            }
            long embedded = f.anonymous.get(202, "embed/card/" + card + "/query").json().get("data").get("rows").size();
            assertEquals(Math.min(all, 5000), embedded);
            assertEquals(embedded, f.anonymous.get(202, "embed/dashboard/" + dash + dashcardPath).json().get("data").get("rows").size());
        } finally {
            f.admin.put(204, "setting/unaggregated-query-row-limit", Map.of("value", 2000));
        }
        assertEquals(all + 1, f.anonymous.get(200, "embed/card/" + card + "/query/csv").body().lines().count(),
                "downloads are not capped");
    }

    @Test
    void tokensMayNameTheObjectByItsEntityId() throws Exception {
        String cardEntity = f.admin.get(200, "card/" + f.cardId).json().get("entity_id").asText();
        String dashboardEntity = f.admin.get(200, "dashboard/" + f.dashboardId).json().get("entity_id").asText();
        assertEquals(21, cardEntity.length());
        String card = sign(Map.of("resource", Map.of("question", cardEntity), "params", Map.of()), SECRET);
        assertEquals(f.cardId, f.anonymous.get(200, "embed/card/" + card).json().get("id").asLong());
        assertEquals(f.reference("Gizmo"), count(f.anonymous.get(202, "embed/card/" + card + "/query", "category", "Gizmo").json()));
        String dashboard = sign(Map.of("resource", Map.of("dashboard", dashboardEntity), "params", Map.of()), SECRET);
        assertEquals(f.dashboardId, f.anonymous.get(200, "embed/dashboard/" + dashboard).json().get("id").asLong());
        assertEquals(f.reference(null), count(f.anonymous.get(202, "embed/dashboard/" + dashboard + "/dashcard/" + f.dashcardId
                + "/card/" + f.cardId).json()));
        // the preview reads the same ids
        String preview = sign(Map.of("resource", Map.of("question", cardEntity), "_embedding_params", Map.of()), SECRET);
        assertEquals(f.cardId, f.admin.get(200, "preview_embed/card/" + preview).json().get("id").asLong());

        String unknown = sign(Map.of("resource", Map.of("question", "AAAAAAAAAAAAAAAAAAAAA")), SECRET);
        assertEquals("Not found.", f.anonymous.get(400, "embed/card/" + unknown).body());
        f.admin.get(404, "preview_embed/card/" + sign(Map.of("resource", Map.of("question", "AAAAAAAAAAAAAAAAAAAAA"),
                "_embedding_params", Map.of()), SECRET));
        assertEquals("Card id should be a positive integer.",
                f.anonymous.get(400, "embed/card/" + sign(Map.of("resource", Map.of("question", "short")), SECRET)).body());
        assertEquals("Dashboard id should be a positive integer.", f.anonymous.get(400, "embed/dashboard/"
                + sign(Map.of("resource", Map.of("dashboard", cardEntity + "x")), SECRET)).body());

        // a lookup by entity_id is one index seek, not a pass over every card or dashboard
        assertEquals(List.of("entity_id"), AppDbSql.indexes(f.server, "report_card").get("idx_card_entity_id"));
        assertEquals(List.of("entity_id"), AppDbSql.indexes(f.server, "report_dashboard").get("idx_dashboard_entity_id"));
    }

    @Test
    void theTokensValuesAreWrittenIntoTextCards() {
        long dashboard = f.admin.post(200, "dashboard", Map.of("name", "With a text card", "parameters",
                List.of(Map.of("id", "cat", "name", "Category", "slug", "category", "type", "category"),
                        Map.of("id", "st", "name", "State", "slug", "state", "type", "category")))).json().get("id").asLong();
        Map<String, Object> text = new HashMap<>();
        text.put("id", -1);
        text.put("card_id", null);
        text.put("row", 0);
        text.put("col", 0);
        text.put("size_x", 4);
        text.put("size_y", 2);
        text.put("visualization_settings", Map.of("virtual_card", Map.of("display", "text", "name", "", "dataset_query", Map.of(),
                "visualization_settings", Map.of()), "text", "Orders of {{cat}} in {{ st }}"));
        text.put("parameter_mappings", List.of(Map.of("parameter_id", "cat", "target", List.of("text-tag", "cat")),
                Map.of("parameter_id", "st", "target", List.of("text-tag", "st"))));
        f.admin.put(200, "dashboard/" + dashboard, Map.of("dashcards", List.of(text)));
        f.admin.put(200, "dashboard/" + dashboard, Map.of("enable_embedding", true,
                "embedding_params", Map.of("category", "locked", "state", "enabled")));
        String token = sign(Map.of("resource", Map.of("dashboard", dashboard), "params", Map.of("category", List.of("Widget", "Gadget"))), SECRET);
        JsonNode shown = f.anonymous.get(200, "embed/dashboard/" + token).json().get("dashcards").get(0);
        assertEquals("Orders of Widget and Gadget in {{ st }}", shown.get("visualization_settings").get("text").asText(),
                "the token's value is filled in; a parameter the token does not set stays a tag");
        assertEquals(1, shown.get("parameter_mappings").size(), "the locked parameter's mapping is dropped");
        String preview = sign(Map.of("resource", Map.of("dashboard", dashboard), "params", Map.of("state", "*NY*"),
                "_embedding_params", Map.of("state", "locked")), SECRET);
        assertEquals("Orders of {{cat}} in \\*NY\\*", f.admin.get(200, "preview_embed/dashboard/" + preview).json()
                .get("dashcards").get(0).get("visualization_settings").get("text").asText(), "previews too, Markdown escaped");
        // the stored card is unchanged
        assertEquals("Orders of {{cat}} in {{ st }}", f.admin.get(200, "dashboard/" + dashboard).json().get("dashcards").get(0)
                .get("visualization_settings").get("text").asText());
    }
}
