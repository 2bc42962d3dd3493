/**
 * How a thread of the device waits, Disruptor-style: a
 * {@link org.mpjlite.smpdev.wait.WaitStrategy} interface with a spin-then-park (ranks with a core
 * each), a yield-then-park (more ranks than cores) and a parking implementation, chosen per job
 * from its {@link org.mpjlite.smpdev.wait.WaitMode} and rank count
 * ({@link org.mpjlite.smpdev.wait.WaitStrategy#forMode}); the {@link org.mpjlite.smpdev.wait.Condition}
 * a waiter polls; the {@link org.mpjlite.smpdev.wait.Waiter} it waits as (a rank: match arrivals,
 * check the job, where to park); and the {@link org.mpjlite.smpdev.wait.Doorbell} that parks and
 * wakes it. There is no busy-spinning strategy: every wait ends parked, so a rank that waits long
 * gives its core away.
 *
 * <p>Uses nothing else of the device but {@code error}. What a deadlock report says about a wait is
 * not here: a condition may also implement {@link org.mpjlite.smpdev.diag.Awaited}.
 *
 * <p>Threads: the waiting thread runs the strategy (spinning, yielding, parking on its rank's
 * doorbell); a signaller on any thread makes the condition true with a volatile write and then rings
 * the doorbell. The doorbell's Dekker handshake (register, re-check, park against write, ring)
 * means no wake-up is lost.
 */
package org.mpjlite.smpdev.wait;
