package io.quarry.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.Mailbox;
import io.quarry.testing.TestServer;
import jakarta.mail.internet.MimeMessage;
import java.io.File;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web interface in a real headless Chromium (Debian's {@code chromium} and {@code chromedriver}, installed by
 * {@code .ci/run}) against Quarry in embedded Jetty under the context path {@code /quarry}: first-run setup with the
 * Sample Database, a SQL question with a parameter, its chart, saving and reopening it, a CSV download, a dashboard
 * with it and a filter; then an ordinary user invited by email, who gets no admin pages, and a password reset by email. Screenshots of the main pages go to target/screenshots/.
 * The steps build on each other, so they run in order on one browser.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebInterfaceIT {
    private static final String EMAIL = "ada@example.com";
    private static final String PASSWORD = "Analytical-Engine-1843";
    private static final Path DOWNLOADS = Browser.DOWNLOADS;
    private static final String SQL = "SELECT CATEGORY, COUNT(*) AS N FROM PRODUCTS\n[[WHERE CATEGORY <> {{excluded}}]]\n"
            + "GROUP BY CATEGORY ORDER BY CATEGORY";

    private static Mailbox mailbox;
    private static TestServer server;
    private static ChromeDriver browser;
    private static WebDriverWait wait;
    private static long cardId;

    private static Browser chrome;

    /** On a failure, a screenshot of where the browser was (target/screenshots/failed-<test>.png). */
    @RegisterExtension
    final TestWatcher failureShots = Browser.failureShots(() -> chrome);

    @BeforeAll
    static void start() throws IOException {
        mailbox = new Mailbox();
        server = Browser.quarryUnderContextPath(mailbox);
        chrome = Browser.open(server.base);
        browser = chrome.driver;
        wait = chrome.wait;
    }

    @AfterAll
    static void stop() throws Exception {
        Browser.closeAll(chrome, server, mailbox);
    }

    @Test
    @Order(1)
    void servesTheInterfaceWithTheRightCachingAndNoListings() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> index = http.send(HttpRequest.newBuilder(server.base).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, index.statusCode());
        assertEquals("no-cache", index.headers().firstValue("Cache-Control").orElse(""));
        assertTrue(index.body().contains("<base href=\"/quarry/\">"), index.body());
        assertFalse(index.body().contains("WEB-INF"), "no directory listing");
        Matcher asset = Pattern.compile("src=\"(static/[0-9a-f]+/app\\.js)\"").matcher(index.body());
        assertTrue(asset.find(), index.body());

        HttpResponse<String> script = http.send(HttpRequest.newBuilder(server.base.resolve(asset.group(1))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, script.statusCode());
        assertTrue(script.headers().firstValue("Content-Type").orElse("").startsWith("text/javascript"));
        assertTrue(script.headers().firstValue("Cache-Control").orElse("").contains("max-age=31536000"));
        HttpResponse<String> chart = http.send(HttpRequest.newBuilder(server.base.resolve("webjars/chart.js/4.4.1/dist/chart.umd.js")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, chart.statusCode());

        // client-side routes get the application; files and the container's insides do not exist
        for (String route : List.of("auth/reset_password/abc123", "question/7", "admin/people")) {
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(server.base.resolve(route)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, page.statusCode(), route);
            assertTrue(page.body().contains("static/"), route);
        }
        for (String missing : List.of("WEB-INF/web.xml", "WEB-INF/", "ui/index.html", "static/x/../WEB-INF/web.xml", "nothing.js",
                "webjars/chart.js/4.4.1/")) {
            assertEquals(404, http.send(HttpRequest.newBuilder(server.base.resolve(missing)).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode(), missing);
        }
        // the API is untouched by the interface's fallback
        assertEquals(404, server.api().call("GET", "api/no-such-endpoint", null).status());
    }

    @Test
    @Order(2)
    void firstRunSetupWithTheSampleDatabase() throws IOException {
        browser.get(server.base.toString());
        wait.until(ExpectedConditions.urlContains("/quarry/setup"));
        fill("site_name", "Acme Analytics");
        fill("first_name", "Ada");
        fill("last_name", "Lovelace");
        fill("email", EMAIL);
        fill("password", PASSWORD);
        assertTrue(browser.findElement(By.name("sample")).isSelected(), "the Sample Database is offered by default");
        shot("01-setup");
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Hello, Ada"));
        assertTrue(text("#top").contains("Acme Analytics"));
        assertTrue(text("#top").contains("Admin"));
    }

    @Test
    @Order(3)
    void browsesTheSampleDatabaseDownToARowPreview() throws IOException {
        go("browse");
        link("Sample Database").click();
        // the sample's first sync runs in the background: reload until its tables are listed
        new WebDriverWait(browser, Duration.ofSeconds(60)).until(d -> {
            if (!d.findElements(By.linkText("Products")).isEmpty()) {
                return true;
            }
            d.navigate().refresh();
            return false;
        });
        link("Products").click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.xpath("//h2[.='Preview']/following-sibling::div//table")));
        assertTrue(text("main").contains("CATEGORY"));
        shot("02-table");
    }

    @Test
    @Order(4)
    void asksASqlQuestionWithAParameterAndChartsIt() throws IOException {
        go("question/new");
        WebElement editor = wait.until(ExpectedConditions.elementToBeClickable(By.name("sql")));
        editor.sendKeys(SQL);
        // the {{excluded}} tag becomes a labelled input
        WebElement parameter = wait.until(ExpectedConditions.presenceOfElementLocated(By.name("param-excluded")));
        assertEquals("Excluded", browser.findElement(By.cssSelector("label[for='" + parameter.getAttribute("id") + "']")).getText());
        parameter.sendKeys("Gizmo");
        editor.sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".status"), "3 rows"));
        // a category and a count: a bar chart by default
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".chart.bar[data-rendered=true] canvas")));
        shot("03-sql-bar-chart");
        browser.findElement(By.xpath("//fieldset//label[normalize-space(.)='Table']")).click();
        assertEquals(3, browser.findElements(By.cssSelector("table.results tbody tr")).size());
        assertFalse(text("table.results").contains("Gizmo"));
        // a header sorts; twice: the other way
        WebElement byCount = browser.findElement(By.xpath("//th/button[.='N']"));
        byCount.click();
        byCount.click();
        assertEquals("descending", browser.findElement(By.xpath("//th[button[.='N']]")).getAttribute("aria-sort"));
        assertEquals("Widget", text("table.results tbody tr:first-child td:first-child"), "Widget has the most products");
        browser.findElement(By.xpath("//fieldset//label[normalize-space(.)='Bar']")).click();

        browser.findElement(By.xpath("//button[.='Save as a question…']")).click();
        fill("card-name", "Products by category");
        new Select(browser.findElement(By.name("collection"))).selectByVisibleText("Our analytics");
        browser.findElement(By.cssSelector("form.save button[type=submit]")).click();
        wait.until(ExpectedConditions.urlMatches("/quarry/question/\\d+$"));
        cardId = Long.parseLong(browser.getCurrentUrl().replaceAll(".*/", ""));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Products by category"));
    }

    @Test
    @Order(5)
    void opensTheSavedQuestionAgainRunsItWithTheParameterAndDownloadsCsv() throws IOException {
        go("");
        link("Products by category").click();
        wait.until(ExpectedConditions.urlContains("/quarry/question/" + cardId));
        // opened without a value, the optional clause drops out: all four categories
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".status"), "4 rows"));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".chart.bar[data-rendered=true]")));
        WebElement parameter = browser.findElement(By.name("param-excluded"));
        parameter.sendKeys("Widget", Keys.ENTER);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".status"), "3 rows"));
        shot("04-saved-question");

        browser.findElement(By.xpath("//button[.='Download CSV']")).click();
        WebElement done = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("[data-export=done]")));
        assertTrue(done.getText().startsWith("Downloaded the CSV file"), done.getText());
        Path csv = DOWNLOADS.resolve("Products by category.csv");
        new WebDriverWait(browser, Duration.ofSeconds(15)).until(d -> Files.isRegularFile(csv));
        List<String> lines = Files.readAllLines(csv);
        assertEquals("CATEGORY,N", lines.get(0));
        assertEquals(4, lines.size(), "a header and three categories (Widget excluded): " + lines);
        assertFalse(String.join("\n", lines).contains("Widget"));
        browser.findElement(By.xpath("//button[.='XLSX']")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-export=done]"), "XLSX"));
        Path xlsx = DOWNLOADS.resolve("Products by category.xlsx");
        new WebDriverWait(browser, Duration.ofSeconds(15)).until(d -> Files.isRegularFile(xlsx));
        byte[] zip = Files.readAllBytes(xlsx);
        assertTrue(zip.length > 4 && zip[0] == 'P' && zip[1] == 'K', "an XLSX file is a zip");

        WebElement search = browser.findElement(By.cssSelector("#top input[type=search]"));
        search.sendKeys("by categ", Keys.ENTER);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Results for"));
        assertTrue(link("Products by category").getAttribute("href").endsWith("/quarry/question/" + cardId));
    }

    @Test
    @Order(6)
    void putsTheQuestionOnANewDashboardWithAFilterReadableOnAPhone() throws IOException {
        go("question/" + cardId);
        link("Add to a new dashboard").click();
        fill("dashboard-name", "Shop overview");
        assertEquals("Products by category", new Select(browser.findElement(By.name("card"))).getFirstSelectedOption().getText());
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(ExpectedConditions.urlMatches("/quarry/dashboard/\\d+$"));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".dashcard .chart.bar[data-rendered=true]")));
        assertTrue(text(".dashcard h2").contains("Products by category"));
        wait.until(ExpectedConditions.attributeToBe(By.cssSelector(".dashcard"), "data-rows", "4"));

        // a filter wired to the card's {{excluded}} tag
        browser.findElement(By.xpath("//button[.='Add a filter']")).click();
        fill("filter-name", "Excluded category");
        assertEquals("Excluded", new Select(browser.findElement(By.cssSelector("select[name^=wire-]"))).getFirstSelectedOption().getText());
        browser.findElement(By.xpath("//button[.='Save the filter']")).click();
        fill("filter-excluded_category", "Gadget");
        browser.findElement(By.name("filter-excluded_category")).sendKeys(Keys.ENTER);
        wait.until(ExpectedConditions.attributeToBe(By.cssSelector(".dashcard"), "data-rows", "3"));
        wait.until(ExpectedConditions.urlContains("excluded_category=Gadget"));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".dashcard .chart.bar[data-rendered=true]")));
        shot("05-dashboard");
        try {
            browser.manage().window().setSize(new Dimension(390, 844));
            browser.navigate().refresh();
            // the filter's value survives in the URL
            wait.until(ExpectedConditions.attributeToBe(By.cssSelector(".dashcard"), "data-rows", "3"));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".dashcard .chart.bar[data-rendered=true]")));
            long cardWidth = ((Number) ((JavascriptExecutor) browser).executeScript(
                    "return document.querySelector('.dashcard').getBoundingClientRect().width")).longValue();
            long pageWidth = ((Number) ((JavascriptExecutor) browser).executeScript(
                    "return document.documentElement.scrollWidth")).longValue();
            assertTrue(cardWidth > 300, "the card spans the phone's width: " + cardWidth);
            assertTrue(pageWidth <= 390, "nothing overflows sideways: " + pageWidth);
            shot("06-dashboard-phone");
        } finally {
            browser.manage().window().setSize(new Dimension(1280, 800));
        }
    }

    @Test
    @Order(7)
    void adminPagesInviteSomeoneAndOfferTheEngineForms() throws IOException {
        // first a round trip through the trash
        go("question/" + cardId);
        wait.until(ExpectedConditions.elementToBeClickable(By.xpath("//button[.='Move to trash']"))).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Trash"));
        wait.until(ExpectedConditions.elementToBeClickable(By.xpath("//button[.='Restore Products by category']"))).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("main"), "The trash is empty."));

        go("admin/databases/new");
        new Select(wait.until(ExpectedConditions.presenceOfElementLocated(By.name("engine")))).selectByValue("postgres");
        wait.until(ExpectedConditions.presenceOfElementLocated(By.name("host")));
        shot("07-admin-add-database");

        go("admin/people");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "People"));
        fill("first_name", "Rasta");
        fill("last_name", "Toucan");
        fill("email", "rasta@example.com");
        browser.findElement(By.xpath("//button[.='Invite']")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("main"), "rasta@example.com is invited."));
        shot("08-admin-people");
    }

    @Test
    @Order(8)
    void theInvitationEmailLeadsAnOrdinaryUserInWhoGetsNoAdminPages() throws IOException {
        Api admin = server.api().as(Fixtures.login(server.api(), EMAIL, PASSWORD));
        long adminsPersonal = admin.get(200, "user/current").json().get("personal_collection_id").asLong();
        browser.findElement(By.xpath("//button[.='Sign out']")).click();
        wait.until(ExpectedConditions.urlContains("/quarry/auth/login"));

        // the link in the invitation email (site-url, taken at setup, keeps the /quarry context path)
        String invitation = emailedLink(mailbox.await(1)[0]);
        assertTrue(invitation.startsWith(server.base + "auth/reset_password/") && invitation.endsWith("#new"), invitation);
        browser.get(invitation);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Welcome! Choose your password"));
        fill("password", "Toucan-Sam-2024");
        fill("confirm", "Toucan-Sam-2024");
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Hello, Rasta"));
        assertFalse(text("#top").contains("Admin"), "no Admin link for an ordinary user");
        assertTrue(text("main").contains("Products by category"), "what is in Our analytics is readable");

        go("admin/people");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Not allowed"));
        assertFalse(text("main").contains("ada@example.com"));
        shot("09-ordinary-user-admin");
        // nor someone else's personal collection
        go("collection/" + adminsPersonal);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Not allowed"));
    }

    @Test
    @Order(9)
    void forgotPasswordSendsALinkThatSetsANewOne() {
        browser.findElement(By.xpath("//button[.='Sign out']")).click();
        wait.until(ExpectedConditions.urlContains("/quarry/auth/login"));
        link("I forgot my password").click();
        fill("email", "rasta@example.com");
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("main"), "an email with a link"));

        browser.get(emailedLink(mailbox.await(2)[1]));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Choose a new password"));
        fill("password", "Toucan-Sam-2025");
        fill("confirm", "Toucan-Sam-2025");
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Hello, Rasta"));

        // a used or unknown link says so instead of offering a form
        browser.findElement(By.xpath("//button[.='Sign out']")).click();
        wait.until(ExpectedConditions.urlContains("/quarry/auth/login"));
        go("auth/reset_password/not-a-token");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "This link has expired"));
    }

    private static String emailedLink(MimeMessage message) {
        Matcher link = Pattern.compile("href=\"([^\"]*/auth/reset_password/[^\"]+)\"").matcher(Mailbox.html(message));
        assertTrue(link.find(), Mailbox.html(message));
        return link.group(1).replace("&amp;", "&");
    }

    @Test
    @Order(10)
    void nothingWasRefusedByTheContentSecurityPolicyOrFailedInScript() {
        assertEquals(List.of(), chrome.consoleProblems());
    }

    private static void go(String path) {
        chrome.go(path);
    }

    private static void fill(String name, String value) {
        chrome.fill(name, value);
    }

    private static WebElement link(String text) {
        return chrome.link(text);
    }

    private static String text(String css) {
        return chrome.text(css);
    }

    private static void shot(String name) throws IOException {
        chrome.shot(name);
    }
}
