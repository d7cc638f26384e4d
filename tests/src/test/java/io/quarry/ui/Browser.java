package io.quarry.ui;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Mailbox;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * One headless Chromium (Debian's {@code chromium} and {@code chromedriver}, installed by {@code .ci/run}) pointed at a
 * running Quarry, with the few moves the browser tests share: open a path, fill a named field, take a screenshot
 * (target/screenshots/), and list what the console refused or threw. Browser test classes hold one in a static field and
 * register {@link #failureShots()} so a failing test leaves a picture of where the browser was.
 */
public final class Browser implements AutoCloseable {
    public static final Path SHOTS = Path.of("target", "screenshots");
    public static final Path DOWNLOADS = Path.of("target", "browser-downloads").toAbsolutePath();

    public final ChromeDriver driver;
    public final WebDriverWait wait;
    private final URI base;

    private Browser(ChromeDriver driver, URI base) {
        this.driver = driver;
        this.wait = new WebDriverWait(driver, Duration.ofSeconds(30));
        this.base = base;
    }

    /** A new browser at 1280×800 whose downloads land in {@link #DOWNLOADS}; {@code base} is the server's root URI. */
    public static Browser open(URI base) throws IOException {
        Files.createDirectories(SHOTS);
        Files.createDirectories(DOWNLOADS);
        File chromium = new File("/usr/bin/chromium");
        File chromedriver = new File("/usr/bin/chromedriver");
        assertTrue(chromium.canExecute() && chromedriver.canExecute(),
                "the browser tests need Debian's chromium and chromium-driver (apt-get install -y chromium chromium-driver; .ci/run does)");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,800", "--lang=en-US", "--hide-scrollbars");
        options.setExperimentalOption("prefs", Map.of("download.default_directory", DOWNLOADS.toString(),
                "download.prompt_for_download", false));
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver).usingAnyFreePort().build();
        return new Browser(new ChromeDriver(service, options), base);
    }

    /**
     * Quarry under the context path {@code /quarry} on a fresh application database, sending its mail to
     * {@code mailbox} when one is given: the server every browser test class starts.
     */
    public static TestServer quarryUnderContextPath(Mailbox mailbox) {
        Map<String, String> config = new HashMap<>(TestAppDb.fresh());
        if (mailbox != null) {
            config.putAll(mailbox.config());
        }
        return TestServer.startWith(config, webapp -> webapp.setContextPath("/quarry"));
    }

    /** Closes what was started, in the order given, skipping what never started (null). */
    public static void closeAll(AutoCloseable... started) throws Exception {
        for (AutoCloseable each : started) {
            if (each != null) {
                each.close();
            }
        }
    }

    /** Signs in on the login page (callers wait for the page they expect next). */
    public void signIn(String email, String password) {
        go("auth/login");
        fill("username", email);
        fill("password", password);
        driver.findElement(By.cssSelector("button[type=submit]")).click();
    }

    /** Opens {@code path} (relative to the server's root, e.g. {@code "ui/"} or {@code "question/3"}). */
    public void go(String path) {
        driver.get(base.resolve(path).toString());
    }

    /** Clears the field named {@code name} once it is present and types {@code value} into it. */
    public void fill(String name, String value) {
        WebElement input = wait.until(ExpectedConditions.presenceOfElementLocated(By.name(name)));
        input.clear();
        input.sendKeys(value);
    }

    public WebElement link(String text) {
        return wait.until(ExpectedConditions.elementToBeClickable(By.linkText(text)));
    }

    public String text(String css) {
        return driver.findElement(By.cssSelector(css)).getText();
    }

    public Object script(String js, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(js, args);
    }

    /** Console lines that say the content security policy refused something or a script threw. */
    public List<String> consoleProblems() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .map(LogEntry::getMessage)
                .filter(m -> m.contains("Refused to") || m.contains("Content Security Policy") || m.contains("Uncaught"))
                .toList();
    }

    /** A screenshot of the whole page (the window grows to the page's height for it, up to 1,800 pixels). */
    public void shot(String name) throws IOException {
        Dimension before = driver.manage().window().getSize();
        long page = ((Number) script("return document.documentElement.scrollHeight")).longValue();
        long viewport = ((Number) script("return window.innerHeight")).longValue();
        int extra = (int) Math.min(Math.max(0, page - viewport), 1800 - viewport);
        if (extra > 0) {
            driver.manage().window().setSize(new Dimension(before.getWidth(), before.getHeight() + extra));
        }
        try {
            File file = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
            Files.copy(file.toPath(), SHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } finally {
            if (extra > 0) {
                driver.manage().window().setSize(before);
            }
        }
    }

    @Override
    public void close() {
        driver.quit();
    }

    /** A watcher that, on a failure, saves a screenshot as target/screenshots/failed-&lt;test&gt;.png. */
    public static TestWatcher failureShots(java.util.function.Supplier<Browser> current) {
        return new TestWatcher() {
            @Override
            public void testFailed(ExtensionContext context, Throwable cause) {
                Browser browser = current.get();
                if (browser == null) {
                    return;
                }
                try {
                    browser.shot("failed-" + context.getRequiredTestMethod().getName());
                } catch (RuntimeException | IOException e) {
                    cause.addSuppressed(e);
                }
            }
        };
    }
}
