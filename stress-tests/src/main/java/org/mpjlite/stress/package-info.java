/**
 * jcstress tests of the concurrent promises of MPJ Lite (matching, the device's message path,
 * completion, wake-ups, Init, buffer pools, window atomicity), each for both matching structures.
 * Outcomes that lose or duplicate a message are FORBIDDEN.
 */
package org.mpjlite.stress;
