package dev.dfx.perf.read;

import dev.dfx.perf.data.Endian;

/**
 * The perf.data file header ({@code struct perf_file_header}, 104 bytes; {@code tools/perf/util/header.h}), or
 * the 16-byte pipe header ({@code struct perf_pipe_file_header}) of pipe mode. Immutable.
 *
 * @param endian      byte order chosen from the magic
 * @param pipe        whether this is a pipe-mode stream (sections then are all zero)
 * @param size        the header's own size field: 104 (file) or 16 (pipe)
 * @param attrSize    bytes per attrs-section entry: {@code attr.size + 16}
 * @param attrsOffset attrs section offset
 * @param attrsSize   attrs section size, bytes
 * @param dataOffset  data section offset
 * @param dataSize    data section size, bytes
 * @param features    the 256-bit {@code adds_features} bitmap as four u64 words
 */
public record FileHeader(Endian endian, boolean pipe, long size, long attrSize, long attrsOffset, long attrsSize,
                         long dataOffset, long dataSize, long[] features) {
    /** {@code "PERFILE2"} read as a little-endian u64. */
    public static final long MAGIC2 = 0x32454c4946524550L;

    /** @return whether feature bit {@code bit} is set */
    public boolean hasFeature(int bit) {
        return bit >= 0 && bit < 256 && (features[bit >>> 6] & (1L << (bit & 63))) != 0;
    }

    /** @return where the feature table starts: {@code data.offset + data.size} */
    public long featureOffset() {
        return dataOffset + dataSize;
    }
}
