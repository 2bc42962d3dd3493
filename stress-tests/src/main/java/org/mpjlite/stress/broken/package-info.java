/**
 * Deliberately broken variants of the concurrent structures. The gate requires jcstress to fail
 * each of them, which shows the tests can see the bugs they guard against.
 */
package org.mpjlite.stress.broken;
