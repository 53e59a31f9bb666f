package dev.cardcatalog.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.function.Function;
import java.util.function.Supplier;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A headless Chromium driven by Selenium: the distribution's {@code chromium} and {@code chromium-driver}
 * packages, never a downloaded browser. Where either is missing the test fails and says what to install.
 * Paths: the system properties {@code webdriver.chrome.driver} (default {@code /usr/bin/chromedriver}) and
 * {@code card-catalog.test.chromium} (default {@code /usr/bin/chromium}).
 */
public final class Browser implements AutoCloseable {

    /** Where the admin page's screenshots go, one per state and width, for review. */
    public static final Path SCREENSHOTS = Path.of("target/admin-screenshots");
    public static final Dimension DESKTOP = new Dimension(1280, 800);
    public static final Dimension PHONE = new Dimension(375, 812);
    /** Where each browser's profile and temporary files live while it runs; deleted when it closes. */
    static final Path PROFILES = Path.of("target/chromium");

    private final ChromeDriver driver;
    private final Path profile;
    private final Path screenshots;

    private Browser(ChromeDriver driver, Path profile, Path screenshots) {
        this.driver = driver;
        this.profile = profile;
        this.screenshots = screenshots;
    }

    /** Starts a headless Chromium with a fresh profile, at the desktop size; screenshots go to {@link #SCREENSHOTS}. */
    public static Browser start() {
        return start(SCREENSHOTS, Map.of());
    }

    /**
     * As {@link #start()}, with screenshots written to {@code screenshots}, and each of {@code httpsHosts} (a host
     * name → a local port) reached at {@code 127.0.0.1} on that port when a page asks for {@code https://<host>/}:
     * the browser resolves the host there and accepts the local server's self-signed certificate
     * ({@link ImageHostFront}). Other hosts resolve as usual.
     */
    public static Browser start(Path screenshots, Map<String, Integer> httpsHosts) {
        Path driverBinary = Path.of(System.getProperty("webdriver.chrome.driver", "/usr/bin/chromedriver"));
        Path chromium = Path.of(System.getProperty("card-catalog.test.chromium", "/usr/bin/chromium"));
        if (!Files.isExecutable(driverBinary) || !Files.isExecutable(chromium)) {
            fail("The pages' browser tests need Chromium and ChromeDriver (" + chromium + ", " + driverBinary
                    + "). Install them: apt-get update && apt-get install -y chromium chromium-driver");
        }
        System.setProperty("webdriver.chrome.driver", driverBinary.toString());
        try {
            // the profile and Chromium's own temporary files under target/, never in the machine's shared /tmp
            Files.createDirectories(PROFILES);
            Path profile = Files.createTempDirectory(PROFILES, "profile-");
            Path temporary = Files.createDirectory(profile.resolve("tmp"));
            ChromeOptions options = new ChromeOptions();
            options.setBinary(chromium.toFile());
            LoggingPreferences logs = new LoggingPreferences();
            logs.enable(LogType.BROWSER, Level.ALL); // for cspViolations()
            options.setCapability(ChromeOptions.LOGGING_PREFS, logs);
            if (!httpsHosts.isEmpty()) {
                options.addArguments("--host-resolver-rules=" + String.join(", ", httpsHosts.entrySet().stream()
                        .map(host -> "MAP " + host.getKey() + ":443 127.0.0.1:" + host.getValue()).sorted().toList()));
                options.setAcceptInsecureCerts(true);
            }
            options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--no-first-run", "--user-data-dir=" + profile.resolve("data"), "--window-size=1280,800");
            ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driverBinary.toFile())
                    .usingAnyFreePort().withEnvironment(Map.of("TMPDIR", temporary.toString())).build();
            ChromeDriver driver = new ChromeDriver(service, options);
            driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
            return new Browser(driver, profile, screenshots);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public WebDriver driver() {
        return driver;
    }

    public void open(String url) {
        driver.get(url);
    }

    /**
     * What Chromium's console reported as Content-Security-Policy violations (a script, a style or a request the
     * page's policy refused) since the last call: each message as the console wrote it.
     */
    public List<String> cspViolations() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream().map(LogEntry::getMessage)
                .filter(message -> message.contains("Content Security Policy")).toList();
    }

    public Object script(String script, Object... arguments) {
        return ((JavascriptExecutor) driver).executeScript(script, arguments);
    }

    /** The text of the first element matching {@code css}, read again if the page replaced it meanwhile. */
    public String text(String css) {
        return retry(d -> d.findElement(By.cssSelector(css)).getText());
    }

    public String attribute(String css, String name) {
        return retry(d -> d.findElement(By.cssSelector(css)).getAttribute(name));
    }

    public boolean present(String css) {
        return retry(d -> !d.findElements(By.cssSelector(css)).isEmpty());
    }

    /**
     * Clicks the element {@code css} (every button and link on the page loads a page: a form POST answered by a
     * redirect, or a link) and waits until the browser has left the page it was on, so that what is read next is
     * read from the new page, never from the old one.
     */
    public void click(String css) {
        WebElement before = driver.findElement(By.tagName("html"));
        retry(d -> {
            d.findElement(By.cssSelector(css)).click();
            return true;
        });
        new WebDriverWait(driver, Duration.ofSeconds(30)).until(d -> left(before));
    }

    /**
     * Whether {@code element} no longer belongs to the page shown. ChromeDriver says so with a stale element
     * reference, or, when the page was being replaced as it asked, with an inspector error that the node "does not
     * belong to the document" (Selenium's own {@code stalenessOf} lets that one through as a failure).
     */
    private static boolean left(WebElement element) {
        try {
            element.isEnabled();
            return false;
        } catch (StaleElementReferenceException e) {
            return true;
        } catch (WebDriverException e) {
            if (replaced(e)) {
                return true;
            }
            throw e;
        }
    }

    private static boolean replaced(WebDriverException e) {
        return e.getMessage() != null && e.getMessage().contains("does not belong to the document");
    }

    /** Waits (at most {@code atMost}) until {@code condition} holds, re-reading the page as it polls. */
    public void await(Duration atMost, String what, Function<Browser, Boolean> condition) {
        try {
            new WebDriverWait(driver, atMost, Duration.ofMillis(200))
                    .ignoring(StaleElementReferenceException.class)
                    .ignoring(org.openqa.selenium.NoSuchElementException.class)
                    .withMessage(() -> what + "; the page said: " + driver.findElement(By.tagName("main")).getText())
                    .until(d -> condition.apply(this));
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /**
     * Waits until {@code condition} holds, as long as {@code progress} moves: {@code stillFor} bounds how long it may
     * stand still, not how long the wait takes (a job's work on a loaded machine), and {@link Jobs#CEILING} bounds
     * the whole wait.
     *
     * @throws AssertionError naming {@code what}, the last progress and the page's text when the condition did not
     *     hold and nothing moved for {@code stillFor}
     */
    public void awaitWhileMoving(Duration stillFor, Supplier<String> progress, String what,
            Function<Browser, Boolean> condition) {
        try {
            Jobs.awaitWhileMoving(stillFor, progress, what, () -> holds(condition));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "; the page said: "
                    + driver.findElement(By.tagName("main")).getText(), e);
        }
    }

    private boolean holds(Function<Browser, Boolean> condition) {
        try {
            return Boolean.TRUE.equals(condition.apply(this));
        } catch (StaleElementReferenceException | org.openqa.selenium.NoSuchElementException e) {
            return false;
        }
    }

    /**
     * Shows the page at the desktop size and at a phone's, asserting that neither scrolls sideways, and writes a
     * screenshot of each to {@code <screenshots>/<name>-desktop.png} and {@code <name>-phone.png} (the directory
     * {@link #start(Path, Map)} was given; {@code target/admin-screenshots/} by default).
     */
    public void look(String name) {
        look(name, "body");
    }

    /** As {@link #look(String)}, with the element {@code css} scrolled into view for the screenshots. */
    public void look(String name, String css) {
        for (Dimension size : new Dimension[] {PHONE, DESKTOP}) {
            driver.manage().window().setSize(size);
            script("var e = document.querySelector(arguments[0]); if (e) e.scrollIntoView();", css);
            Object widths = script("return [document.documentElement.scrollWidth,"
                    + " document.documentElement.clientWidth, window.innerWidth];");
            java.util.List<?> w = (java.util.List<?>) widths;
            assertThat(((Number) w.get(0)).longValue())
                    .as("%s at %dx%d scrolls sideways (scrollWidth %s, clientWidth %s, innerWidth %s)", name,
                            size.width, size.height, w.get(0), w.get(1), w.get(2))
                    .isLessThanOrEqualTo(((Number) w.get(1)).longValue());
            try {
                Files.createDirectories(screenshots);
                Path file = screenshots.resolve(name + (size == PHONE ? "-phone" : "-desktop") + ".png");
                Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private <T> T retry(Function<WebDriver, T> read) {
        WebDriverException last = null;
        for (int i = 0; i < 5; i++) {
            try {
                return read.apply(driver);
            } catch (StaleElementReferenceException e) {
                last = e; // the polling script replaced the page's content between find and read
            } catch (WebDriverException e) {
                if (!replaced(e)) {
                    throw e;
                }
                last = e; // the same, said by Chrome's inspector
            }
        }
        throw last;
    }

    @Override
    public void close() {
        driver.quit();
        TestData.deleteTree(profile);
    }

    /** Finds {@code css} inside {@code element}. */
    public static WebElement within(WebElement element, String css) {
        return element.findElement(By.cssSelector(css));
    }
}
