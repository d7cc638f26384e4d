package io.quarry.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/pulse/preview_card/:id}, {@code /preview_card_info/:id} and {@code /preview_card_png/:id}: a card run
 * through the runner as the caller and rendered as in an e-mail, for an administrator, an ordinary user with and without
 * rights on the card's collection, and anonymous callers.
 */
class PreviewCardIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api ordinary;
    private static String adminSession;
    private static long barCard;
    private static long tableCard;
    private static long privateCard;
    private static long brokenCard;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        adminSession = Fixtures.setUp(anonymous);
        admin = anonymous.as(adminSession);
        ordinary = Fixtures.ordinaryCaller(anonymous, admin);
        Path shop = TargetDatabases.h2Shop();
        long db = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", Map.of("db", "file:" + shop, "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(db).get();
        barCard = card(db, "Sales <b>by</b> category", "bar",
                "SELECT CATEGORY, SUM(TOTAL) AS TOTAL FROM ORDERS GROUP BY CATEGORY ORDER BY CATEGORY",
                Map.of("series_settings", Map.of("TOTAL", Map.of("color", "#E03A3A"))), null);
        tableCard = card(db, "Orders", "table", "SELECT ID, TOTAL, CATEGORY FROM ORDERS ORDER BY ID", Map.of(), null);
        long secret = admin.post(200, "collection", Map.of("name", "Secret")).json().get("id").asLong();
        long revision = admin.get(200, "collection/graph").json().get("revision").asLong();
        admin.put(200, "collection/graph", Map.of("revision", revision, "groups", Map.of("1", Map.of(String.valueOf(secret), "none"))));
        privateCard = card(db, "Private", "bar", "SELECT CATEGORY, COUNT(*) AS N FROM ORDERS GROUP BY CATEGORY", Map.of(), secret);
        brokenCard = card(db, "Broken", "line", "SELECT NO_SUCH_COLUMN FROM ORDERS", Map.of(), null);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long card(long db, String name, String display, String sql, Map<String, Object> settings, Long collection) {
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("name", name);
        card.put("display", display);
        card.put("visualization_settings", settings);
        card.put("dataset_query", Map.of("database", db, "type", "native", "native", Map.of("query", sql)));
        if (collection != null) {
            card.put("collection_id", collection);
        }
        return admin.post(200, "card", card).json().get("id").asLong();
    }

    private static HttpResponse<byte[]> png(String path, String session) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.base.resolve("api/" + path)).GET();
        if (session != null) {
            request.header("X-Metabase-Session", session);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static int pixelsOf(BufferedImage image, Color color) {
        int count = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) == (color.getRGB() & 0xFFFFFF)) {
                    count++;
                }
            }
        }
        return count;
    }

    @Test
    void previewIsAnHtmlPageWithTheChartInlineAndTheTitleEscaped() {
        Api.Res page = admin.get(200, "pulse/preview_card/" + barCard);
        assertTrue(page.header("Content-Type").startsWith("text/html"), page.header("Content-Type"));
        assertTrue(page.body().startsWith("<!DOCTYPE html>"));
        assertTrue(page.body().contains("<img src=\"data:image/png;base64,"), "a browser cannot show cid: images");
        assertFalse(page.body().contains("cid:"));
        assertTrue(page.body().contains("Sales &lt;b&gt;by&lt;/b&gt; category"));
        assertFalse(page.body().contains("<b>by</b>"));
        assertTrue(page.body().contains("/question/" + barCard + "\""), "the title links to the card");

        String table = admin.get(200, "pulse/preview_card/" + tableCard).body();
        assertTrue(table.contains(">Widget</td>") && table.contains(">10.5</td>"), table);
    }

    @Test
    void infoIsMetabasesJson() {
        JsonNode bar = admin.get(200, "pulse/preview_card_info/" + barCard).json();
        assertEquals(barCard, bar.get("id").asLong());
        assertEquals("javascript_visualization", bar.get("pulse_card_type").asText());
        assertEquals("Sales <b>by</b> category", bar.get("pulse_card_name").asText());
        assertTrue(bar.get("pulse_card_url").asText().endsWith("/question/" + barCard), bar.toString());
        assertTrue(bar.get("pulse_card_html").asText().contains("data:image/png;base64,"));
        assertEquals(2, bar.get("row_count").asInt());
        assertEquals(2, bar.get("col_count").asInt());

        JsonNode table = admin.get(200, "pulse/preview_card_info/" + tableCard).json();
        assertEquals("table", table.get("pulse_card_type").asText());
        assertEquals(3, table.get("row_count").asInt());
        assertEquals(3, table.get("col_count").asInt());
    }

    @Test
    void pngIsTheChartInTheCardsColours() throws Exception {
        HttpResponse<byte[]> response = png("pulse/preview_card_png/" + barCard, adminSession);
        assertEquals(200, response.statusCode());
        assertEquals("image/png", response.headers().firstValue("Content-Type").orElse(""));
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(response.body()));
        assertNotNull(image);
        assertEquals(400, image.getWidth(), "Metabase's default preview width");
        assertTrue(pixelsOf(image, new Color(0xE03A3A)) > 1000, "the series colour from series_settings");

        BufferedImage wide = ImageIO.read(new ByteArrayInputStream(png("pulse/preview_card_png/" + barCard + "?width=700",
                adminSession).body()));
        assertEquals(700, wide.getWidth());
        BufferedImage table = ImageIO.read(new ByteArrayInputStream(png("pulse/preview_card_png/" + tableCard, adminSession).body()));
        assertEquals(400, table.getWidth());

        JsonNode bad = admin.get(400, "pulse/preview_card_png/" + barCard, "width", "wide").json();
        assertTrue(bad.get("errors").has("width"), bad.toString());
    }

    @Test
    void rightsFollowTheCardsCollection() throws Exception {
        for (String path : List.of("pulse/preview_card/", "pulse/preview_card_info/", "pulse/preview_card_png/")) {
            anonymous.get(401, path + barCard);
            ordinary.get(403, path + privateCard);
            ordinary.get(200, path + barCard);
            admin.get(200, path + privateCard);
            admin.get(404, path + 999999);
            admin.get(400, path + "abc");
        }
    }

    @Test
    void aFailingQueryRendersAsMetabasesErrorCard() throws Exception {
        String page = admin.get(200, "pulse/preview_card/" + brokenCard).body();
        assertTrue(page.contains("There was a problem with this question."), page);
        assertFalse(page.contains("NO_SUCH_COLUMN"), "the database's message is not shown in a rendering");
        JsonNode info = admin.get(200, "pulse/preview_card_info/" + brokenCard).json();
        assertTrue(info.get("pulse_card_html").asText().contains("There was a problem with this question."));
        HttpResponse<byte[]> response = png("pulse/preview_card_png/" + brokenCard, adminSession);
        assertEquals(200, response.statusCode());
        assertNotNull(ImageIO.read(new ByteArrayInputStream(response.body())));
    }

    @Test
    void aPreviewIsNoView() {
        int before = admin.get(200, "card/" + tableCard, "ignore_view", "true").json().get("view_count").asInt();
        admin.get(200, "pulse/preview_card_info/" + tableCard);
        assertEquals(before, admin.get(200, "card/" + tableCard, "ignore_view", "true").json().get("view_count").asInt());
    }
}
