package dev.dfx.perf.report;

import dev.dfx.perf.data.Feature;
import dev.dfx.perf.feature.FeatureData.Group;
import dev.dfx.perf.feature.FeatureData.GroupDesc;
import dev.dfx.perf.feature.FeatureParser;
import dev.dfx.perf.session.Evsel;
import dev.dfx.perf.session.PerfSession;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The recording's event groups as {@code perf report} (6.1) sees them: each event's leader and a leader's member
 * count, rebuilt from the GROUP_DESC feature as {@code util/header.c process_group_desc} does, or, where the recording
 * has no groups and {@code --group} or {@code --no-group} was given, one group of all events led by the first
 * ({@code evlist__force_leader}: perf then names it without {@code "anon group { }"}); and whether the report shows a
 * group as one table ({@code symbol_conf.event_group}: on unless {@code --no-group}). Immutable.
 */
final class EventGroups {
    /** GROUP_DESC's name of a group the user did not name. */
    private static final String ANON_GROUP = "{anon_group}";

    private final List<Evsel> evsels;
    /** Each event's leader, by evlist index. */
    private final int[] leader;
    /** A leader's member count, the leader included; 1 for other events. */
    private final int[] members;
    /** A leader's group name, or null for {@code anon group}. */
    private final String[] names;
    private final boolean forced;
    private final boolean view;

    private EventGroups(List<Evsel> evsels, int[] leader, int[] members, String[] names, boolean forced,
                        boolean view) {
        this.evsels = evsels;
        this.leader = leader;
        this.members = members;
        this.names = names;
        this.forced = forced;
        this.view = view;
    }

    /**
     * @param group {@code --group} (true), {@code --no-group} (false), or null when neither was given
     * @return the groups of {@code session}'s events as read so far
     */
    static EventGroups of(PerfSession session, Boolean group) {
        List<Evsel> evsels = session.evlist().all();
        int n = evsels.size();
        int[] leader = new int[n];
        int[] members = new int[n];
        String[] names = new String[n];
        for (int i = 0; i < n; i++) {
            leader[i] = i;
            members[i] = 1;
        }
        List<Group> groups = groups(session);
        boolean forced = groups.isEmpty() && group != null && n > 0;
        if (forced) {
            for (int i = 0; i < n; i++) {
                leader[i] = 0;
            }
            members[0] = n;
        } else {
            // process_group_desc: the groups in evlist order, each leader followed by its other members
            int g = 0;
            int left = 0;
            for (int i = 0; i < n; i++) {
                if (g < groups.size() && groups.get(g).leader() == i) {
                    Group d = groups.get(g++);
                    names[i] = d.name().equals(ANON_GROUP) ? null : d.name();
                    members[i] = (int) Math.max(1, Math.min(d.members(), n - i));
                    left = members[i] - 1;
                } else if (left > 0) {
                    leader[i] = leader[i - 1];
                    left--;
                }
            }
        }
        return new EventGroups(evsels, leader, members, names, forced, !Boolean.FALSE.equals(group));
    }

    private static List<Group> groups(PerfSession session) {
        MemorySegment data = session.features().get(Feature.GROUP_DESC.bit());
        if (data == null) {
            return List.of();
        }
        var parsed = FeatureParser.parse(Feature.GROUP_DESC, data, session.file().endian(), 0);
        return parsed.data() instanceof GroupDesc d ? d.groups() : List.of();
    }

    /** @return whether groups are shown as one table ({@code symbol_conf.event_group}) */
    boolean view() {
        return view;
    }

    /** @return the leader of {@code e}'s group ({@code e} itself when it leads or is in none) */
    Evsel leader(Evsel e) {
        return evsels.get(leader[e.index()]);
    }

    /** @return {@code evsel->core.nr_members}: a leader's member count with itself, 1 for any other event */
    int members(Evsel e) {
        return members[e.index()];
    }

    /** @return {@code evsel__group_idx}: the place of {@code e} in its group, the leader's 0 */
    int groupIndex(Evsel e) {
        return e.index() - leader[e.index()];
    }

    /** @return {@code evsel__is_group_event}: whether {@code e} leads a group of more than one shown as one table */
    boolean groupEvent(Evsel e) {
        return view && leader[e.index()] == e.index() && members[e.index()] > 1;
    }

    /**
     * perf report writes a group's description into a 512-byte buffer ({@code hists__fprintf_nr_sample_events}),
     * so {@code scnprintf} keeps at most 511 bytes of it (one per character of the ASCII event names).
     */
    private static final int DESCRIPTION_MAX = 511;

    /**
     * @return {@code evsel__group_desc} of a leader: {@code NAME { leader, member, ... }} with {@code anon group}
     *         for an unnamed group, or the bare list for a group forced by {@code --group}; cut to the
     *         {@value #DESCRIPTION_MAX} characters perf report's buffer holds
     */
    String description(Evsel leader) {
        StringBuilder b = new StringBuilder();
        int i = leader.index();
        if (!forced) {
            b.append(names[i] != null ? names[i] : "anon group").append(" { ");
        }
        b.append(leader.name());
        for (int m = 1; m < members[i]; m++) {
            b.append(", ").append(evsels.get(i + m).name());
        }
        if (!forced) {
            b.append(" }");
        }
        b.setLength(Math.min(b.length(), DESCRIPTION_MAX));
        return b.toString();
    }
}
