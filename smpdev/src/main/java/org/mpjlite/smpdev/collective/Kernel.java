package org.mpjlite.smpdev.collective;

/**
 * One member's share of a collective, once every member has published its part: move (or reduce)
 * data into result buffers, reading the others' contributions. Usually the share is what the
 * member itself receives; for large Bcast and Allreduce it is a slice of every member's result, so
 * that all cores copy. The shares of different members never write the same elements, so the
 * members' kernels may run at once (blocking collectives: each member runs its own) or one after
 * another (non-blocking collectives: the last member to arrive runs them all).
 */
@FunctionalInterface
interface Kernel {
    void run(Slot slot, int member);
}
