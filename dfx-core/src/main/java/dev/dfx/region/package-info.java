/**
 * The shared-memory region that producers in other processes write into (docs/region-abi.md): its host side
 * ({@link dev.dfx.region.RegionHost}), its configuration ({@link dev.dfx.region.RegionSpec}), the user-event
 * record ({@link dev.dfx.region.UserEvent}) and per-lane string tables, and the Java reader of a region file's
 * header ({@link dev.dfx.region.RegionHeader}). The byte layout is the ABI, documented in
 * {@code docs/region-abi.md}; the C producer library is {@code include/dfx.h}.
 */
package dev.dfx.region;
