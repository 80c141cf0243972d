package dev.dfx.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recorded fixtures come from the repository itself: {@code testdata/perf} sits under the folder holding the
 * root pom, every recording its README lists is there with its command, and a folder that is not the repository's
 * test data is refused instead of being used.
 */
class FixturesTest {
    @Test
    void theFixturesAreTheRepositorysOwn() throws IOException {
        Path root = Fixtures.testdataDir().getParent();
        assertThat(root.resolve("pom.xml")).isRegularFile();
        assertThat(root.resolve(".ci/run")).isRegularFile();
        assertThat(Fixtures.perf("irq-a.data")).isEqualTo(root.resolve("testdata/perf/irq-a.data")).isRegularFile();
    }

    @Test
    void everyRecordingTheReadmeListsIsPresentWithItsCommand() throws IOException {
        String readme = Files.readString(Fixtures.perf("README.md"));
        Matcher m = Pattern.compile("^\\| `([^`]+\\.data)` \\| `([^`]+)`", Pattern.MULTILINE).matcher(readme);
        int listed = 0;
        while (m.find()) {
            listed++;
            String data = m.group(1);
            String stem = data.substring(0, data.length() - ".data".length());
            assertThat(Fixtures.perf(data)).isRegularFile();
            assertThat(Fixtures.perf(stem + ".dump.txt")).isRegularFile();
            assertThat(Files.readString(Fixtures.perf(stem + ".cmd"))).startsWith("perf record").contains(data);
        }
        try (Stream<Path> files = Files.list(Fixtures.perfDir())) {
            List<Path> recordings = files.filter(p -> p.getFileName().toString().endsWith(".data")).toList();
            assertThat(listed).isEqualTo(recordings.size()).isGreaterThanOrEqualTo(14);
        }
    }

    @Test
    void aFolderThatIsNotTheRepositorysTestDataIsRefused(@TempDir Path tmp) {
        String before = System.getProperty(Fixtures.PROPERTY);
        try {
            System.setProperty(Fixtures.PROPERTY, tmp.toString());
            assertThatThrownBy(Fixtures::testdataDir).isInstanceOf(IllegalStateException.class)
                    .hasMessage("no test data in " + tmp + " (-Ddfx.testdata.dir); expected " + tmp.resolve("perf/README.md"));
        } finally {
            if (before == null) {
                System.clearProperty(Fixtures.PROPERTY);
            } else {
                System.setProperty(Fixtures.PROPERTY, before);
            }
        }
    }
}
