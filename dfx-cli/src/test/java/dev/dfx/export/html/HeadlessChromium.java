package dev.dfx.export.html;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Test helper: Debian's headless Chromium driven through its chromedriver (Selenium), found or installed by the
 * checkout's {@code scripts/chromium.sh}. When neither can be had the test is skipped with the script's message
 * (an assumption), never passed. One browser per instance; close it.
 */
public final class HeadlessChromium implements AutoCloseable {
    /** Where screenshots are kept as test artifacts. */
    public static final Path SHOTS = Paths.get("target", "viewer-screenshots");

    private final ChromeDriver driver;

    private HeadlessChromium(ChromeDriver driver) {
        this.driver = driver;
    }

    /** Starts a headless browser (1400 x 1000 CSS px); skips the test when chromium cannot be had. */
    public static HeadlessChromium start() throws IOException, InterruptedException {
        List<String> paths = locate();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(paths.get(0));
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--allow-file-access-from-files", "--hide-scrollbars");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(Paths.get(paths.get(1)).toFile()).usingAnyFreePort().build();
        return new HeadlessChromium(new ChromeDriver(service, options));
    }

    /** @return the browser's and the driver's paths, from scripts/chromium.sh; aborts the test when it fails */
    private static List<String> locate() throws IOException, InterruptedException {
        Path script = null;
        for (Path p = Paths.get("").toAbsolutePath(); p != null && script == null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("scripts/chromium.sh"))) {
                script = p.resolve("scripts/chromium.sh");
            }
        }
        assertThat(script).as("scripts/chromium.sh above the working directory").isNotNull();
        Process p = new ProcessBuilder("bash", script.toString()).redirectErrorStream(false).start();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(15, TimeUnit.MINUTES)) {
            p.destroyForcibly();
        }
        List<String> lines = new String(out, StandardCharsets.UTF_8).lines().toList();
        Assumptions.assumeTrue(p.exitValue() == 0 && lines.size() == 2, "chromium and chromedriver cannot be had"
                + " (scripts/chromium.sh): " + err.strip());
        return lines;
    }

    /** Opens a page and waits until the viewer says it is ready ({@code window.dfxViewer.ready}). */
    public void open(Path page) throws InterruptedException {
        driver.get(page.toAbsolutePath().toUri().toString()); // returns once the page's scripts have run
        for (int i = 0; i < 600; i++) {
            if (Boolean.TRUE.equals(driver.executeScript("return !!(window.dfxViewer && window.dfxViewer.ready)"))) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(page + ": the viewer did not get ready; console: " + consoleErrors());
    }

    /** @return what the script returns (numbers as Long or Double, objects as maps) */
    public Object js(String script, Object... args) {
        return driver.executeScript(script, args);
    }

    /** @return {@code window.dfxViewer.stats()} */
    @SuppressWarnings("unchecked")
    public Map<String, Object> stats() {
        return (Map<String, Object>) js("return window.dfxViewer.stats()");
    }

    /** @return the console messages at level SEVERE (errors, uncaught exceptions) since the last call */
    public List<String> consoleErrors() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).map(LogEntry::getMessage).toList();
    }

    /** @return the driver, for mouse and keyboard actions */
    public ChromeDriver driver() {
        return driver;
    }

    /** Saves a PNG screenshot of the window as {@code target/viewer-screenshots/NAME.png}; returns its path. */
    public Path screenshot(String name) throws IOException {
        Files.createDirectories(SHOTS);
        Path file = SHOTS.resolve(name + ".png");
        Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        return file;
    }

    @Override
    public void close() {
        driver.quit();
    }
}
