package org.mpjlite.smpdev.collective;

/**
 * A reduction operation bound to a datatype: MPI's {@code inout = in op inout}, item by item.
 *
 * <p>The engine calls it with <em>arrays</em> of the layout's storage type (it stages NIO buffers
 * through arrays), never splitting an item, and always combines in rank order: a lower rank's
 * contribution is {@code in}, the reduction of the higher ranks is {@code inout}. That order is
 * what non-commutative operations require, and it makes every rank's result bitwise identical.
 *
 * <p>Implementations are called by any rank's thread, possibly several at once on different data:
 * they must not keep mutable state between calls.
 */
public interface Reduction {
    /**
     * {@code inout[inoutIndex + k] = in[inIndex + k] op inout[inoutIndex + k]} for the items in
     * {@code units} storage units.
     */
    void combine(Object in, int inIndex, Object inout, int inoutIndex, int units);

    /** Storage units per item; the engine passes whole items only. */
    int unitsPerItem();

    /**
     * The predefined operation this is, or null for a user function: what members of a reduction
     * must agree on (user functions of different ranks are different objects, even when the same).
     */
    default BuiltinOp builtin() {
        return null;
    }
}
