package dev.dfx.export.html;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.export.SliceFlows;
import dev.dfx.record.TaskId;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.interactions.WheelInput;

/**
 * The viewer at a million task bars (8 cores x 125 000 bars of 0.5..2 µs with gaps, seeded): the page loads in
 * Chromium without a console error, reports every bar, draws them merged to at most a few rectangles per pixel
 * column (level of detail), zooms with the wheel and shows a known task's id on hover. The load time the page
 * measures is printed, not asserted (the machine is shared).
 */
class ViewerScaleTest {
    private static final int CORES = 8;
    private static final int PER_CORE = 125_000;

    @TempDir
    Path tmp;

    @Test
    void aMillionTaskBarsLoadDrawMergedZoomAndHover() throws Exception {
        ViewerTrace trace = new ViewerTrace(0);
        trace.process(3, "Cores", 2);
        SplittableRandom random = new SplittableRandom(42);
        long id = 0;
        for (int c = 0; c < CORES; c++) {
            trace.thread(3, c, "core " + c, c);
            long t = 1_000_000;
            for (int i = 0; i < PER_CORE; i++) {
                long dur = 500 + random.nextLong(1500);
                Map<String, Object> args = new LinkedHashMap<>();
                args.put("task_id", TaskId.text(id++));
                args.put("func_id", i % 7);
                trace.complete(3, c, "kernel_" + (i % 7) + "(t" + id + ")", "task", t, dur, args, SliceFlows.NONE);
                t += dur + 100 + random.nextLong(400);
            }
        }
        Path page = tmp.resolve("million.html");
        try (OutputStream out = Files.newOutputStream(page)) {
            HtmlViewer.page(out, "a million bars", trace, g -> g.writeStringField("source", "synthetic"));
        }
        try (HeadlessChromium browser = HeadlessChromium.start()) {
            browser.open(page);
            assertThat(browser.consoleErrors()).isEmpty();
            Map<String, Object> stats = browser.stats();
            assertThat(((Number) stats.get("slices")).longValue()).isEqualTo((long) CORES * PER_CORE);
            assertThat(((Number) stats.get("rows")).longValue()).isEqualTo(CORES);
            // level of detail: at most a rectangle per pixel column and row, far fewer than the bars
            long width = ((Number) browser.js("return document.querySelector('#timeline canvas').clientWidth"))
                    .longValue();
            assertThat(((Number) stats.get("drawnRects")).longValue()).isPositive().isLessThanOrEqualTo(CORES * width);
            System.out.printf("viewer: %d bars, page %d MB, loaded and drawn in %.0f ms (page's own measure)%n",
                    CORES * PER_CORE, Files.size(page) >> 20, ((Number) stats.get("loadMs")).doubleValue());

            WebElement canvas = browser.driver().findElement(By.cssSelector("#timeline canvas"));
            List<?> before = (List<?>) browser.js("return window.dfxViewer.visibleRange()");
            new Actions(browser.driver()).scrollFromOrigin(WheelInput.ScrollOrigin.fromElement(canvas, 100, 0), 0,
                    -500).perform();
            List<?> after = (List<?>) browser.js("return window.dfxViewer.visibleRange()");
            assertThat(span(after)).isLessThan(0.5 * span(before));

            String task = TaskId.text(777_777);
            @SuppressWarnings("unchecked")
            Map<String, Object> at = (Map<String, Object>) browser.js("return window.dfxViewer.focusTask(arguments[0])",
                    task);
            new Actions(browser.driver()).moveToLocation(((Number) at.get("x")).intValue(),
                    ((Number) at.get("y")).intValue()).perform();
            assertThat((String) browser.js("return window.dfxViewer.tipText()")).contains("task id " + task);
            browser.screenshot("million");
            assertThat(browser.consoleErrors()).isEmpty();
        }
    }

    private static double span(List<?> range) {
        return ((Number) range.get(1)).doubleValue() - ((Number) range.get(0)).doubleValue();
    }
}
