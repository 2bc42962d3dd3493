/**
 * Runs jcstress in a child JVM and turns its verdict into an exit code the build can trust: every
 * real test passed, every broken variant caught.
 */
package org.mpjlite.stress.gate;
