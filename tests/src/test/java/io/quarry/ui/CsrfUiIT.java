package io.quarry.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.InProcess;
import io.quarry.testing.TestServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * Issue #25's CSRF proof in a real headless Chromium: the administrator is signed in to Quarry (127.0.0.1, one port)
 * and opens a page on another port of the same host, which is the same site (so even a {@code SameSite=Lax} cookie goes
 * along) but another origin. The page's form posts and {@code fetch}es with credentials (create a user, create a
 * collection, sign the browser in as the attacker) change nothing, while Quarry's own pages keep working, with the
 * default cookie and with {@code SameSite=None} (where the UI sends the anti-CSRF token).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CsrfUiIT {
    private static final String MALLORY = "mallory@example.com";
    private static final String MALLORY_PASSWORD = "Mallory-pw-2026";

    private static TestServer server;
    private static Browser chrome;
    private static Api admin;
    private static HttpServer attacker;
    private static String attackerPage;

    @RegisterExtension
    final TestWatcher failureShots = Browser.failureShots(() -> chrome);

    @BeforeAll
    static void start() throws IOException {
        server = Browser.quarryUnderContextPath(null);
        admin = server.api().as(Fixtures.setUp(server.api()));
        InProcess.createUser(server, MALLORY, MALLORY_PASSWORD, false);
        attacker = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        attacker.createContext("/", exchange -> {
            byte[] page = attackPage(exchange.getRequestURI().getQuery()).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, page.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(page);
            }
        });
        attacker.start();
        attackerPage = "http://127.0.0.1:" + attacker.getAddress().getPort() + "/attack";
        chrome = Browser.open(server.base);
    }

    @AfterAll
    static void stop() throws Exception {
        if (attacker != null) {
            attacker.stop(0);
        }
        Browser.closeAll(chrome, server);
    }

    @Test
    @Order(1)
    void anotherOriginsPageChangesNothingWithTheAdminsCookie() throws IOException {
        signIn();
        attackAndCheckNothingChanged("lax");
        chrome.shot("csrf-01-refused");
    }

    @Test
    @Order(2)
    void theSameOriginInterfaceStillCreatesACollection() {
        createCollectionThroughTheInterface("Made in the UI " + UUID.randomUUID());
    }

    @Test
    @Order(3)
    void withSameSiteNoneTheInterfaceSendsTheTokenAndTheAttackStillChangesNothing() {
        admin.put(204, "setting/session-cookie-samesite", Map.of("value", "none"));
        try {
            chrome.driver.findElement(By.xpath("//button[.='Sign out']")).click();
            chrome.wait.until(ExpectedConditions.urlContains("/auth/login"));
            signIn();
            Cookie cookie = chrome.driver.manage().getCookieNamed("metabase.SESSION");
            assertNotNull(cookie, "the browser keeps the SameSite=None; Secure cookie on 127.0.0.1");
            assertEquals("None", cookie.getSameSite(), cookie.toString());
            Object token = chrome.script("return Object.entries(localStorage).filter(([k]) => k.startsWith('quarry.anti-csrf-token'))"
                    + ".map(([, v]) => v)[0] || null");
            assertNotNull(token, "the UI keeps the token sign-in handed out");
            assertTrue(token.toString().matches("[0-9a-f]{32}"), token.toString());
            createCollectionThroughTheInterface("Made with SameSite=None " + UUID.randomUUID());
            attackAndCheckNothingChanged("none");
        } finally {
            admin.put(204, "setting/session-cookie-samesite", Map.of("value", "lax"));
        }
    }

    /** Opens the attacker's page for each attack and checks its effect is absent and the browser still the admin's. */
    private static void attackAndCheckNothingChanged(String label) {
        String email = "forged-" + label + "@example.com";
        String collection = "Forged " + label;
        long malloryBefore = malloryCount();

        // fetch() with credentials: a form-encoded one (no preflight) and a JSON one (preflighted)
        chrome.driver.get(attackerPage + "?fetch=" + collection.replace(' ', '+'));
        chrome.wait.until(ExpectedConditions.titleIs("fetched"));
        // a form the page submits: the browser sends the session cookie (same site), Quarry refuses it
        chrome.driver.get(attackerPage + "?user=" + email);
        chrome.wait.until(ExpectedConditions.urlContains("/quarry/api/user"));
        String answer = chrome.driver.findElement(By.tagName("body")).getText();
        assertTrue(answer.contains("Cross-site request refused"), answer);
        // login CSRF: the page signs the browser in as the attacker
        chrome.driver.get(attackerPage + "?login");
        chrome.wait.until(ExpectedConditions.urlContains("/quarry/api/session"));
        answer = chrome.driver.findElement(By.tagName("body")).getText();
        assertTrue(answer.contains("Cross-site request refused"), answer);

        assertNull(InProcess.findUser(server, email), "no user created");
        assertEquals(0, collections(collection), "no collection created");
        assertEquals(malloryBefore, malloryCount(), "no session opened for the attacker");
        // still the administrator, on Quarry's own pages
        chrome.go("");
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Hello, Crowberto"));
    }

    private static void createCollectionThroughTheInterface(String name) {
        chrome.go("collection/root");
        chrome.fill("collection-name", name);
        chrome.driver.findElement(By.xpath("//button[.='Create']")).click();
        chrome.wait.until(driver -> collections(name) == 1);
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("main"), name));
    }

    private static void signIn() {
        chrome.signIn(Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD);
        chrome.wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Hello, Crowberto"));
    }

    /** The attacker's page: one attack per visit, chosen by the query string. */
    private static String attackPage(String query) {
        String quarry = server.base.resolve("api/").toString();
        String body;
        if (query != null && query.startsWith("fetch=")) {
            String name = query.substring("fetch=".length()).replace('+', ' ');
            body = "<script>\n"
                    + "const form = fetch('" + quarry + "collection', {method: 'POST', credentials: 'include', mode: 'no-cors',\n"
                    + "  headers: {'Content-Type': 'application/x-www-form-urlencoded'}, body: 'name=' + encodeURIComponent('" + name + "')});\n"
                    + "const json = fetch('" + quarry + "collection', {method: 'POST', credentials: 'include',\n"
                    + "  headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: '" + name + "'})});\n"
                    + "Promise.allSettled([form, json]).then(() => { document.title = 'fetched'; });\n"
                    + "</script>";
        } else if (query != null && query.startsWith("user=")) {
            body = "<form method='post' action='" + quarry + "user'>"
                    + "<input name='first_name' value='Mal'><input name='last_name' value='Lory'>"
                    + "<input name='email' value='" + query.substring("user=".length()) + "'></form>"
                    + "<script>document.forms[0].submit();</script>";
        } else {
            body = "<form method='post' action='" + quarry + "session'>"
                    + "<input name='username' value='" + MALLORY + "'><input name='password' value='" + MALLORY_PASSWORD + "'></form>"
                    + "<script>document.forms[0].submit();</script>";
        }
        return "<!doctype html><html><head><title>Win a prize</title></head><body>" + body + "</body></html>";
    }

    private static long collections(String name) {
        return InProcess.number(server, "SELECT COUNT(*) FROM collection WHERE name = ?", name);
    }

    private static long malloryCount() {
        return InProcess.number(server, "SELECT COUNT(*) FROM core_session s JOIN core_user u ON u.id = s.user_id WHERE u.email = ?", MALLORY);
    }
}
