package dev.dfx.pmu.spec;

/**
 * One {@code name[=value]} term inside {@code pmu/.../}, or in an events/ alias file. Immutable.
 *
 * @param name      the term name, e.g. {@code se}, {@code config1}, {@code name}, or an alias name like {@code tsc}
 * @param value     the value
 * @param namePos   0-based position of the name in the spec (for errors about the term)
 * @param valuePos  0-based position of the value (for errors about the value); the name's position when bare
 */
public record Term(String name, TermValue value, int namePos, int valuePos) {

    /** @return whether the term has no value ({@code tsc} rather than {@code tsc=1}) */
    public boolean bare() {
        return value instanceof TermValue.None;
    }

    /** @return {@code name} or {@code name=value} as perf prints terms (numbers in lower-case hex) */
    @Override
    public String toString() {
        return switch (value) {
            case TermValue.None n -> name;
            case TermValue.Number n -> name + "=0x" + Long.toHexString(n.value());
            case TermValue.Text t -> name + "=" + t.text();
            case TermValue.Param p -> name + "=?";
        };
    }
}
