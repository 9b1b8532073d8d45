package io.statecast.specserver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.statecast.overlay.testkit.Await;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The catalogue in a real browser: Debian's headless Chromium, driven through the packaged
 * chromedriver (never one Selenium Manager would download), opens the list, follows a link to a
 * service page, sees its diagram, its parameters and its hostile description as text, and
 * downloads the spec. Fails, not skips, without Chromium: {@code .ci/run} installs it.
 */
class CatalogueBrowserTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String HOSTILE = "<script>alert('catalogue')</script> & <img src=x onerror=alert(2)>";

    @TempDir
    Path dir;
    @TempDir
    Path profile;
    @TempDir
    Path downloads;

    private static void put(Http http, int id, byte[] doc) {
        HttpResponse<String> r = http.send(http.authorized(http.put("/services/" + id, doc)));
        assertEquals(201, r.statusCode(), r.body());
    }

    private ChromeOptions options() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile);
        options.setExperimentalOption("prefs", Map.of(
                "download.default_directory", downloads.toString(),
                "download.prompt_for_download", false));
        return options;
    }

    private Optional<Path> downloaded() {
        try (Stream<Path> files = Files.list(downloads)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".scxml")).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    @Test
    void shouldBrowseFromTheListToAServicePageAndDownloadItsSpec() throws Exception {
        assertTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "this test needs Debian's Chromium and its driver: apt-get install -y chromium chromium-driver (.ci/run does)");
        try (SpecServer server = SpecServer.start(SpecServerConfig.secured(dir, Http.TOKEN), new BasicSpecCheck())) {
            Http http = new Http(server.baseUri());
            byte[] target = TestSpecs.described(7, "relay <ack>", HOSTILE,
                    new String[] {"TimeoutACK", "duration", "500", "Wait this long for an ACK."},
                    new String[] {"Verbose", "boolean", "false", "Log <every> step."});
            put(http, 5, TestSpecs.described(5, "first", "The first service."));
            put(http, 7, target);
            put(http, 9, TestSpecs.described(9, "last", "The last service."));
            for (int id : List.of(5, 7, 9)) {
                Await.until(() -> !http.get("/catalogue/" + id).body().contains("being described"), WAIT,
                        () -> "service " + id + " to be described");
            }

            // Selenium uses exactly this driver; it downloads nothing (Selenium Manager is never asked).
            System.setProperty(ChromeDriverService.CHROME_DRIVER_EXE_PROPERTY, CHROMEDRIVER.toString());
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
            WebDriver driver = new ChromeDriver(service, options());
            try {
                WebDriverWait wait = new WebDriverWait(driver, WAIT);
                driver.get(server.baseUri().toString());
                assertEquals("Services — Statecast spec server", driver.getTitle());
                List<WebElement> rows = driver.findElements(By.cssSelector("table.services tbody tr"));
                assertEquals(3, rows.size());
                assertEquals(List.of("relay <ack>", "7", HOSTILE),
                        rows.get(1).findElements(By.tagName("td")).subList(0, 3).stream().map(WebElement::getText).toList(),
                        "name, ServiceID and description shown as text");

                driver.findElement(By.linkText("relay <ack>")).click();
                wait.until(d -> d.getCurrentUrl().endsWith("/catalogue/7"));
                assertThrows(NoAlertPresentException.class, () -> driver.switchTo().alert(), "no script ran");
                assertEquals(HOSTILE, driver.findElement(By.cssSelector("p.description")).getText());

                WebElement diagram = driver.findElement(By.cssSelector(".diagram svg"));
                Dimension size = diagram.getSize();
                assertTrue(diagram.isDisplayed() && size.getWidth() > 50 && size.getHeight() > 50, "diagram drawn: " + size);
                List<String> states = diagram.findElements(By.tagName("text")).stream().map(WebElement::getText).toList();
                assertTrue(states.contains("idle") && states.contains("done"), "state names in the diagram: " + states);

                List<List<String>> params = driver.findElements(By.cssSelector("table.parameters tbody tr")).stream()
                        .map(r -> r.findElements(By.tagName("td")).stream().map(WebElement::getText).toList()).toList();
                assertEquals(List.of(List.of("TimeoutACK", "duration", "500", "Wait this long for an ACK."),
                        List.of("Verbose", "boolean", "false", "Log <every> step.")), params);

                WebElement download = driver.findElement(By.cssSelector("a.download"));
                assertEquals(server.baseUri().resolve("/services/7").toString(), download.getAttribute("href"));
                download.click();
                wait.until(d -> downloaded().isPresent());
                Path file = downloaded().orElseThrow();
                assertEquals("service-7.scxml", file.getFileName().toString());
                Await.until(() -> {
                    try {
                        return Files.size(file) == target.length;
                    } catch (IOException e) {
                        return false;
                    }
                }, WAIT, () -> "the download to be complete");
                assertArrayEquals(target, Files.readAllBytes(file), "the downloaded spec is the stored document");

                driver.findElement(By.linkText("Statecast spec server")).click();
                wait.until(d -> d.findElements(By.cssSelector("table.services tbody tr")).size() == 3);
            } finally {
                driver.quit();
                service.stop();
            }
        }
    }
}
