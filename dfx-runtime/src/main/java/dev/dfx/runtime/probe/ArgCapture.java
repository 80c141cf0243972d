package dev.dfx.runtime.probe;

/**
 * Which arguments a scheduler probe wants to see in {@link SchedulerProbe#argCaptured}: the scheduler skips the
 * calls for the others (on a flood of small tasks, four calls per task that a probe recording only marked arguments
 * would ignore).
 */
public enum ArgCapture {
    /** None: {@code argCaptured} is never called. */
    NONE,
    /** Only the arguments the program marked for dumping ({@link ArgView#marked()}). */
    MARKED,
    /** Every argument, at both stages. */
    ALL;

    /** @return the wider of this and {@code other}: what a probe that hands each call to both needs */
    public ArgCapture union(ArgCapture other) {
        return compareTo(other) >= 0 ? this : other;
    }
}
