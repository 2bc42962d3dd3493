package org.mpjlite.smpdev;

/** The body of one rank: runs on the rank's thread, with the rank bound to that thread. */
@FunctionalInterface
public interface RankTask {
    /** Runs the rank; the return value becomes the rank's result. */
    Object run(Rank rank) throws Throwable;
}
