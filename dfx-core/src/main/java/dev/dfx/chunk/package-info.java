/**
 * The chunk store: one file per subsystem, {@code RUN/chunks/<subsystem>.dfx}, holding one chunk per drained buffer.
 *
 * <h2>File format, version 3</h2>
 * All integers are little-endian and unsigned unless noted; every structure starts at a file offset that is a
 * multiple of 8. Checksums are CRC32C ({@link java.util.zip.CRC32C}, the Castagnoli polynomial of iSCSI and ext4).
 * Version 2 adds one chunk flag, {@code ZERO_BLOCKS}; a version 1 file is the same layout with every chunk's flags 0.
 * Version 3 adds the run id to the file header (16 bytes at offset 24; the subsystem name moves from offset 24 to
 * 40), so that a chunk file names the run that wrote it; versions 1 and 2 have no run id. Readers read all three.
 *
 * <pre>
 * file      = file-header chunk* [chunk-index trailer]
 *
 * file-header (40 + name + kinds bytes; versions 1 and 2: 24 + name + kinds)
 *   0  u8[8] magic "DFXCHUNK"
 *   8  u16   format version (3; 1 and 2 are read too)
 *  10  u16   kind count k (1..65535)
 *  12  u32   header length in bytes (multiple of 8; the first chunk starts here)
 *  16  u32   CRC32C of header bytes [0,16) followed by [20, header length)
 *  20  u16   subsystem name length n (1..255 bytes of UTF-8)
 *  22  u16   reserved, 0
 *  24  u64   run id, high 64 bits (version 3; the run.json {@code run_id} is these 32 hex digits, high word first)
 *  32  u64   run id, low 64 bits (version 3)
 *  40  u8[n] subsystem name, then zeros up to a multiple of 8 (versions 1 and 2: at offset 24)
 *      k kind entries, each 16 bytes + name:
 *       0 u16 kind id (subsystem-local, unique in the table)
 *       2 u16 kind name length m (1..255 bytes of UTF-8)
 *       4 u32 record size in bytes (1..2^30)
 *       8 u32 byte offset of the primary timestamp field inside a record (0 when there is none)
 *      12 u8  timestamp width: 0 none, 4 (u32 ns) or 8 (u64 ns); offset + width &lt;= record size
 *      13 u8[3] reserved, 0
 *      16 u8[m] kind name, then zeros up to a multiple of 8
 *
 * chunk (64-byte header + stored payload, padded with zeros to a multiple of 8)
 *   0  u32 magic "CHNK"
 *   4  u16 kind id (must be in the kind table)
 *   6  u16 flags: bit 0 ZERO_BLOCKS (payload stored zero-block encoded; version 2 only); other bits 0
 *   8  u32 lane
 *  12  u32 record size (must equal the kind table's)
 *  16  u64 seq (per (kind, lane) buffer sequence number; a missing value is a lost buffer)
 *  24  u32 record count
 *  28  u32 CRC32C of the stored payload (padding excluded)
 *  32  u64 first timestamp ns (timestamp field of the first record; 0 when the kind has none or count is 0)
 *  40  u64 last timestamp ns (timestamp field of the last record; same rule)
 *  48  u64 stored payload length in bytes: record count x record size, or, with ZERO_BLOCKS, the length of the
 *          encoding below
 *  56  u32 reserved, 0
 *  60  u32 CRC32C of header bytes [0,60)
 *
 * zero-block encoding of a payload of L = record count x record size bytes (ZERO_BLOCKS)
 *   the payload is cut into B = ceil(L / 64) blocks of 64 bytes (the last one L - 64 (B - 1) bytes long)
 *   0  u64[ceil(B / 64)] bitmap: bit i % 64 of word i / 64 is set when block i holds a non-zero byte; bits >= B are 0
 *      then the blocks whose bit is set, in block order, each at its length; no padding between them
 *   decoding: L zero bytes, then each stored block copied to offset 64 i
 *
 * chunk-index (written by close(), after the last chunk)
 *   0  u8[8] magic "DFXINDEX"
 *   8  u64   chunk count c
 *  16  c entries of 48 bytes, in file order:
 *       0 u64 chunk file offset   8 u64 seq   16 u64 first timestamp   24 u64 last timestamp
 *      32 u32 lane   36 u32 record count   40 u16 kind id   42 u8[6] reserved, 0
 *
 * trailer (the last 32 bytes of a closed file)
 *   0  u64   chunk-index file offset
 *   8  u64   chunk count (equals the index's)
 *  16  u32   CRC32C of the whole chunk index
 *  20  u32   CRC32C of trailer bytes [0,20)
 *  24  u8[8] magic "DFXTRAIL"
 * </pre>
 *
 * <p>A file whose writer died has no valid trailer; {@link dev.dfx.chunk.ChunkReader} then scans chunks from the end
 * of the file header and keeps every complete chunk up to the first one that the end of the file cuts short
 * (see {@link dev.dfx.chunk.Recovery}). Everything else that does not match this layout is a
 * {@link dev.dfx.error.BadInputException} naming the file and byte offset, unless the file is opened leniently
 * ({@code ChunkReader.open(path, damage)}): then a chunk whose header or payload checksum fails is skipped and
 * reported as a {@link dev.dfx.chunk.ChunkDamage}, an unusable index is replaced by a scan, and a scan resumes at
 * the next valid chunk header (8-aligned, magic and header checksum).
 */
package dev.dfx.chunk;
