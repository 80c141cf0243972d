package dev.dfx.perf.text;

/** perf's size texts ({@code util/units.c unit_number__scnprintf}, {@code get_page_size_name}). Stateless. */
public final class Units {
    private Units() {
    }

    /** @return {@code n} in B, K, M or G, dividing by 1024 while the quotient stays above 1 (e.g. {@code 4K}) */
    public static String unitNumber(long n) {
        char[] unit = {'B', 'K', 'M', 'G'};
        int i = 0;
        while (Long.divideUnsigned(n, 1024) > 1 && i < 3) {
            n = Long.divideUnsigned(n, 1024);
            i++;
        }
        return Long.toUnsignedString(n) + unit[i];
    }

    /** @return a page size as perf prints it: {@link #unitNumber}, or {@code N/A} for 0 */
    public static String pageSize(long size) {
        return size == 0 ? "N/A" : unitNumber(size);
    }
}
