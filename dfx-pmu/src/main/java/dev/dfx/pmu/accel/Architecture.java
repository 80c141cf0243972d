package dev.dfx.pmu.accel;

import dev.dfx.error.BadInputException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The shape of a simulated accelerator: how many instances each dimension has, the counter slots per block, the
 * clock and the wave size the activity model uses. Two shapes follow the perf-dkms creators
 * ({@code gfx12_creator.c} older revision, {@code gfx9_creator.c}):
 * <ul>
 *   <li>{@link #GFX12}: 1 XCC x 4 SE x 2 SA x 4 WGP = 32 locations, 64 CU, wave32, 2000 MHz;</li>
 *   <li>{@link #GFX9}: 1 XCC x 4 SE x 1 SA x <b>0</b> WGP = 4 locations, 60 CU, wave64, 1800 MHz.</li>
 * </ul>
 * An architecture with zero WGPs per SA has no WGP level: locations are per SA and the WGP stride of the flat
 * index is 1 ({@link #wgpStride()}), so nothing divides by zero. Immutable.
 *
 * @param name       short name, e.g. {@code gfx12}
 * @param title      one line for {@code dfx list}
 * @param xccs       XCC count (at least 1)
 * @param ses        shader engines per XCC (at least 1)
 * @param sasPerSe   shader arrays per SE (at least 1)
 * @param wgpsPerSa  WGPs per SA (0 when the architecture has no WGP level)
 * @param cus        compute units in total
 * @param clockMhz   the clock the activity model turns task ns into cycles with
 * @param waveSize   lanes per wave (32 or 64)
 * @param slots      counter slots per block
 */
public record Architecture(String name, String title, int xccs, int ses, int sasPerSe, int wgpsPerSa, int cus,
                           int clockMhz, int waveSize, Map<Block, Integer> slots) {

    /** GFX12-like (RDNA4 class): 1 x 4 x 2 x 4, 64 CU. */
    public static final Architecture GFX12 = new Architecture("gfx12", "GFX12-like: 1 XCC x 4 SE x 2 SA x 4 WGP, 64 CU, wave32",
            1, 4, 2, 4, 64, 2000, 32, Map.of(Block.SQ, 8, Block.TA, 2, Block.GL2C, 4, Block.GRBM, 2));
    /** GFX9-like (gfx906 class): 1 x 4 x 1 x 0, 60 CU: no WGP level. */
    public static final Architecture GFX9 = new Architecture("gfx9", "GFX9-like: 1 XCC x 4 SE x 1 SA x 0 WGP, 60 CU, wave64",
            1, 4, 1, 0, 60, 1800, 64, Map.of(Block.SQ, 8, Block.TA, 2, Block.GL2C, 4, Block.GRBM, 2));

    /** Validates counts and copies the slot map. */
    public Architecture {
        if (xccs < 1 || ses < 1 || sasPerSe < 1 || wgpsPerSa < 0 || cus < 0 || xccs > 256 || ses > 256
                || sasPerSe > 256 || wgpsPerSa > 256 || cus > 256) {
            throw new IllegalArgumentException("architecture " + name + ": counts out of range");
        }
        Map<Block, Integer> s = new EnumMap<>(Block.class);
        s.putAll(slots);
        for (Block b : Block.values()) {
            if (s.getOrDefault(b, 0) < 1 || s.get(b) > 64) {
                throw new IllegalArgumentException("architecture " + name + ": block " + b + " needs 1..64 slots");
            }
        }
        slots = Map.copyOf(s);
    }

    /** @return the built-in architectures */
    public static List<Architecture> builtIn() {
        return List.of(GFX12, GFX9);
    }

    /**
     * @param name {@code gfx12} or {@code gfx9} (any case)
     * @return that architecture
     * @throws BadInputException naming the known ones otherwise
     */
    public static Architecture byName(String name) {
        for (Architecture a : builtIn()) {
            if (a.name.equalsIgnoreCase(name)) {
                return a;
            }
        }
        throw new BadInputException("unknown accelerator architecture '" + name + "' (expected gfx12 or gfx9)");
    }

    /** @return the instance count of a dimension (0 for WGP on an architecture without WGPs) */
    public int count(Dimension d) {
        return switch (d) {
            case XCC -> xccs;
            case SE -> ses;
            case SA -> sasPerSe;
            case WGP -> wgpsPerSa;
            case CU -> cus;
        };
    }

    /** @return the highest valid index of a dimension, or -1 when the dimension has no instances */
    public int max(Dimension d) {
        return count(d) - 1;
    }

    /** @return the WGP stride of the flat index: WGPs per SA, or 1 when there are none */
    public int wgpStride() {
        return Math.max(1, wgpsPerSa);
    }

    /** @return locations per XCC: {@code ses * sasPerSe * wgpStride()} */
    public int locationsPerXcc() {
        return ses * sasPerSe * wgpStride();
    }

    /** @return all locations: {@code xccs * locationsPerXcc()} */
    public int locations() {
        return xccs * locationsPerXcc();
    }

    /** @return whether the architecture has a WGP level */
    public boolean hasWgps() {
        return wgpsPerSa > 0;
    }

    /** @return counter slots of a block */
    public int slots(Block b) {
        return slots.get(b);
    }
}
