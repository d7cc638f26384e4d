package io.quarry.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import io.quarry.core.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
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
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * "Ask" in a real headless Chromium against Quarry under {@code /quarry} with the Sample Database: a query-builder
 * question (count of orders by product category and month, through the join along PRODUCT_ID) charted, saved into a
 * collection and reopened; the SQL editor's completion taken by keyboard, a snippet created and inserted, a slow query
 * cancelled; a revision reverted (checked over the API too); JSON downloads of a saved and an ad-hoc result. The steps
 * build on each other, in order, on one browser.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AskUiIT {
    private static final String QUESTION = "Orders by category and month";

    private static TestServer server;
    private static Api admin;
    private static Browser chrome;
    private static long databaseId;
    private static long collectionId;
    private static long cardId;

    @RegisterExtension
    final TestWatcher failureShots = Browser.failureShots(() -> chrome);

    @BeforeAll
    static void start() throws Exception {
        server = Browser.quarryUnderContextPath(null);
        Api api = server.api();
        admin = api.as(Fixtures.setUp(api));
        databaseId = admin.post(200, "database/sample_database", null).json().get("id").asLong();
        server.quarry().sync.syncInBackground(databaseId).get();
        collectionId = admin.post(200, "collection", Map.of("name", "Sales reports")).json().get("id").asLong();
        chrome = Browser.open(server.base);
        chrome.signIn(Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD);
        chrome.wait.until(ExpectedConditions.urlMatches("/quarry/$"));
    }

    @AfterAll
    static void stop() throws Exception {
        Browser.closeAll(chrome, server);
    }

    private static WebElement named(String name) {
        return chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.name(name)));
    }

    /** Picks an option by its text in the select named {@code name} (found afresh: the builder redraws on each change). */
    private static void choose(String name, String option) {
        chrome.wait.until(d -> {
            try {
                new Select(d.findElement(By.name(name))).selectByVisibleText(option);
                return true;
            } catch (org.openqa.selenium.StaleElementReferenceException | org.openqa.selenium.NoSuchElementException e) {
                return false;
            }
        });
    }

    private static void button(String text) {
        chrome.wait.until(ExpectedConditions.elementToBeClickable(By.xpath("//button[normalize-space(.)='" + text + "']"))).click();
    }

    private static void statusIs(String state) {
        chrome.wait.until(ExpectedConditions.attributeToBe(By.cssSelector(".status"), "data-state", state));
    }

    private static String sql() {
        return named("sql").getAttribute("value");
    }

    @Test
    @Order(1)
    void buildsAQuestionChartsItSavesItIntoACollectionAndReopensIt() throws IOException {
        chrome.go("question/new?mode=builder");
        choose("builder-table", "Orders");
        choose("builder-join", "Products (via Product ID)");
        choose("builder-metric", "Count of rows");
        button("Add a grouping");
        choose("breakout-field-0", "Products - Product → Category");
        button("Add a grouping");
        choose("breakout-field-1", "Created At");
        assertEquals("by month", new Select(named("breakout-unit-1")).getFirstSelectedOption().getText(), "dates group by month first");
        button("Run");
        statusIs("done");
        // dates and a category: a line per category over the months
        chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".chart.line[data-rendered=true] canvas")));
        assertEquals(4L, chrome.script("return document.querySelector('.chart').chart.data.datasets.length"), "one line per category");
        @SuppressWarnings("unchecked")
        List<String> labels = (List<String>) chrome.script("return document.querySelector('.chart').chart.data.labels");
        DateTimeFormatter monthYear = DateTimeFormatter.ofPattern("MMMM yyyy", Locale.ENGLISH);
        List<YearMonth> months = labels.stream().map(l -> YearMonth.parse(l, monthYear)).toList();
        assertEquals(months.stream().sorted().distinct().toList(), months, "months read as months, in order, once each");
        chrome.shot("ask-01-builder-line");
        // the table pages through the rows in the browser
        chrome.driver.findElement(By.xpath("//fieldset//label[normalize-space(.)='Table']")).click();
        assertEquals(50, chrome.driver.findElements(By.cssSelector("table.results tbody tr")).size());
        int total = Integer.parseInt(chrome.text(".status").replaceAll(" rows.*", ""));
        assertEquals("Rows 1–50 of " + total, chrome.text(".pager span"));
        button("Next →");
        assertEquals("Rows 51–100 of " + total, chrome.text(".pager span"));
        assertTrue(chrome.text("table.results tbody tr:first-child td:nth-child(2)").matches("[A-Z][a-z]+ \\d{4}"), "dates by month");
        for (String display : List.of("Area", "Row", "Combo", "Pie", "Bar")) {
            chrome.driver.findElement(By.xpath("//fieldset//label[normalize-space(.)='" + display + "']")).click();
            chrome.wait.until(ExpectedConditions.presenceOfElementLocated(
                    By.cssSelector(".chart." + display.toLowerCase(Locale.ROOT) + "[data-rendered=true] canvas")));
        }

        button("View the SQL");
        WebElement compiled = chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("pre.sql-code")));
        assertTrue(compiled.getText().toUpperCase().contains("JOIN"), compiled.getText());

        button("Save as a question…");
        chrome.fill("card-name", QUESTION);
        new Select(named("collection")).selectByVisibleText("Sales reports");
        chrome.driver.findElement(By.cssSelector("form.save button[type=submit]")).click();
        chrome.wait.until(ExpectedConditions.urlMatches("/quarry/question/\\d+$"));
        cardId = Long.parseLong(chrome.driver.getCurrentUrl().replaceAll(".*/", ""));

        JsonNode card = admin.get(200, "card/" + cardId).json();
        assertEquals(QUESTION, card.get("name").asText());
        assertEquals(collectionId, card.get("collection_id").asLong());
        assertEquals("bar", card.get("display").asText());
        assertEquals("query", card.get("dataset_query").get("type").asText());
        JsonNode query = card.get("dataset_query").get("query");
        assertEquals(1, query.get("joins").size());
        assertEquals("month", query.get("breakout").get(1).get(2).get("temporal-unit").asText());

        // reopened: the builder shows the saved choices and the chart comes back as saved
        chrome.go("");
        chrome.go("question/" + cardId);
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), QUESTION));
        statusIs("done");
        chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".chart.bar[data-rendered=true]")));
        assertEquals("Orders", new Select(named("builder-table")).getFirstSelectedOption().getText());
        assertEquals("Products - Product → Category", new Select(named("breakout-field-0")).getFirstSelectedOption().getText());
        chrome.shot("ask-02-saved-builder-bar");
    }

    @Test
    @Order(2)
    void completesSqlByKeyboardAndInsertsASnippet() throws IOException {
        chrome.go("question/new");
        WebElement editor = chrome.wait.until(ExpectedConditions.elementToBeClickable(By.name("sql")));
        editor.sendKeys("SELECT COUNT(*) AS N FROM ORDE");
        WebElement option = chrome.wait.until(ExpectedConditions.visibilityOfElementLocated(
                By.xpath("//ul[@role='listbox']/li[span[.='ORDERS']]")));
        int index = chrome.driver.findElements(By.cssSelector("ul[role=listbox] li")).indexOf(option);
        for (int i = 0; i < index; i++) {
            editor.sendKeys(Keys.ARROW_DOWN);
        }
        assertEquals("true", option.getAttribute("aria-selected"));
        editor.sendKeys(Keys.TAB);
        assertEquals("SELECT COUNT(*) AS N FROM ORDERS", sql());
        assertTrue(chrome.driver.findElement(By.cssSelector("ul[role=listbox]")).getAttribute("hidden") != null, "the list closes");
        // the highlighted copy under the textarea marks keywords
        assertEquals("SELECT", chrome.text(".sql-highlight .tk-keyword"));

        chrome.driver.findElement(By.cssSelector(".snippet-panel summary")).click();
        button("New snippet");
        chrome.fill("snippet-name", "big_orders");
        chrome.fill("snippet-content", "TOTAL > 100");
        button("Save snippet");
        WebElement insert = chrome.wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button[aria-label='Insert snippet big_orders']")));
        editor.sendKeys(Keys.END, " WHERE ");
        insert.click();
        assertEquals("SELECT COUNT(*) AS N FROM ORDERS WHERE {{snippet: big_orders}}", sql());
        assertEquals(1, admin.get(200, "native-query-snippet").json().size(), "the snippet was stored");
        editor.sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
        statusIs("done");
        long expected = admin.post(202, "dataset", Map.of("database", databaseId, "type", "native",
                "native", Map.of("query", "SELECT COUNT(*) AS N FROM ORDERS WHERE TOTAL > 100"))).json()
                .get("data").get("rows").get(0).get(0).asLong();
        String shown = chrome.wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".scalar .value"))).getText();
        assertEquals(expected, Long.parseLong(shown.replace(",", "")), "the snippet's condition was applied");
        chrome.shot("ask-03-sql-snippet");
    }

    @Test
    @Order(3)
    void cancelsASlowQuery() throws IOException {
        chrome.go("question/new");
        chrome.fill("sql", "SELECT COUNT(*) FROM ORDERS A, ORDERS B, ORDERS C");
        named("sql").sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
        statusIs("running");
        assertTrue(chrome.text(".status").contains("Query is running"), chrome.text(".status"));
        assertFalse(chrome.driver.findElement(By.xpath("//button[.='Run']")).isEnabled(), "one run at a time");
        chrome.shot("ask-04-running");
        button("Cancel query");
        statusIs("cancelled");
        assertTrue(chrome.text(".status").startsWith("Query stopped after"), chrome.text(".status"));
        assertTrue(chrome.driver.findElement(By.xpath("//button[.='Run']")).isEnabled());
        assertFalse(chrome.driver.findElement(By.xpath("//button[.='Cancel query']")).isDisplayed(), "nothing left to cancel");
        assertTrue(chrome.driver.findElements(By.cssSelector(".output *")).isEmpty(), "no result shown");
        // the editor works on after a cancel: a field filter on the products' category
        chrome.fill("sql", "SELECT COUNT(*) AS N FROM PRODUCTS WHERE {{cat}}");
        choose("type-cat", "field filter");
        choose("field-cat", "PRODUCTS.Category");
        chrome.fill("param-cat", "Gizmo");
        button("Run");
        statusIs("done");
        assertTrue(chrome.text(".status").startsWith("1 row"), chrome.text(".status"));
        long gizmos = admin.post(202, "dataset", Map.of("database", databaseId, "type", "native",
                "native", Map.of("query", "SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Gizmo'"))).json()
                .get("data").get("rows").get(0).get(0).asLong();
        assertEquals(String.valueOf(gizmos), chrome.text(".scalar .value"));
    }

    @Test
    @Order(4)
    void revertsARevision() throws IOException {
        chrome.go("question/" + cardId);
        statusIs("done");
        chrome.fill("builder-limit", "3");
        button("Save…");
        chrome.wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("form.save button[type=submit]"))).click();
        chrome.wait.until(d -> admin.get(200, "card/" + cardId).json().get("dataset_query").get("query").has("limit"));
        assertEquals(3, admin.get(200, "card/" + cardId).json().get("dataset_query").get("query").get("limit").asInt());
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".status"), "3 rows"));

        WebElement history = chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".revisions ol.history")));
        chrome.wait.until(d -> history.findElements(By.tagName("li")).size() == 2);
        chrome.shot("ask-05-history");
        WebElement revert = history.findElement(By.xpath("./li[2]//button[.='Revert']"));
        revert.click();
        chrome.wait.until(d -> !admin.get(200, "card/" + cardId).json().get("dataset_query").get("query").has("limit"));
        statusIs("done");
        chrome.wait.until(ExpectedConditions.attributeToBe(By.name("builder-limit"), "value", ""));
        JsonNode revisions = admin.get(200, "revision", "entity", "card", "id", cardId).json();
        assertEquals(3, revisions.size());
        assertTrue(revisions.get(0).get("is_reversion").asBoolean(), "the newest revision is the reversion");
        assertNull(admin.get(200, "card/" + cardId).json().get("dataset_query").get("query").get("limit"));
    }

    @Test
    @Order(5)
    void exportsJsonForSavedAndAdHocResults() throws IOException {
        Path saved = Browser.DOWNLOADS.resolve(QUESTION + ".json");
        Path adHoc = Browser.DOWNLOADS.resolve("query_result.json");
        Files.deleteIfExists(saved);
        Files.deleteIfExists(adHoc);
        chrome.go("question/" + cardId);
        statusIs("done");
        int rows = Integer.parseInt(chrome.text(".status").replaceAll(" row.*", ""));
        button("JSON");
        chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("[data-export=done]")));
        chrome.wait.until(d -> Files.isRegularFile(saved));
        JsonNode downloaded = Json.MAPPER.readTree(saved.toFile());
        assertTrue(downloaded.isArray());
        assertEquals(rows, downloaded.size(), "every row of the result");
        assertTrue(downloaded.get(0).has("Count"), downloaded.get(0).toString());

        chrome.go("question/new");
        chrome.fill("sql", "SELECT CATEGORY, COUNT(*) AS N FROM PRODUCTS GROUP BY CATEGORY ORDER BY CATEGORY");
        button("Run");
        statusIs("done");
        chrome.driver.findElement(By.xpath("//fieldset//label[normalize-space(.)='Table']")).click();
        chrome.shot("ask-06-table");
        button("JSON");
        chrome.wait.until(d -> Files.isRegularFile(adHoc));
        JsonNode rowsOut = Json.MAPPER.readTree(adHoc.toFile());
        assertEquals(List.of("Doohickey", "Gadget", "Gizmo", "Widget"),
                List.of(rowsOut.get(0).get("CATEGORY").asText(), rowsOut.get(1).get("CATEGORY").asText(),
                        rowsOut.get(2).get("CATEGORY").asText(), rowsOut.get(3).get("CATEGORY").asText()));

        // the same SQL saved as a model
        button("Save as a question…");
        chrome.fill("card-name", "Product counts");
        new Select(named("card-type")).selectByVisibleText("Model");
        new Select(named("collection")).selectByVisibleText("Sales reports");
        chrome.driver.findElement(By.cssSelector("form.save button[type=submit]")).click();
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Product counts"));
        long modelId = Long.parseLong(chrome.driver.getCurrentUrl().replaceAll(".*/", ""));
        JsonNode model = admin.get(200, "card/" + modelId).json();
        assertEquals("model", model.get("type").asText());
        assertEquals("table", model.get("display").asText());
        assertEquals(collectionId, model.get("collection_id").asLong());
        assertEquals("Model", chrome.text(".kind-line"));
        assertEquals(List.of(), chrome.consoleProblems());
    }
}
