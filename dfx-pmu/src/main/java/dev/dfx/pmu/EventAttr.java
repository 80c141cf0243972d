package dev.dfx.pmu;

/**
 * The counting-relevant part of {@code struct perf_event_attr} (uapi {@code linux/perf_event.h}) for one
 * event: which PMU ({@code type}), the four config words, and the exclude/precision bits set by modifiers.
 * How a backend opens it (pid, cpu, inherit, enable_on_exec, read_format) is decided when it is opened.
 * Immutable.
 *
 * @param type          {@code perf_event_attr.type}: 0 hardware, 1 software, 2 tracepoint, 4 raw, or a PMU's type
 * @param config        {@code config}
 * @param config1       {@code config1}
 * @param config2       {@code config2}
 * @param config3       {@code config3}
 * @param excludeUser   {@code exclude_user}
 * @param excludeKernel {@code exclude_kernel}
 * @param excludeHv     {@code exclude_hv}
 * @param excludeIdle   {@code exclude_idle}
 * @param excludeHost   {@code exclude_host}
 * @param excludeGuest  {@code exclude_guest}
 * @param preciseIp     {@code precise_ip}, 0..3
 * @param pinned        {@code pinned}
 * @param exclusive     {@code exclusive}
 */
public record EventAttr(int type, long config, long config1, long config2, long config3,
                        boolean excludeUser, boolean excludeKernel, boolean excludeHv, boolean excludeIdle,
                        boolean excludeHost, boolean excludeGuest, int preciseIp, boolean pinned,
                        boolean exclusive) {

    /** @return an attr of that type and config, everything else zero */
    public static EventAttr of(int type, long config) {
        return new EventAttr(type, config, 0, 0, 0, false, false, false, false, false, false, 0, false, false);
    }

    /** @return the value of one config word */
    public long config(ConfigWord word) {
        return switch (word) {
            case CONFIG -> config;
            case CONFIG1 -> config1;
            case CONFIG2 -> config2;
            case CONFIG3 -> config3;
        };
    }

    /** @return whether any exclude bit is set (PMUs with PERF_PMU_CAP_NO_EXCLUDE reject such events) */
    public boolean excludesAnything() {
        return excludeUser || excludeKernel || excludeHv || excludeIdle || excludeHost || excludeGuest;
    }
}
