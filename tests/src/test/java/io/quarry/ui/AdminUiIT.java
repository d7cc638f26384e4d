package io.quarry.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.Mailbox;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
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
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The admin pages in a real headless Chromium against Quarry under {@code /quarry}, checked through the public API:
 * first-run setup with one's own database and an invited administrator; inviting someone and putting them in a new
 * group; the data permission grid (a conflict, then blocking the group so that person's query is refused) and the
 * collection grid; an API key used over HTTP, regenerated and deleted; a test email that arrives; general, sharing and
 * embedding settings; editing and syncing a database; and an ordinary user who gets "Not allowed" on every admin page.
 * The steps build on each other, so they run in order on one server and one browser.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdminUiIT {
    private static final String EMAIL = "ada@example.com";
    private static final String PASSWORD = "Analytical-Engine-1843";
    private static final String RASTA = "rasta@example.com";
    private static final String RASTA_PASSWORD = "Toucan-Sam-2024";
    private static final List<String> ADMIN_PAGES = List.of("admin/people", "admin/groups", "admin/permissions",
            "admin/permissions/collections", "admin/api-keys", "admin/databases", "admin/databases/new", "admin/settings",
            "admin/settings/email", "admin/settings/sharing", "admin/settings/persistence");

    private static Mailbox mailbox;
    private static TestServer server;
    private static Browser chrome;
    private static Path shop;
    private static Api admin;
    private static long shopId;
    private static long analystsId;
    private static long rastaId;

    @RegisterExtension
    final TestWatcher failureShots = Browser.failureShots(() -> chrome);

    @BeforeAll
    static void start() throws IOException {
        mailbox = new Mailbox();
        server = Browser.quarryUnderContextPath(mailbox);
        shop = TargetDatabases.h2Shop();
        chrome = Browser.open(server.base);
    }

    @AfterAll
    static void stop() throws Exception {
        Browser.closeAll(chrome, server, mailbox);
    }

    @Test
    @Order(1)
    void setupConnectsOurOwnDatabaseAndInvitesASecondAdministrator() throws IOException, MessagingException {
        chrome.go("");
        chrome.wait.until(ExpectedConditions.urlContains("/quarry/setup"));
        chrome.fill("site_name", "Acme Analytics");
        chrome.fill("first_name", "Ada");
        chrome.fill("last_name", "Lovelace");
        chrome.fill("email", EMAIL);
        chrome.fill("password", PASSWORD);
        click(By.name("sample")); // no Sample Database this time: our own
        new Select(chrome.driver.findElement(By.name("setup-engine"))).selectByValue("h2");
        chrome.fill("db-name", "Shop");
        chrome.fill("db-db", "file:" + shop + ";USER=" + TargetDatabases.H2_USER + ";PASSWORD=" + TargetDatabases.H2_PASSWORD);
        click(By.xpath("//button[.='Check the connection']"));
        waitText("main", "The connection works.");
        chrome.fill("invited_first_name", "Grace");
        chrome.fill("invited_last_name", "Hopper");
        chrome.fill("invited_email", "grace@example.com");
        chrome.shot("admin-01-setup");
        click(By.cssSelector("button[type=submit]"));
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Hello, Ada"));

        admin = server.api().as(Fixtures.login(server.api(), EMAIL, PASSWORD));
        JsonNode databases = admin.get(200, "database").json().get("data");
        assertEquals(1, databases.size(), databases.toString());
        assertEquals("Shop", databases.get(0).get("name").asText());
        assertEquals("h2", databases.get(0).get("engine").asText());
        shopId = databases.get(0).get("id").asLong();
        MimeMessage invitation = mailbox.await(1)[0];
        assertEquals("grace@example.com", Mailbox.to(invitation));
        JsonNode grace = userByEmail("grace@example.com");
        assertTrue(grace.get("is_superuser").asBoolean(), "setup's invitee is an administrator");
    }

    @Test
    @Order(2)
    void invitesSomeoneEditsThemAndPutsThemInANewGroup() throws IOException, MessagingException {
        chrome.go("admin/people");
        waitText("h1", "People");
        chrome.fill("first_name", "Rasta");
        chrome.fill("email", RASTA);
        click(By.xpath("//button[.='Invite']"));
        waitText("main", RASTA + " is invited.");
        MimeMessage invitation = mailbox.await(2)[1];
        assertEquals(RASTA, Mailbox.to(invitation));
        rastaId = userByEmail(RASTA).get("id").asLong();
        // Rasta chooses a password with the emailed link (so we can act as them below)
        server.api().post(200, "session/reset_password", Map.of("token", Mailbox.resetToken(invitation), "password", RASTA_PASSWORD));

        // edit the name
        click(By.xpath("//tr[@data-email='" + RASTA + "']//button[.='Edit']"));
        chrome.fill("edit-last_name", "Toucan");
        click(By.xpath("//button[.='Save changes']"));
        waitText("main", "Saved " + RASTA + ".");
        assertEquals("Toucan", admin.get(200, "user/" + rastaId).json().get("last_name").asText());

        // deactivate Grace, then bring her back
        click(By.xpath("//tr[@data-email='grace@example.com']//button[.='Deactivate']"));
        click(By.xpath("//button[.='Yes, deactivate']"));
        waitText("main", "grace@example.com is deactivated.");
        assertFalse(userByEmailAll("grace@example.com").get("is_active").asBoolean());
        chrome.link("Show deactivated people").click();
        waitText("h1", "Deactivated people");
        click(By.xpath("//tr[@data-email='grace@example.com']//button[.='Reactivate']"));
        waitText("main", "grace@example.com is active again.");
        assertTrue(userByEmail("grace@example.com").get("is_active").asBoolean());

        // a new group, renamed, with Rasta in it
        chrome.go("admin/groups");
        waitText("h1", "Groups");
        chrome.fill("group-name", "Analyst");
        click(By.xpath("//button[.='Create group']"));
        waitText("main", "The group Analyst is created.");
        click(By.xpath("//tr[@data-group='Analyst']//button[.='Rename']"));
        chrome.fill("rename-" + groupId("Analyst"), "Analysts");
        click(By.xpath("//tr[@data-group='Analyst']//button[.='Save']"));
        waitText("main", "Renamed to Analysts.");
        analystsId = groupId("Analysts");
        chrome.shot("admin-02-groups");
        chrome.link("Analysts").click();
        waitText("h1", "Analysts");
        new Select(chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.name("add-member"))))
                .selectByVisibleText("Rasta Toucan (" + RASTA + ")");
        click(By.xpath("//button[.='Add']"));
        chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.xpath("//tr[@data-email='" + RASTA + "']")));
        click(By.name("manager-" + rastaId));
        waitText("main", RASTA + " manages Analysts.");
        chrome.shot("admin-03-group-members");
        assertTrue(rastaMembership().get("is_group_manager").asBoolean());
        click(By.name("manager-" + rastaId));
        waitText("main", RASTA + " no longer manages Analysts.");
        assertFalse(rastaMembership().get("is_group_manager").asBoolean());
        JsonNode groupIds = admin.get(200, "user/" + rastaId).json().get("group_ids");
        assertTrue(groupIds.toString().matches(".*\\b" + analystsId + "\\b.*"), groupIds.toString());

        chrome.go("admin/people");
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(
                By.xpath("//tr[@data-email='" + RASTA + "']/td[4]"), "Analysts"));
        chrome.shot("admin-04-people");
    }

    @Test
    @Order(3)
    void theDataGridShowsAConflictThenBlocksTheGroupAndItsMemberCannotQuery() throws IOException {
        Api rasta = server.api().as(Fixtures.login(server.api(), RASTA, RASTA_PASSWORD));
        Map<String, Object> query = Map.of("database", shopId, "type", "native", "native", Map.of("query", "SELECT COUNT(*) FROM ORDERS"));
        assertEquals(202, rasta.call("POST", "api/dataset", query).status(), "before: All Users may query the new database");

        chrome.go("admin/permissions");
        waitText("h1", "Data permissions");
        select("view-1-" + shopId, "blocked");
        assertEquals("no", new Select(chrome.driver.findElement(By.name("create-1-" + shopId))).getFirstSelectedOption()
                .getAttribute("value"), "blocked view means no queries");
        // meanwhile someone else saves a change: our save must not overwrite it silently
        long revision = admin.get(200, "permissions/graph").json().get("revision").asLong();
        admin.put(200, "permissions/graph", Map.of("revision", revision, "groups", Map.of(String.valueOf(analystsId),
                Map.of(String.valueOf(shopId), Map.of("view-data", "unrestricted", "create-queries", "query-builder")))));
        click(By.xpath("//button[.='Save changes']"));
        WebElement conflict = chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".conflict")));
        assertTrue(conflict.getText().contains("someone else changed these permissions"), conflict.getText());
        chrome.shot("admin-05-permissions-conflict");
        assertEquals(202, rasta.call("POST", "api/dataset", query).status(), "the refused save changed nothing");
        click(By.xpath("//div[contains(@class,'conflict')]//button[.='Reload']"));
        chrome.wait.until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector(".conflict")));
        assertEquals("query-builder", new Select(chrome.wait.until(ExpectedConditions.presenceOfElementLocated(
                By.name("create-" + analystsId + "-" + shopId)))).getFirstSelectedOption().getAttribute("value"), "the other change is shown");

        // no access for Rasta's groups (All Users and Analysts) on Shop
        select("view-1-" + shopId, "blocked");
        select("view-" + analystsId + "-" + shopId, "blocked");
        chrome.shot("admin-06-permissions-data");
        click(By.xpath("//button[.='Save changes']"));
        waitText("main", "Permissions saved.");
        JsonNode graph = admin.get(200, "permissions/graph").json().get("groups");
        JsonNode analysts = graph.path(String.valueOf(analystsId)).path(String.valueOf(shopId));
        assertFalse("unrestricted".equals(analysts.path("view-data").asText()), graph.toString());
        assertEquals(403, rasta.call("POST", "api/dataset", query).status(), "after: Rasta may not query Shop");

        // collections: Analysts may view Our analytics
        chrome.go("admin/permissions/collections");
        waitText("h1", "Collection permissions");
        select("coll-" + analystsId + "-root", "read");
        click(By.xpath("//button[.='Save changes']"));
        waitText("main", "Permissions saved.");
        assertEquals("read", admin.get(200, "collection/graph").json().get("groups").get(String.valueOf(analystsId)).get("root").asText());
        chrome.shot("admin-07-permissions-collections");
    }

    @Test
    @Order(4)
    void anApiKeyIsShownOnceWorksOverHttpAndCanBeRegeneratedAndDeleted() throws IOException {
        chrome.go("admin/api-keys");
        waitText("h1", "API keys");
        chrome.fill("key-name", "Robot");
        new Select(chrome.driver.findElement(By.name("key-group"))).selectByVisibleText("Analysts");
        click(By.xpath("//button[.='Create the key']"));
        String key = chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.name("new-api-key"))).getAttribute("value");
        assertTrue(key.startsWith("mb_"), key);
        chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.xpath("//tr[@data-key='Robot']")));
        assertFalse(chrome.text("table.keys").contains(key), "the list shows the key masked");
        chrome.shot("admin-08-api-keys");
        Api robot = server.api().withApiKey(key);
        JsonNode me = robot.get(200, "user/current").json();
        assertTrue(me.get("group_ids").toString().contains(String.valueOf(analystsId)), me.toString());
        assertEquals(401, server.api().withApiKey(key + "x").call("GET", "api/user/current", null).status());

        click(By.xpath("//tr[@data-key='Robot']//button[.='Regenerate']"));
        click(By.xpath("//button[.='Yes, regenerate']"));
        chrome.wait.until(d -> !key.equals(d.findElement(By.name("new-api-key")).getAttribute("value")));
        String again = chrome.driver.findElement(By.name("new-api-key")).getAttribute("value");
        assertNotEquals(key, again);
        assertEquals(401, robot.call("GET", "api/user/current", null).status(), "the old key no longer works");
        assertEquals(200, server.api().withApiKey(again).call("GET", "api/user/current", null).status());

        click(By.xpath("//tr[@data-key='Robot']//button[.='Delete']"));
        click(By.xpath("//button[.='Yes, delete']"));
        waitText("main", "Robot is deleted.");
        assertEquals(401, server.api().withApiKey(again).call("GET", "api/user/current", null).status());
        assertEquals(0, admin.get(200, "api-key").json().size());
    }

    @Test
    @Order(5)
    void settingsSendATestEmailAndChangeGeneralSharingAndEmbedding() throws IOException, MessagingException {
        int before = mailbox.count();
        chrome.go("admin/settings/email");
        waitText("h1", "Settings: Email");
        WebElement host = chrome.driver.findElement(By.name("email-smtp-host"));
        assertFalse(host.isEnabled(), "set by the environment: not editable here");
        assertEquals("", host.getAttribute("value"));
        assertTrue(host.getAttribute("placeholder").contains("MB_EMAIL_SMTP_HOST"), host.getAttribute("placeholder"));
        click(By.xpath("//button[.='Send test email']"));
        waitText(".test-result", "Sent: check " + EMAIL);
        MimeMessage test = mailbox.await(before + 1)[before];
        assertEquals(EMAIL, Mailbox.to(test));
        assertEquals("Quarry test email", test.getSubject());
        chrome.shot("admin-09-settings-email");

        chrome.go("admin/settings/general");
        waitText("h1", "Settings: General");
        chrome.fill("site-name", "Acme BI");
        new Select(chrome.driver.findElement(By.name("report-timezone"))).selectByValue("Europe/Paris");
        click(By.xpath("//button[.='Save']"));
        waitText("main", "Saved.");
        waitText("#top .brand", "Acme BI");
        assertEquals("Acme BI", admin.get(200, "setting/site-name").body().replace("\"", ""));
        assertEquals("Europe/Paris", admin.get(200, "setting/report-timezone").body().replace("\"", ""));
        chrome.shot("admin-10-settings-general");

        chrome.go("admin/settings/sharing");
        waitText("h1", "Settings: Sharing and embedding");
        boolean sharing = chrome.driver.findElement(By.name("enable-public-sharing")).isSelected();
        click(By.name("enable-public-sharing"));
        waitText("main", "Public sharing (links anyone can open): " + (sharing ? "off" : "on"));
        assertEquals(String.valueOf(!sharing), admin.get(200, "setting/enable-public-sharing").body());
        click(By.name("enable-embedding-static"));
        waitText("main", "Static embedding (signed embeds in other applications): on");
        assertEquals("true", admin.get(200, "setting/enable-embedding-static").body());
        click(By.xpath("//button[.='Generate a key']"));
        waitText("main", "An embedding secret key is set.");
        String shown = chrome.text("code.secret");
        assertTrue(shown.startsWith("••••"), "the key is shown masked: " + shown);
        String stored = admin.get(200, "setting/embedding-secret-key").body();
        assertNotNull(stored);
        assertTrue(stored.length() > 10, stored);
        assertTrue(chrome.driver.findElement(By.xpath("//button[.='Copy the key']")).isDisplayed(), "a new key can be copied once");
        click(By.xpath("//button[.='Reset the key']"));
        click(By.xpath("//button[.='Yes, reset it']"));
        waitText("main", "A new embedding secret key is set.");
        String storedAgain = admin.get(200, "setting/embedding-secret-key").body().replace("\"", "");
        String shownAgain = chrome.text("code.secret");
        assertTrue(shownAgain.endsWith(storedAgain.substring(storedAgain.length() - 2)), shownAgain + " vs " + storedAgain);
        chrome.shot("admin-11-settings-sharing");

        chrome.go("admin/settings/persistence");
        waitText("h1", "Settings: Model caching");
        new Select(chrome.driver.findElement(By.name("refresh-every"))).selectByValue("6");
        click(By.xpath("//button[.='Save schedule']"));
        waitText("main", "Refresh schedule saved.");
        assertEquals("\"0 0 0/6 * * ? *\"", admin.get(200, "setting/persisted-model-refresh-cron-schedule").body());
    }

    @Test
    @Order(6)
    void editsADatabaseChecksItAndSyncsItNow() throws Exception {
        TargetDatabases.h2Execute(shop, "CREATE TABLE REFUNDS (ID BIGINT PRIMARY KEY, AMOUNT DOUBLE PRECISION)");
        TargetDatabases.h2Execute(shop, "CREATE SCHEMA ARCHIVE");
        TargetDatabases.h2Execute(shop, "CREATE TABLE ARCHIVE.OLD_ORDERS (ID BIGINT PRIMARY KEY)");
        chrome.go("admin/databases");
        waitText("h1", "Databases");
        chrome.link("Shop").click();
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Shop"));
        chrome.fill("name", "Shop (H2)");
        click(By.xpath("//button[.='Save changes']"));
        waitText("main", "Saved Shop (H2).");
        assertEquals("Shop (H2)", admin.get(200, "database/" + shopId).json().get("name").asText());
        click(By.xpath("//button[.='Check the connection']"));
        waitText("main", "The connection works.");
        click(By.xpath("//button[.='Sync now']"));
        waitText("main", "Sync started");
        new WebDriverWait(chrome.driver, Duration.ofSeconds(60)).until(d ->
                admin.get(200, "database/" + shopId + "/metadata").body().contains("\"REFUNDS\""));
        click(By.xpath("//button[.='Re-scan field values']"));
        waitText("main", "Re-scan of field values started.");
        chrome.shot("admin-12-database");

        // with two schemas, browsing the database lists the schemas first, then a schema's tables
        new WebDriverWait(chrome.driver, Duration.ofSeconds(60)).until(d ->
                admin.get(200, "database/" + shopId + "/metadata").body().contains("\"OLD_ORDERS\""));
        chrome.go("browse/" + shopId);
        waitText("main h2", "Schemas");
        chrome.link("ARCHIVE").click();
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "ARCHIVE"));
        waitText("main", "Old Orders");
        assertFalse(chrome.text("main").contains("Refunds"), "a schema's page lists only its own tables");

        // a second database (the Sample) is added from the new-database page, then removed after a confirmation
        chrome.go("admin/databases/new");
        click(By.xpath("//button[.='Add the Sample Database instead']"));
        chrome.link("Sample Database").click();
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Sample Database"));
        click(By.xpath("//button[.='Remove this database']"));
        waitText(".confirm", "Remove Sample Database and everything saved on it?");
        assertEquals(2, admin.get(200, "database").json().get("data").size(), "nothing is removed before the confirmation");
        click(By.xpath("//button[.='Yes, remove it']"));
        chrome.wait.until(ExpectedConditions.urlMatches("/quarry/admin/databases$"));
        waitText("h1", "Databases");
        JsonNode left = admin.get(200, "database").json().get("data");
        assertEquals(1, left.size(), left.toString());
        assertEquals("Shop (H2)", left.get(0).get("name").asText());
    }

    @Test
    @Order(7)
    void anOrdinaryUserGetsNotAllowedOnEveryAdminPage() throws IOException {
        click(By.xpath("//button[.='Sign out']"));
        chrome.wait.until(ExpectedConditions.urlContains("/quarry/auth/login"));
        // a reset link whose token is unknown (or used, or expired) says so instead of offering a form
        chrome.go("auth/reset_password/1_00000000-0000-0000-0000-000000000000");
        waitText("h1", "This link has expired");
        assertTrue(chrome.text("main [role=alert]").contains("already used, is too old"), chrome.text("main"));
        assertTrue(chrome.driver.findElements(By.name("password")).isEmpty(), "no password form");
        chrome.link("reset your password").click();
        waitText("h1", "Forgot your password?");
        chrome.go("auth/login");
        chrome.fill("username", RASTA);
        chrome.fill("password", RASTA_PASSWORD);
        click(By.cssSelector("button[type=submit]"));
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Hello, Rasta"));
        for (String page : ADMIN_PAGES) {
            chrome.go(page);
            chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Not allowed"));
            assertFalse(chrome.text("main").contains(EMAIL), page);
        }
        chrome.shot("admin-13-not-allowed");
    }

    @Test
    @Order(8)
    void nothingWasRefusedByTheContentSecurityPolicyOrFailedInScript() {
        assertEquals(List.of(), chrome.consoleProblems());
    }

    // --- helpers -----------------------------------------------------------------------------------------------------

    private static void click(By by) {
        chrome.wait.until(ExpectedConditions.elementToBeClickable(by)).click();
    }

    private static void waitText(String css, String text) {
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(css), text));
    }

    private static void select(String name, String value) {
        new Select(chrome.wait.until(ExpectedConditions.presenceOfElementLocated(By.name(name)))).selectByValue(value);
    }

    private static JsonNode userByEmail(String email) {
        for (JsonNode u : admin.get(200, "user").json().get("data")) {
            if (u.get("email").asText().equals(email)) {
                return u;
            }
        }
        throw new AssertionError("no active user " + email);
    }

    private static JsonNode userByEmailAll(String email) {
        for (JsonNode u : admin.get(200, "user", "include_deactivated", "true").json().get("data")) {
            if (u.get("email").asText().equals(email)) {
                return u;
            }
        }
        throw new AssertionError("no user " + email);
    }

    private static JsonNode rastaMembership() {
        for (JsonNode m : admin.get(200, "permissions/group/" + analystsId).json().get("members")) {
            if (m.get("user_id").asLong() == rastaId) {
                return m;
            }
        }
        throw new AssertionError("Rasta is not in Analysts");
    }

    private static long groupId(String name) {
        for (JsonNode g : admin.get(200, "permissions/group").json()) {
            if (g.get("name").asText().equals(name)) {
                return g.get("id").asLong();
            }
        }
        throw new AssertionError("no group " + name);
    }
}
