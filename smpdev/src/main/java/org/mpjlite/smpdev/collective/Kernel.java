package org.mpjlite.smpdev.collective;

/**
 * One member's share of a collective, once every member has published its part: move (or reduce)
 * the data that member receives into its result buffers, reading the others' contributions. A
 * kernel writes only the results of {@code member}, so the members' kernels may run at once
 * (blocking collectives: each member runs its own) or one after another (non-blocking collectives:
 * the last member to arrive runs them all).
 */
@FunctionalInterface
interface Kernel {
    void run(Slot slot, int member);
}
