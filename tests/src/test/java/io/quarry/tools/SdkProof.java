package io.quarry.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.io.File;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * The embedding SDK proof ({@code tools/sdk-proof.sh}, not a test of the build): Quarry in embedded Jetty on
 * {@code 127.0.0.1} with the Sample Database and a saved question, an API key, and a page bundled from Metabase's
 * {@code @metabase/embedding-sdk-react} (the script's npm install) served from another origin
 * ({@code http://localhost:<other port>}). Headless Chromium, with its normal security (no flags that turn CORS or
 * web security off), loads the page, whose {@code <StaticQuestion>} asks Quarry for the question. PASS when the
 * page shows the question's rows (product titles read from the sample database with plain SQL); either way it prints
 * what the page shows, the browser's console and every request the page made to Quarry with its status.
 */
public final class SdkProof {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        Path bundle = Path.of(args[0]).toAbsolutePath();
        int rc;
        try (TestServer quarry = TestServer.start(Map.of())) {
            rc = run(quarry, bundle);
        }
        System.exit(rc);
    }

    private static int run(TestServer quarry, Path bundle) throws Exception {
        Api anonymous = quarry.api();
        Api admin = anonymous.as(Fixtures.setUp(anonymous));
        Path sample = SampleDatabase.ensure(Path.of("target", "sdk-proof").toAbsolutePath());
        long databaseId = admin.post(200, "database", Map.of("engine", "h2", "name", "Sample Database", "details",
                Map.of("db", "file:" + sample + ";ACCESS_MODE_DATA=r", "user", SampleDatabase.USER, "password", SampleDatabase.PASSWORD)))
                .json().get("id").asLong();
        quarry.quarry().sync.syncInBackground(databaseId).get();
        String sql = "SELECT ID, TITLE, CATEGORY, PRICE FROM PRODUCTS ORDER BY ID LIMIT 8";
        long cardId = admin.post(200, "card", Map.of("name", "First products", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", databaseId, "type", "native", "native", Map.of("query", sql))))
                .json().get("id").asLong();
        String key = admin.post(200, "api-key", Map.of("name", "SDK proof", "group_id", 2)).json().get("unmasked_key").asText();
        List<String> expected = new ArrayList<>();
        try (Connection c = SampleDatabase.connect(sample); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                expected.add(rs.getString("TITLE"));
            }
        }

        HttpServer page = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        page.createContext("/", exchange -> {
            String name = exchange.getRequestURI().getPath().equals("/") ? "index.html" : exchange.getRequestURI().getPath().substring(1);
            Path file = bundle.resolve(name).normalize();
            if (!file.startsWith(bundle) || !Files.isRegularFile(file)) {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
                return;
            }
            byte[] bytes = Files.readAllBytes(file);
            String type = name.endsWith(".html") ? "text/html; charset=utf-8" : name.endsWith(".js") ? "text/javascript; charset=utf-8"
                    : name.endsWith(".css") ? "text/css" : "application/octet-stream";
            exchange.getResponseHeaders().set("Content-Type", type);
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        page.start();
        String pageOrigin = "http://localhost:" + page.getAddress().getPort();
        String quarryUrl = quarry.base.toString().replaceAll("/$", "");
        String url = pageOrigin + "/?mb=" + enc(quarryUrl) + "&key=" + enc(key) + "&q=" + cardId;
        System.out.println("Quarry:    " + quarryUrl + " (question " + cardId + ": " + sql + ")");
        System.out.println("page:      " + pageOrigin + " (another origin: other host name and port)");
        System.out.println("expecting: " + expected);

        ChromeOptions options = new ChromeOptions();
        options.setBinary(new File("/usr/bin/chromium"));
        // --no-sandbox is needed to run as root in a container; nothing here relaxes CORS or web security
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,900");
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL", "performance", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File("/usr/bin/chromedriver"))
                .usingAnyFreePort().build();
        ChromeDriver browser = new ChromeDriver(service, options);
        boolean pass = false;
        String text = "";
        try {
            browser.get(url);
            long deadline = System.nanoTime() + Duration.ofSeconds(Integer.getInteger("sdkproof.wait", 90)).toNanos();
            while (System.nanoTime() < deadline) {
                text = browser.findElement(By.tagName("body")).getText();
                if (expected.stream().allMatch(text::contains)) {
                    pass = true;
                    break;
                }
                Thread.sleep(500);
            }
            System.out.println("---- requests from the page to Quarry (status, or why it failed; path)");
            Map<String, String> urls = new java.util.HashMap<>();
            Map<String, String> seen = new TreeMap<>();
            for (LogEntry entry : browser.manage().logs().get("performance")) {
                JsonNode message = JSON.readTree(entry.getMessage()).get("message");
                JsonNode params = message.get("params");
                switch (message.get("method").asText()) {
                    case "Network.requestWillBeSent" -> {
                        String u = params.get("request").get("url").asText();
                        if (u.startsWith(quarryUrl)) {
                            urls.put(params.get("requestId").asText(), u.substring(quarryUrl.length()));
                            seen.putIfAbsent(u.substring(quarryUrl.length()), "sent");
                        }
                    }
                    case "Network.responseReceived" -> {
                        String path = urls.get(params.get("requestId").asText());
                        if (path != null) {
                            seen.put(path, String.valueOf(params.get("response").get("status").asInt()));
                        }
                    }
                    case "Network.loadingFailed" -> {
                        String path = urls.get(params.get("requestId").asText());
                        if (path != null) {
                            seen.put(path, "failed (" + params.get("errorText").asText()
                                    + (params.has("corsErrorStatus") ? ", CORS " + params.get("corsErrorStatus").get("corsError").asText() : "") + ")");
                        }
                    }
                    default -> { }
                }
            }
            seen.forEach((path, status) -> System.out.println(status + "  " + path));
            System.out.println("---- browser console");
            for (LogEntry entry : browser.manage().logs().get(LogType.BROWSER)) {
                System.out.println(entry.getLevel() + " " + abbreviate(entry.getMessage(), 400));
            }
            Path shot = Path.of("target", "sdk-proof", "page.png");
            Files.write(shot, browser.getScreenshotAs(org.openqa.selenium.OutputType.BYTES));
            System.out.println("---- the page shows (screenshot: " + shot + ")");
            System.out.println(abbreviate(text, 3000));
        } finally {
            browser.quit();
            page.stop(0);
        }
        System.out.println(pass ? "PASS: the SDK's <StaticQuestion> on " + pageOrigin + " shows all " + expected.size()
                + " rows of question " + cardId + " from Quarry" : "FAIL: the page does not show the question's rows");
        return pass ? 0 : 1;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + " ...";
    }

    private SdkProof() {
    }
}
