package dev.dfx.pmu.linux;

import dev.dfx.error.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The online CPUs, from {@code /sys/devices/system/cpu/online} (a cpu list such as {@code 0-3,6}, kernel
 * {@code Documentation/admin-guide/cputopology.rst}). Stateless.
 */
public final class OnlineCpus {
    private static final Path ONLINE = Path.of("/sys/devices/system/cpu/online");

    private OnlineCpus() {
    }

    /**
     * @return the online CPUs, ascending
     * @throws BadInputException when the file is missing or malformed
     */
    public static List<Integer> read() {
        try {
            return parse(Files.readString(ONLINE));
        } catch (IOException e) {
            throw new BadInputException(ONLINE + ": cannot read the online CPU list (" + e.getMessage() + ")", e);
        }
    }

    /**
     * @param list a cpu list, e.g. {@code 0-3,6\n}
     * @return the CPUs, ascending
     * @throws BadInputException when it is not a cpu list
     */
    public static List<Integer> parse(String list) {
        List<Integer> out = new ArrayList<>();
        for (String part : list.strip().split(",")) {
            if (part.isEmpty()) {
                continue;
            }
            try {
                int dash = part.indexOf('-');
                int from = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
                int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1));
                if (to < from) {
                    throw new NumberFormatException("reversed");
                }
                for (int c = from; c <= to; c++) {
                    out.add(c);
                }
            } catch (NumberFormatException e) {
                throw new BadInputException("cpu list '" + list.strip() + "': '" + part + "' is not N or N-M", e);
            }
        }
        return out;
    }
}
