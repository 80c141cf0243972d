package dev.dfx.export;

import dev.dfx.perf.profile.ProfileFrame;
import dev.dfx.perf.text.Utf8Names;

/**
 * How the profile exports name a frame, as flame-graph tools do: its symbol; where the symbol is unknown, the base
 * name of its DSO in brackets ({@code [libc.so.6]}, {@code [[kernel.kallsyms]]}: stackcollapse-perf.pl's naming),
 * or {@code [unknown]} outside any mapping. Decoded as UTF-8 ({@link Utf8Names}). Stateless.
 */
final class FrameNames {
    private FrameNames() {
    }

    /** @return the frame's name */
    static String of(ProfileFrame f) {
        if (f.sym() != null) {
            return Utf8Names.decode(f.sym().name());
        }
        if (f.map() != null) {
            String dso = f.dso();
            return "[" + Utf8Names.decode(dso.substring(dso.lastIndexOf('/') + 1)) + "]";
        }
        return ProfileFrame.UNKNOWN;
    }

    /** @return the frame's DSO path, decoded, or null outside any mapping */
    static String file(ProfileFrame f) {
        return f.map() != null ? Utf8Names.decode(f.dso()) : null;
    }
}
