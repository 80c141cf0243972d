package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The repository's documentation stands alone: every relative link in a Markdown file of the checkout (the README,
 * the module READMEs, {@code docs/*.md}, the test data READMEs) leads to a file or folder inside the repository, a
 * link into a Markdown file with a {@code #fragment} leads to one of its headings (GitHub's heading ids), and no
 * document sends the reader to the design folder that used to sit beside the checkout.
 */
class DocLinksTest {
    /** Folders that are build output or local data, not documentation. */
    private static final Set<String> SKIPPED_DIRS = Set.of("target", "node_modules", "dfx-runs");
    /** An inline link or image: {@code [text](target)} or {@code [text](target "title")}; group 1 is the target. */
    private static final Pattern INLINE_LINK = Pattern.compile("\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    /** A reference definition: {@code [id]: target}. */
    private static final Pattern REFERENCE_DEFINITION =
            Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s.*)?$");
    /** A URL scheme ({@code https:}, {@code mailto:}): not a file of the repository. */
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
    /** An ATX heading; group 1 is its text. */
    private static final Pattern HEADING = Pattern.compile("^\\s{0,3}#{1,6}\\s+(.*?)(?:\\s+#+)?\\s*$");
    /** A relative path that climbs folders ({@code ../x}), in a link or in prose. */
    private static final Pattern CLIMBING = Pattern.compile("(?<![\\w/])(?:\\.\\./)+[\\w.-]+");

    private final Map<Path, Set<String>> headingIds = new HashMap<>();

    @Test
    void everyRelativeLinkLeadsToAFileOfTheRepository() throws IOException {
        Path root = root();
        List<Path> docs = markdownFiles(root);
        assertThat(docs).as("Markdown files found").contains(root.resolve("README.md"),
                root.resolve("docs").resolve("README.md"), root.resolve("dfx-core").resolve("README.md"));
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path doc : docs) {
            List<String> lines = proseLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                for (String target : linkTargets(lines.get(i))) {
                    links++;
                    String problem = problem(root, doc, target);
                    if (problem != null) {
                        broken.add(root.relativize(doc) + ":" + (i + 1) + ": (" + target + ") " + problem);
                    }
                }
            }
        }
        assertThat(links).as("relative links checked").isGreaterThan(50);
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void noDocumentNamesAPathOutsideTheRepository() throws IOException {
        Path root = root();
        List<String> found = new ArrayList<>();
        for (Path doc : markdownFiles(root)) {
            List<String> lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = CLIMBING.matcher(lines.get(i));
                while (m.find()) {
                    if (!doc.getParent().resolve(m.group()).normalize().startsWith(root)) {
                        found.add(root.relativize(doc) + ":" + (i + 1) + ": " + m.group());
                    }
                }
            }
        }
        assertThat(found).as("paths that leave the repository: a fresh clone has nothing beside it").isEmpty();
    }

    /** Heading ids as GitHub renders them; the expected ids are GitHub's own for these headings. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "Hello World | hello-world",
        "`a.b` c | ab-c",
        "foo_foo_bar | foo_foo_bar",
        "heading with a period.txt | heading-with-a-periodtxt",
        "I ♥ unicode | i--unicode",
        "[sql2kv] sql encode error = [types:1292]invalid time format: '{1970 1 1 …}'"
            + " | sql2kv-sql-encode-error--types1292invalid-time-format-1970-1-1-",
        "Via [remark-cli](https://example.org) | via-remark-cli",
    })
    void headingIdsFollowGitHub(String heading, String id) {
        assertThat(headingId(heading)).isEqualTo(id);
    }

    @Test
    void repeatedHeadingsGetNumberedIds() throws IOException {
        Path doc = Files.createTempFile("headings", ".md");
        try {
            Files.writeString(doc, "# Title 1\n\n```\n# not a heading\n```\n\n# Title 1\n## Title 1\n");
            assertThat(ids(doc)).containsExactly("title-1", "title-1-1", "title-1-2");
        } finally {
            Files.delete(doc);
        }
    }

    @Test
    void linksInCodeAreNotLinks() {
        assertThat(linkTargets("see [a](a.md) and `[b](b.md)` and [c][x]")).containsExactly("a.md");
        assertThat(linkTargets("[`dfx-core`](../dfx-core/README.md \"the core\")"))
                .containsExactly("../dfx-core/README.md");
        assertThat(linkTargets("[x]: docs/README.md")).containsExactly("docs/README.md");
    }

    /** @return why {@code target}, a link in {@code doc}, does not resolve, or null when it does */
    private String problem(Path root, Path doc, String target) {
        if (SCHEME.matcher(target).find()) {
            return null;
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String fragment = hash < 0 ? null : target.substring(hash + 1);
        if (path.startsWith("/")) {
            return "is absolute; links must be relative to the document";
        }
        Path file = path.isEmpty() ? doc
                : doc.getParent().resolve(URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8))
                        .normalize();
        if (!file.startsWith(root)) {
            return "leads outside the repository";
        }
        if (!Files.exists(file)) {
            return "no such file";
        }
        if (fragment != null && file.getFileName().toString().endsWith(".md")
                && !ids(file).contains(URLDecoder.decode(fragment, StandardCharsets.UTF_8))) {
            return "no heading #" + fragment + " in " + root.relativize(file);
        }
        return null;
    }

    /** @return the link targets of one line of prose (code spans removed) */
    static List<String> linkTargets(String line) {
        String prose = line.replaceAll("(`+).*?\\1", "");
        List<String> targets = new ArrayList<>();
        Matcher def = REFERENCE_DEFINITION.matcher(prose);
        if (def.matches()) {
            targets.add(def.group(1));
            return targets;
        }
        Matcher m = INLINE_LINK.matcher(prose);
        while (m.find()) {
            targets.add(m.group(1));
        }
        return targets;
    }

    /** @return the heading ids of a Markdown file, in order */
    private Set<String> ids(Path doc) {
        return headingIds.computeIfAbsent(doc, d -> {
            Set<String> ids = new LinkedHashSet<>();
            Map<String, Integer> seen = new HashMap<>();
            for (String line : proseLines(d)) {
                Matcher m = HEADING.matcher(line);
                if (m.matches()) {
                    String id = headingId(m.group(1));
                    int n = seen.merge(id, 1, Integer::sum) - 1;
                    ids.add(n == 0 ? id : id + "-" + n);
                }
            }
            return ids;
        });
    }

    /**
     * GitHub's heading id: the heading's text as rendered (code marks dropped, a link replaced by its text),
     * lower-cased, every character that is not a letter, mark, digit, connector, space or hyphen removed, each
     * space replaced by a hyphen.
     */
    static String headingId(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replace("`", "");
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]", "").replace(' ', '-');
    }

    /** @return the lines of a Markdown file with fenced code blocks blanked (kept as empty lines, so numbers hold) */
    private static List<String> proseLines(Path doc) {
        List<String> lines;
        try {
            lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> prose = new ArrayList<>(lines.size());
        String fence = null;
        for (String line : lines) {
            String t = line.stripLeading();
            if (fence == null && (t.startsWith("```") || t.startsWith("~~~"))) {
                fence = t.substring(0, 3);
                prose.add("");
            } else if (fence != null) {
                if (t.startsWith(fence)) {
                    fence = null;
                }
                prose.add("");
            } else {
                prose.add(line);
            }
        }
        return prose;
    }

    /** @return every {@code *.md} file of the checkout outside build output and hidden folders, sorted */
    private static List<Path> markdownFiles(Path root) throws IOException {
        List<Path> found = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                String name = dir.getFileName().toString();
                boolean skip = !dir.equals(root) && (name.startsWith(".") || SKIPPED_DIRS.contains(name));
                return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (file.getFileName().toString().endsWith(".md")) {
                    found.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        found.sort(null);
        return found;
    }

    private static Path root() {
        return RepoScripts.find("jdk.sh").getParent().getParent().toAbsolutePath().normalize();
    }
}
