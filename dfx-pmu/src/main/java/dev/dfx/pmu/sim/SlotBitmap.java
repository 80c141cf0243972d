package dev.dfx.pmu.sim;

/**
 * The counter slots of one hardware block as a bitmap, the way a PMU driver tracks them
 * ({@code DECLARE_BITMAP(used_mask, ...)} in the perf-dkms {@code struct amdgpu_pmu}): {@link #claim} takes the
 * lowest free slot, {@link #release} frees it. At most 64 slots. Not thread-safe: the owning PMU calls it under
 * its event context's lock.
 */
public final class SlotBitmap {
    private final int capacity;
    private long used;

    /**
     * @param capacity number of slots, 1..64
     * @throws IllegalArgumentException outside 1..64
     */
    public SlotBitmap(int capacity) {
        if (capacity < 1 || capacity > 64) {
            throw new IllegalArgumentException("slot count " + capacity + " (expected 1..64)");
        }
        this.capacity = capacity;
    }

    /** @return the number of slots */
    public int capacity() {
        return capacity;
    }

    /** @return the number of slots in use */
    public int used() {
        return Long.bitCount(used);
    }

    /** @return the lowest free slot, now marked used, or -1 when all are taken */
    public int claim() {
        long free = ~used & (capacity == 64 ? -1L : (1L << capacity) - 1);
        if (free == 0) {
            return -1;
        }
        int slot = Long.numberOfTrailingZeros(free);
        used |= 1L << slot;
        return slot;
    }

    /**
     * @param slot a slot returned by {@link #claim}
     * @throws IllegalStateException when the slot is not in use (a double release is a driver bug)
     */
    public void release(int slot) {
        if (slot < 0 || slot >= capacity || (used & (1L << slot)) == 0) {
            throw new IllegalStateException("slot " + slot + " is not in use");
        }
        used &= ~(1L << slot);
    }

    /** @return the bitmap, bit i set when slot i is in use */
    public long bits() {
        return used;
    }
}
