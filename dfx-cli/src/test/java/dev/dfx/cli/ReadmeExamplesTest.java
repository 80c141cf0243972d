package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's examples are run from the checkout's root: every file or run directory they write
 * ({@code -o PATH} of a {@code ./dfx} command) must be one git ignores, so that trying them leaves {@code git status}
 * clean: under {@code dfx-runs/} (which .gitignore lists), inside a run directory ({@code RUN/...}), absolute, or
 * standard output.
 */
class ReadmeExamplesTest {
    private static final Pattern OUTPUT = Pattern.compile("\\./dfx [^#\\n]*?(?:-o|--output) (\\S+)");

    @Test
    void everyOutputOfAReadmeExampleIsIgnoredByGit() throws IOException {
        Path root = RepoScripts.find("jdk.sh").getParent().getParent();
        assertThat(Files.readAllLines(root.resolve(".gitignore"))).contains("dfx-runs/");
        List<String> outputs = new ArrayList<>();
        Matcher m = OUTPUT.matcher(Files.readString(root.resolve("README.md")));
        while (m.find()) {
            outputs.add(m.group(1));
        }
        assertThat(outputs).as("the README has examples with -o").hasSizeGreaterThanOrEqualTo(3);
        assertThat(outputs).allSatisfy(o -> assertThat(o.startsWith("dfx-runs/") || o.startsWith("RUN/")
                || o.startsWith("/") || o.equals("-")).as(o).isTrue());
    }
}
