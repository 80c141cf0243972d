package dev.dfx.pmu.spec;

import java.util.List;

/**
 * One item of an event list: a single event, or a braced group {@code {a,b}:mods} whose first member is the
 * group leader. Immutable.
 *
 * @param members   the events, leader first; at least one
 * @param modifiers the group's modifiers (applied on top of each member's), {@link Modifiers#NONE} when none
 * @param braced    whether the item was written as a {@code {...}} group
 */
public record EventGroupSpec(List<EventSpec> members, Modifiers modifiers, boolean braced) {
    /** Copies the member list. */
    public EventGroupSpec {
        members = List.copyOf(members);
    }
}
