package dev.dfx.perf.read;

import dev.dfx.pmu.attr.PerfEventAttr;


/**
 * One entry of the attrs section: an attr and the sample ids of its file descriptors.
 *
 * @param attr   the event's attr
 * @param ids    its sample ids (may be empty when the file has a single event)
 * @param offset byte offset of the attr in the file
 */
public record AttrEntry(PerfEventAttr attr, long[] ids, long offset) {
}
