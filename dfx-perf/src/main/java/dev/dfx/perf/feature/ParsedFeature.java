package dev.dfx.perf.feature;

import dev.dfx.perf.data.Feature;

/**
 * One feature section after {@link FeatureParser}. Immutable.
 *
 * @param feature  which feature
 * @param data     its value; what was read before the section ran out when not {@code complete}
 * @param complete whether the section held everything its counts and lengths announce. perf's {@code process_*}
 *                 functions fail a section that does not; in pipe mode that fails the whole run
 */
public record ParsedFeature(Feature feature, FeatureData data, boolean complete) {
}
