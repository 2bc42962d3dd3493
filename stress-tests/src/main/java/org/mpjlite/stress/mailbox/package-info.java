/**
 * jcstress tests of the matching structures alone, below the device.
 */
package org.mpjlite.stress.mailbox;
