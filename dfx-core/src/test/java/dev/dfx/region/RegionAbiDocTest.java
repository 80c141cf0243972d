package dev.dfx.region;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.pipeline.RegionLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/region-abi.md} is what a C programmer builds a producer from: every offset and constant its tables
 * state is held here against the code ({@link RegionLayout}, {@link UserEvent}), every field constant of the code
 * appears in the document, and the fields of each table are in order without overlapping.
 */
class RegionAbiDocTest {
    private static final Path DOC = Path.of("..", "docs", "region-abi.md");
    private static final Pattern CONSTANT = Pattern.compile("^`([A-Za-z]+\\.)?([A-Z0-9_]+)`$");
    private static final Pattern ENTRY_BYTES = Pattern.compile("\\((\\d+) bytes");
    private static final Map<String, Integer> TYPE_BYTES = Map.of("u8", 1, "u16", 2, "u32", 4, "u64", 8);

    private record Row(String section, long offset, String type, String constant, Object value) {
    }

    @Test
    void everyDocumentedOffsetAndConstantMatchesTheCode() throws Exception {
        List<String> lines = Files.readAllLines(DOC);
        String section = "";
        List<Row> fields = new ArrayList<>();
        int constants = 0;
        for (String line : lines) {
            if (line.startsWith("## ")) {
                section = line.substring(3);
                continue;
            }
            if (!line.startsWith("| ") || line.startsWith("|---")) {
                continue;
            }
            String[] cells = line.substring(1, line.length() - 1).split(" \\| ", -1);
            for (int i = 0; i < cells.length; i++) {
                cells[i] = cells[i].trim();
            }
            if (section.equals("Constants") && cells.length == 3 && CONSTANT.matcher(cells[2]).matches()) {
                Object v = value(cells[2]);
                long code = v instanceof Integer i ? Integer.toUnsignedLong(i) : ((Number) v).longValue();
                assertThat(code).as("%s (%s)", cells[2], cells[0])
                        .isEqualTo(parse(cells[1]));
                constants++;
            } else if (cells.length == 6 && CONSTANT.matcher(cells[3]).matches()) {
                Object v = value(cells[3]);
                assertThat(((Number) v).longValue()).as("%s: offset of %s (%s)", section, cells[2], cells[3])
                        .isEqualTo(parse(cells[0]));
                fields.add(new Row(section, parse(cells[0]), cells[1], cells[3], v));
            }
        }
        assertThat(constants).isGreaterThanOrEqualTo(20);
        assertThat(fields).hasSizeGreaterThan(70);

        // Within a table, fields are in offset order and do not overlap; a sized entry holds them all.
        for (int i = 0; i + 1 < fields.size(); i++) {
            Row a = fields.get(i);
            Row b = fields.get(i + 1);
            if (a.section().equals(b.section()) && TYPE_BYTES.containsKey(a.type())) {
                assertThat(a.offset() + TYPE_BYTES.get(a.type())).as("%s: %s ends before %s", a.section(),
                        a.constant(), b.constant()).isLessThanOrEqualTo(b.offset());
            }
        }
        for (Row r : fields) {
            Matcher m = ENTRY_BYTES.matcher(r.section());
            if (m.find() && TYPE_BYTES.containsKey(r.type())) {
                assertThat(r.offset() + TYPE_BYTES.get(r.type())).as("%s fits its entry", r.constant())
                        .isLessThanOrEqualTo(Long.parseLong(m.group(1)));
            }
        }
        Row headerEnd = fields.stream().filter(r -> r.section().equals("Header")).reduce((x, y) -> y).orElseThrow();
        assertThat(headerEnd.offset() + 8).isLessThanOrEqualTo(RegionLayout.HEADER_BYTES);

        // Every field constant of the code is documented.
        Set<String> documented = new HashSet<>();
        fields.forEach(r -> documented.add(r.constant().replace("`", "").replace("UserEvent.", "")));
        List<String> missing = new ArrayList<>();
        for (Class<?> c : List.of(RegionLayout.class, UserEvent.class)) {
            for (Field f : c.getFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getType() == long.class
                        && f.getName().matches("(H|K|T|B|P|S|RQ|E|L|U)_[A-Z0-9_]+")
                        && !documented.contains(f.getName())) {
                    missing.add(f.getName());
                }
            }
        }
        assertThat(missing).as("field constants missing from %s", DOC).isEmpty();
    }

    private static Object value(String cell) throws ReflectiveOperationException {
        Matcher m = CONSTANT.matcher(cell);
        assertThat(m.matches()).isTrue();
        Class<?> c = "UserEvent.".equals(m.group(1)) ? UserEvent.class : RegionLayout.class;
        return c.getField(m.group(2)).get(null);
    }

    private static long parse(String v) {
        return v.startsWith("0x") ? Long.parseLong(v.substring(2), 16) : Long.parseLong(v);
    }
}
