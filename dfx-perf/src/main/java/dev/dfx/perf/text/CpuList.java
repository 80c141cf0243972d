package dev.dfx.perf.text;

import java.util.ArrayList;
import java.util.List;

/**
 * perf's cpu list texts: {@code cpu_map__snprint} ({@code "0-3,8"} from a list of cpus, consecutive runs
 * joined) and parsing of a cpu list string ({@code perf_cpu_map__new}). Stateless.
 */
public final class CpuList {
    private CpuList() {
    }

    /** @return the ranges of {@code cpus} as perf prints them, e.g. {@code "0-1"} */
    public static String format(int[] cpus) {
        StringBuilder sb = new StringBuilder();
        int n = cpus.length;
        int start = -1;
        boolean first = true;
        for (int i = 0; i <= n; i++) {
            boolean last = i == n;
            int cpu = last ? Integer.MAX_VALUE : cpus[i];
            if (start == -1) {
                start = i;
                if (last && n > 0) {
                    sb.append(first ? "" : ",").append(cpus[i - 1]);
                }
            } else if (i - start != cpu - cpus[start] || last) {
                int end = i - 1;
                sb.append(first ? "" : ",");
                if (start == end) {
                    sb.append(cpus[start]);
                } else {
                    sb.append(cpus[start]).append('-').append(cpus[end]);
                }
                first = false;
                start = i;
            }
        }
        return sb.toString();
    }

    /** @return the cpus of a list such as {@code "0-3,8"}, sorted and without duplicates */
    public static int[] parse(String s) {
        List<Integer> out = new ArrayList<>();
        for (String part : s.trim().split(",")) {
            if (part.isEmpty()) {
                continue;
            }
            int dash = part.indexOf('-');
            try {
                if (dash > 0) {
                    int a = Integer.parseInt(part.substring(0, dash).trim());
                    int b = Integer.parseInt(part.substring(dash + 1).trim());
                    for (int c = a; c <= b; c++) {
                        out.add(c);
                    }
                } else {
                    out.add(Integer.parseInt(part.trim()));
                }
            } catch (NumberFormatException e) {
                break;
            }
        }
        return out.stream().distinct().sorted().mapToInt(Integer::intValue).toArray();
    }
}
