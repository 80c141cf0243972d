package dev.dfx.pmu;

/**
 * One of the four 64-bit configuration words of {@code struct perf_event_attr} that a format field can map
 * into: {@code config}, {@code config1}, {@code config2}, {@code config3} (uapi {@code linux/perf_event.h};
 * {@code config3} since Linux 6.3). The sysfs format grammar names them {@code config}, {@code config1}, ...
 * ({@code tools/perf/util/pmu.y}).
 */
public enum ConfigWord {
    CONFIG("config"),
    CONFIG1("config1"),
    CONFIG2("config2"),
    CONFIG3("config3");

    private final String termName;

    ConfigWord(String termName) {
        this.termName = termName;
    }

    /** @return the term that sets the whole word on the command line and in format files, e.g. {@code config1} */
    public String termName() {
        return termName;
    }

    /** @return 0 for {@code config}, 1 for {@code config1}, ... */
    public int index() {
        return ordinal();
    }

    /**
     * @param index 0..3
     * @return the word with that index
     * @throws IllegalArgumentException when the index is outside 0..3
     */
    public static ConfigWord ofIndex(int index) {
        if (index < 0 || index > 3) {
            throw new IllegalArgumentException("config word index " + index + " (expected 0..3)");
        }
        return values()[index];
    }

    /** @return the word whose term name is {@code name} (e.g. {@code config2}), or null when none is */
    public static ConfigWord ofTermName(String name) {
        for (ConfigWord w : values()) {
            if (w.termName.equals(name)) {
                return w;
            }
        }
        return null;
    }
}
