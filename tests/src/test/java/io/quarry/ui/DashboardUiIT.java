package io.quarry.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.Mailbox;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * Dashboards, collections and sharing in a real headless Chromium against Quarry under {@code /quarry}: a dashboard built
 * in the browser with two saved questions, text cards, a second tab and a filter; cards dragged and resized with the mouse
 * and the keyboard (positions checked over the API); view mode with the filter; pin, move, trash and restore in a
 * collection; bookmarks and typed search; a public link opened without a session; an e-mail subscription sent for real
 * (GreenMail); an alert; the phone-width layout. The steps build on each other and run in order on one browser.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardUiIT {
    private static final String SECRET = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";
    private static final String NASTY = "<img src=x onerror=\"document.title='pwned'\">";

    private static Mailbox mailbox;
    private static TestServer server;
    private static Browser chrome;
    private static Api admin;
    private static long databaseId;
    private static long ordersCard;
    private static long countCard;
    private static long team;
    private static long dashboardId;

    @RegisterExtension
    final TestWatcher failureShots = Browser.failureShots(() -> chrome);

    @BeforeAll
    static void start() throws Exception {
        mailbox = new Mailbox();
        server = Browser.quarryUnderContextPath(mailbox);
        Api anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        Path sample = SampleDatabase.ensure(Path.of("target", "dashui-sample").toAbsolutePath());
        databaseId = admin.post(200, "database", Map.of("engine", "h2", "name", "Sample Database", "details",
                Map.of("db", "file:" + sample + ";ACCESS_MODE_DATA=r", "user", SampleDatabase.USER, "password", SampleDatabase.PASSWORD)))
                .json().get("id").asLong();
        server.quarry().sync.syncInBackground(databaseId).get();
        Map<String, Object> tag = Map.of("category", Map.of("id", "tag-cat", "name", "category", "display-name", "Category", "type", "text"));
        ordersCard = card("Orders by category", "bar", "SELECT p.CATEGORY, COUNT(*) AS N FROM ORDERS o JOIN PRODUCTS p ON p.ID = o.PRODUCT_ID "
                + "[[WHERE p.CATEGORY = {{category}}]] GROUP BY p.CATEGORY ORDER BY p.CATEGORY", tag);
        countCard = card("Product count", "scalar", "SELECT COUNT(*) AS N FROM PRODUCTS [[WHERE CATEGORY = {{category}}]]", tag);
        team = admin.post(200, "collection", Map.of("name", "Team")).json().get("id").asLong();
        admin.put(204, "setting/enable-embedding-static", Map.of("value", true));
        admin.put(204, "setting/embedding-secret-key", Map.of("value", SECRET));

        chrome = Browser.open(server.base);
        signIn();
    }

    private static long card(String name, String display, String sql, Map<String, Object> tags) {
        return admin.post(200, "card", Map.of("name", name, "display", display, "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", databaseId, "type", "native", "native", Map.of("query", sql, "template-tags", tags))))
                .json().get("id").asLong();
    }

    private static void signIn() {
        chrome.signIn(Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD);
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Hello, Crowberto"));
    }

    @AfterAll
    static void stop() throws Exception {
        Browser.closeAll(chrome, server, mailbox);
    }

    private static WebElement button(String text) {
        return chrome.wait.until(ExpectedConditions.elementToBeClickable(By.xpath("//button[normalize-space(.)='" + text + "']")));
    }

    private static WebElement labelled(String label) {
        return chrome.wait.until(ExpectedConditions.elementToBeClickable(By.xpath("//button[@aria-label='" + label + "'] | //a[@aria-label='" + label + "']")));
    }

    private static WebElement dashcard(String name) {
        return chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".dashcard[aria-label^='" + name + "']")));
    }

    private static JsonNode dashcardOf(JsonNode dashboard, long cardId) {
        for (JsonNode dc : dashboard.get("dashcards")) {
            if (dc.get("card_id").asLong() == cardId) {
                return dc;
            }
        }
        throw new AssertionError("no dashcard for card " + cardId + ": " + dashboard);
    }

    private static List<JsonNode> textCards(JsonNode dashboard) {
        List<JsonNode> out = new java.util.ArrayList<>();
        dashboard.get("dashcards").forEach(dc -> {
            if (dc.get("card_id").isNull()) {
                out.add(dc);
            }
        });
        return out;
    }

    @Test
    @Order(1)
    void buildsADashboardWithTwoQuestionsTextCardsASecondTabAndAFilter() throws IOException {
        chrome.go("dashboard/new");
        chrome.fill("dashboard-name", "Sales");
        new Select(chrome.driver.findElement(By.name("card"))).selectByVisibleText("Orders by category");
        chrome.driver.findElement(By.cssSelector("button[type=submit]")).click();
        chrome.wait.until(ExpectedConditions.urlMatches("/quarry/dashboard/\\d+$"));
        dashboardId = Long.parseLong(chrome.driver.getCurrentUrl().replaceAll(".*/", ""));
        chrome.wait.until(ExpectedConditions.attributeToBe(By.cssSelector(".dashcard"), "data-rows", "4"));

        button("Edit").click();
        Select add = new Select(chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("select[name=add-card] option[value='" + countCard + "']")))
                .findElement(By.xpath("..")));
        add.selectByVisibleText("Product count");
        button("Add").click();
        dashcard("Product count");
        button("Add a text card").click();
        WebElement text = chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.name("text-card")));
        text.sendKeys("# Notes\nOrders **per category**, see [the docs](https://www.metabase.com/docs).\n" + NASTY);

        button("Add a filter").click();
        chrome.fill("filter-name", "Category");
        assertEquals("Category", new Select(chrome.driver.findElement(By.name("wire-" + dashcardIdOnPage("Orders by category")))).getFirstSelectedOption().getText());
        button("Save the filter").click();
        chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.name("filter-category")));

        button("Add a tab").click();
        chrome.fill("tab-name", "Details");
        button("Add a text card").click();
        chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.name("text-card"))).sendKeys("Second tab: *details* come here.");
        chrome.driver.findElement(By.xpath("//button[@role='tab'][.='Tab 1']")).click();
        dashcard("Product count");
        chrome.shot("dash-01-edit");
        button("Save").click();
        chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".dash-page[data-saved]")));

        JsonNode saved = admin.get(200, "dashboard/" + dashboardId).json();
        assertEquals(2, saved.get("tabs").size(), saved.toString());
        assertEquals("Details", saved.get("tabs").get(1).get("name").asText());
        assertEquals(4, saved.get("dashcards").size(), "two questions and two text cards");
        assertEquals(1, saved.get("parameters").size());
        String parameter = saved.get("parameters").get(0).get("id").asText();
        for (long card : List.of(ordersCard, countCard)) {
            JsonNode mapping = dashcardOf(saved, card).get("parameter_mappings").get(0);
            assertEquals(parameter, mapping.get("parameter_id").asText());
            assertEquals("[\"variable\",[\"template-tag\",\"category\"]]", mapping.get("target").toString());
            assertEquals(saved.get("tabs").get(0).get("id").asLong(), dashcardOf(saved, card).get("dashboard_tab_id").asLong());
        }
        List<JsonNode> texts = textCards(saved);
        assertEquals(2, texts.size());
        assertTrue(texts.stream().anyMatch(t -> t.get("visualization_settings").get("text").asText().contains(NASTY)));
        assertTrue(texts.stream().anyMatch(t -> t.get("dashboard_tab_id").asLong() == saved.get("tabs").get(1).get("id").asLong()));

        // the text card renders its markup as elements, and the HTML in it as text
        WebElement textCard = chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".dashcard.text")));
        assertEquals("Notes", textCard.findElement(By.tagName("h3")).getText());
        assertEquals("per category", textCard.findElement(By.tagName("strong")).getText());
        assertEquals("https://www.metabase.com/docs", textCard.findElement(By.tagName("a")).getAttribute("href"));
        assertTrue(textCard.getText().contains("<img src=x"), textCard.getText());
        assertTrue(chrome.driver.findElements(By.cssSelector(".dashcard img")).isEmpty(), "no element made from the card's text");
        assertFalse(chrome.driver.getTitle().contains("pwned"));
    }

    private static String dashcardIdOnPage(String name) {
        return dashcard(name).getAttribute("data-dashcard");
    }

    @Test
    @Order(2)
    void dragsOneCardResizesAnotherAndMovesTheTextWithTheKeyboard() throws IOException {
        JsonNode before = admin.get(200, "dashboard/" + dashboardId).json();
        JsonNode orders = dashcardOf(before, ordersCard);
        JsonNode count = dashcardOf(before, countCard);
        JsonNode text = textCards(before).stream().filter(t -> t.get("dashboard_tab_id").asLong() == before.get("tabs").get(0).get("id").asLong())
                .findFirst().orElseThrow();
        assertEquals(0, orders.get("col").asInt());

        button("Edit").click();
        double colStep = ((Number) chrome.script("const r = document.querySelector('.dashboard-grid').getBoundingClientRect(); return (r.width + 10) / 24;"))
                .doubleValue();
        WebElement handle = dashcard("Orders by category").findElement(By.cssSelector(".drag-handle"));
        int dx = (int) Math.round(6 * colStep);
        new Actions(chrome.driver).clickAndHold(handle).moveByOffset(dx / 2, 0).moveByOffset(dx - dx / 2, 0).release().perform();
        WebElement resize = dashcard("Product count").findElement(By.cssSelector(".resize-handle"));
        chrome.script("arguments[0].scrollIntoView({block: 'center'})", resize);
        int rx = (int) Math.round(3 * colStep);
        new Actions(chrome.driver).clickAndHold(resize).moveByOffset(rx / 2, 33).moveByOffset(rx - rx / 2, 99).release().perform();
        assertEquals("6", dashcard("Orders by category").getAttribute("data-col"));

        // the keyboard: two steps right, one row taller
        WebElement textBox = dashcard("Text card");
        textBox.click();
        chrome.script("arguments[0].focus()", textBox);
        textBox.sendKeys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT);
        textBox.sendKeys(Keys.chord(Keys.SHIFT, Keys.ARROW_DOWN));
        assertTrue(chrome.text("[data-announce]").contains("column 3"), chrome.text("[data-announce]"));
        chrome.shot("dash-02-dragged");
        button("Save").click();
        chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".dash-page:not(.editing) .dashcard[data-rows]")));

        JsonNode after = admin.get(200, "dashboard/" + dashboardId).json();
        JsonNode orders2 = dashcardOf(after, ordersCard);
        assertEquals(6, orders2.get("col").asInt(), "dragged six columns right: " + orders2);
        assertEquals(orders.get("row").asInt(), orders2.get("row").asInt());
        assertEquals(orders.get("size_x").asInt(), orders2.get("size_x").asInt(), "a move keeps the size");
        JsonNode count2 = dashcardOf(after, countCard);
        assertEquals(count.get("size_x").asInt() + 3, count2.get("size_x").asInt(), "three columns wider: " + count2);
        assertEquals(count.get("size_y").asInt() + 2, count2.get("size_y").asInt(), "two rows taller: " + count2);
        assertEquals(count.get("col").asInt(), count2.get("col").asInt(), "a resize keeps the place");
        JsonNode text2 = textCards(after).stream().filter(t -> t.get("id").asLong() == text.get("id").asLong()).findFirst().orElseThrow();
        assertEquals(text.get("col").asInt() + 2, text2.get("col").asInt(), "two steps right: " + text2);
        assertEquals(text.get("size_y").asInt() + 1, text2.get("size_y").asInt(), "one row taller: " + text2);
    }

    @Test
    @Order(3)
    void viewModeWithTheFilterChangesTheNumbersAndOffersFullscreenAndRefresh() throws IOException {
        chrome.go("dashboard/" + dashboardId);
        WebElement value = chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".dashcard .scalar .value")));
        assertEquals("200", value.getText(), "all products");
        chrome.wait.until(ExpectedConditions.attributeToBe(dashcard("Orders by category"), "data-rows", "4"));
        long gizmos = admin.post(202, "dataset", Map.of("database", databaseId, "type", "native", "native",
                Map.of("query", "SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Gizmo'"))).json().get("data").get("rows").get(0).get(0).asLong();
        chrome.fill("filter-category", "Gizmo");
        chrome.driver.findElement(By.name("filter-category")).sendKeys(Keys.ENTER);
        chrome.wait.until(ExpectedConditions.attributeToBe(dashcard("Orders by category"), "data-rows", "1"));
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".dashcard .scalar .value"), String.valueOf(gizmos)));
        assertNotEquals(200, gizmos);
        chrome.wait.until(ExpectedConditions.urlContains("category=Gizmo"));
        chrome.shot("dash-03-view-filtered");

        // the second tab
        chrome.driver.findElement(By.xpath("//button[@role='tab'][.='Details']")).click();
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".dashcard.text"), "Second tab"));
        assertEquals("details", chrome.text(".dashcard.text em"));
        chrome.driver.findElement(By.xpath("//button[@role='tab'][.='Tab 1']")).click();

        new Select(chrome.driver.findElement(By.name("auto-refresh"))).selectByValue("5");
        assertEquals("5", chrome.driver.findElement(By.cssSelector(".dash-page")).getAttribute("data-refresh"));
        button("Fullscreen").click();
        chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".dash-page.fullscreen")));
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".dashcard .scalar .value"), String.valueOf(gizmos)));
        chrome.shot("dash-04-fullscreen");
        button("Exit fullscreen").click();
        chrome.wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(".dash-page.fullscreen"), 0));

        button("Bookmark").click();
        button("Bookmarked");
        assertEquals(1, admin.get(200, "bookmark").json().size());
    }

    @Test
    @Order(4)
    void pinsMovesTrashesAndRestoresAQuestionAndSearchesByType() throws IOException {
        chrome.go("");
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("h-bookmarks"), "Bookmarks"));
        assertTrue(chrome.text("section[aria-labelledby=h-bookmarks]").contains("Sales"));
        assertTrue(chrome.text("section[aria-labelledby=h-recent]").contains("Product count"));
        // ask in plain words: the assistant (offline here) writes the SQL, the answer is run and shown
        chrome.fill("ask", "How many products are there?");
        chrome.driver.findElement(By.cssSelector(".ask-form button[type=submit]")).click();
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".ask-result"), "200"));
        chrome.shot("dash-05-home");

        chrome.go("collection/root");
        labelled("Pin Product count").click();
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("section.pinned"), "Product count"));
        assertEquals(1, admin.get(200, "card/" + countCard).json().get("collection_position").asInt());
        chrome.shot("dash-06-collection-pinned");

        labelled("Move Product count").click();
        new Select(chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.name("move-to")))).selectByVisibleText("Team");
        button("Move here").click();
        chrome.wait.until(d -> admin.get(200, "card/" + countCard).json().get("collection_id").asLong() == team);
        chrome.wait.until(ExpectedConditions.numberOfElementsToBe(By.xpath("//main//a[.='Product count']"), 0));

        chrome.go("collection/" + team);
        labelled("Move Product count to the trash").click();
        chrome.wait.until(d -> admin.get(200, "card/" + countCard).json().get("archived").asBoolean());
        chrome.go("trash");
        button("Restore Product count").click();
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("main"), "The trash is empty."));
        JsonNode restored = admin.get(200, "card/" + countCard).json();
        assertFalse(restored.get("archived").asBoolean());
        assertEquals(team, restored.get("collection_id").asLong(), "restored where it was");

        chrome.go("search?q=count");
        chrome.wait.until(ExpectedConditions.elementToBeClickable(By.linkText("Product count")));
        chrome.driver.findElement(By.xpath("//fieldset[contains(@class,'type-filter')]//label[normalize-space(.)='Dashboards']")).click();
        chrome.wait.until(ExpectedConditions.urlContains("type=dashboard"));
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("section[aria-label=Results]"), "Nothing matches."));
        chrome.driver.findElement(By.xpath("//fieldset[contains(@class,'type-filter')]//label[normalize-space(.)='Questions']")).click();
        chrome.wait.until(ExpectedConditions.elementToBeClickable(By.linkText("Product count")));
        chrome.shot("dash-07-search");
    }

    @Test
    @Order(5)
    void aPublicLinkShowsTheDashboardToAnAnonymousBrowserAndTheEmbedCodeKeepsTheSecret() throws IOException {
        chrome.go("dashboard/" + dashboardId);
        button("Sharing").click();
        chrome.wait.until(ExpectedConditions.elementToBeClickable(By.name("public-link"))).click();
        WebElement url = chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.name("public-url")));
        String publicUrl = url.getAttribute("value");
        String uuid = admin.get(200, "dashboard/" + dashboardId).json().get("public_uuid").asText();
        assertEquals(server.base + "public/dashboard/" + uuid, publicUrl);

        chrome.wait.until(ExpectedConditions.elementToBeClickable(By.name("enable-embedding"))).click();
        WebElement snippet = chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("[data-embed-snippet]")));
        assertTrue(admin.get(200, "dashboard/" + dashboardId).json().get("enable_embedding").asBoolean());
        assertTrue(snippet.getText().contains("dashboard: " + dashboardId), snippet.getText());
        assertTrue(snippet.getText().contains("/embed/dashboard/"), snippet.getText());
        assertFalse(chrome.driver.getPageSource().contains(SECRET), "the secret stays on the server");
        chrome.shot("dash-08-sharing");

        chrome.driver.manage().deleteAllCookies();
        try {
            anonymousViews(publicUrl);
        } finally {
            signIn();
        }
    }

    private static void anonymousViews(String publicUrl) throws IOException {
        chrome.driver.get(publicUrl + "?category=Widget");
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Sales"));
        chrome.wait.until(ExpectedConditions.attributeToBe(dashcard("Orders by category"), "data-rows", "1"));
        assertTrue(chrome.driver.getCurrentUrl().contains("/quarry/public/dashboard/"), "no sign-in asked");
        assertFalse(chrome.text("#top").contains("Sign out"));
        chrome.shot("dash-09-public");

        // the embed URL of the snippet, with a token signed as the snippet says (what the embedding application does)
        String token = JWT.create().withPayload(Map.of("resource", Map.of("dashboard", dashboardId), "params", Map.of()))
                .sign(Algorithm.HMAC256(SECRET.getBytes(StandardCharsets.UTF_8)));
        chrome.driver.get(server.base + "embed/dashboard/" + token + "#bordered=true&titled=true");
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Sales"));
        chrome.wait.until(ExpectedConditions.attributeToBe(dashcard("Orders by category"), "data-rows", "4"));
        assertFalse(chrome.driver.findElement(By.id("top")).isDisplayed(), "an embed shows the dashboard alone");
        chrome.shot("dash-09b-embed");
    }

    @Test
    @Order(6)
    void aSubscriptionFromTheFormSendsARealEmailAndAnAlertIsStored() throws Exception {
        chrome.go("dashboard/" + dashboardId);
        button("Subscriptions").click();
        chrome.fill("recipients", "not-an-address");
        button("Send now").click();
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".subscribe [role=alert]"), "Not an e-mail address"));
        chrome.fill("recipients", "boss@example.com");
        new Select(chrome.driver.findElement(By.name("schedule_type"))).selectByValue("weekly");
        new Select(chrome.driver.findElement(By.name("schedule_day"))).selectByValue("fri");
        button("Send now").click();
        chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("[data-sent]")));
        MimeMessage[] sent = mailbox.await(1);
        assertEquals("Sales", sent[0].getSubject());
        assertTrue(Mailbox.to(sent[0]).contains("boss@example.com"), Mailbox.to(sent[0]));
        assertEquals(0, admin.get(200, "pulse", "dashboard_id", dashboardId).json().size(), "a test send stores nothing");

        button("Create subscription").click();
        chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("[data-saved]")));
        JsonNode pulses = admin.get(200, "pulse", "dashboard_id", dashboardId).json();
        assertEquals(1, pulses.size());
        JsonNode channel = pulses.get(0).get("channels").get(0);
        assertEquals("weekly", channel.get("schedule_type").asText());
        assertEquals("fri", channel.get("schedule_day").asText());
        assertEquals("boss@example.com", channel.get("recipients").get(0).get("email").asText());
        chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("[data-pulse]")));
        chrome.shot("dash-10-subscriptions");

        chrome.go("question/" + ordersCard + "/sharing");
        chrome.fill("recipients", "sales@example.com");
        assertFalse(chrome.driver.findElement(By.name("schedule_day")).isDisplayed(), "no weekday for a daily alert");
        button("Create alert").click();
        chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("[data-alert]")));
        JsonNode alerts = admin.get(200, "alert/question/" + ordersCard).json();
        assertEquals(1, alerts.size());
        assertEquals("rows", alerts.get(0).get("alert_condition").asText());
        chrome.shot("dash-11-question-sharing");
    }

    @Test
    @Order(7)
    void aFilterWiredToAFieldOfAStructuredQuestion() {
        long products = -1;
        long category = -1;
        for (JsonNode table : admin.get(200, "database/" + databaseId + "/metadata").json().get("tables")) {
            if (table.get("name").asText().equals("PRODUCTS")) {
                products = table.get("id").asLong();
                for (JsonNode f : table.get("fields")) {
                    if (f.get("name").asText().equals("CATEGORY")) {
                        category = f.get("id").asLong();
                    }
                }
            }
        }
        long builder = admin.post(200, "card", Map.of("name", "Products per category", "display", "bar", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", databaseId, "type", "query", "query", Map.of("source-table", products,
                        "aggregation", List.of(List.of("count")), "breakout", List.of(List.of("field", category, Map.of()))))))
                .json().get("id").asLong();
        long board = admin.post(200, "dashboard", Map.of("name", "Catalogue")).json().get("id").asLong();
        admin.put(200, "dashboard/" + board, Map.of("dashcards", List.of(Map.of("id", -1, "card_id", builder, "row", 0, "col", 0,
                "size_x", 12, "size_y", 6, "parameter_mappings", List.of(), "visualization_settings", Map.of()))));

        chrome.go("dashboard/" + board);
        chrome.wait.until(ExpectedConditions.attributeToBe(dashcard("Products per category"), "data-rows", "4"));
        String dashcardId = dashcard("Products per category").getAttribute("data-dashcard");
        button("Add a filter").click();
        chrome.fill("filter-name", "Category");
        Select wire = new Select(chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.name("wire-" + dashcardId))));
        assertEquals("(not connected)", wire.getFirstSelectedOption().getText(), "a field is chosen, not guessed");
        wire.selectByVisibleText("Category");
        button("Save the filter").click();
        chrome.fill("filter-category", "Gizmo");
        chrome.driver.findElement(By.name("filter-category")).sendKeys(Keys.ENTER);
        chrome.wait.until(ExpectedConditions.attributeToBe(dashcard("Products per category"), "data-rows", "1"));
        JsonNode mapping = admin.get(200, "dashboard/" + board).json().get("dashcards").get(0).get("parameter_mappings").get(0);
        assertEquals("[\"dimension\",[\"field\"," + category + ",null]]", mapping.get("target").toString());
    }

    @Test
    @Order(8)
    void theCachingSwitchOfAModelPersistsAndUnpersistsIt() throws Exception {
        Path shop = TargetDatabases.h2Shop();
        long shopDb = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop", "details",
                Map.of("db", "file:" + shop, "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(shopDb).get();
        admin.post(204, "persist/enable", null);
        admin.post(204, "database/" + shopDb + "/persist", null);
        long model = admin.post(200, "card", Map.of("name", "Shop model", "type", "model", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", shopDb, "type", "native", "native", Map.of("query", "SELECT 1 AS ONE"))))
                .json().get("id").asLong();

        chrome.go("question/" + model + "/sharing");
        WebElement toggle = chrome.wait.until(ExpectedConditions.elementToBeClickable(By.name("persist-model")));
        assertFalse(toggle.isSelected());
        toggle.click();
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("main"), "The model is cached in its database."));
        chrome.wait.until(d -> "persisted".equals(persistState(model)));
        chrome.shot("dash-13-model-caching");
        chrome.go("question/" + model + "/sharing");
        toggle = chrome.wait.until(ExpectedConditions.elementToBeClickable(By.name("persist-model")));
        assertTrue(toggle.isSelected(), "the switch shows the stored state");
        toggle.click();
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("main"), "The model is no longer cached."));
        chrome.wait.until(d -> !"persisted".equals(persistState(model)));
    }

    private static String persistState(long model) {
        Api.Res res = admin.call("GET", "persist/card/" + model, null);
        return res.status() == 200 ? res.json().get("state").asText() : "none (" + res.status() + ")";
    }

    @Test
    @Order(9)
    void theDashboardIsReadableOnAPhone() throws IOException {
        try {
            chrome.driver.manage().window().setSize(new Dimension(390, 844));
            chrome.go("dashboard/" + dashboardId + "?category=Gadget");
            chrome.wait.until(ExpectedConditions.attributeToBe(dashcard("Orders by category"), "data-rows", "1"));
            long cardWidth = ((Number) chrome.script("return document.querySelector('.dashcard').getBoundingClientRect().width")).longValue();
            long pageWidth = ((Number) chrome.script("return document.documentElement.scrollWidth")).longValue();
            assertTrue(cardWidth > 300, "a card spans the phone's width: " + cardWidth);
            assertTrue(pageWidth <= 390, "nothing overflows sideways: " + pageWidth);
            // reading order: the text card (row 12) comes after the two questions
            Object order = chrome.script("return [...document.querySelectorAll('.dashcard')].map(e => e.getBoundingClientRect().top)");
            List<?> tops = (List<?>) order;
            for (int i = 1; i < tops.size(); i++) {
                assertTrue(((Number) tops.get(i)).doubleValue() > ((Number) tops.get(i - 1)).doubleValue(), "stacked: " + tops);
            }
            chrome.shot("dash-12-phone");
        } finally {
            chrome.driver.manage().window().setSize(new Dimension(1280, 800));
        }
    }

    @Test
    @Order(10)
    void nothingWasRefusedByTheContentSecurityPolicyOrFailedInScript() {
        assertEquals(List.of(), chrome.consoleProblems());
    }
}
