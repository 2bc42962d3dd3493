/**
 * What describes and copies user data: the basic element types
 * ({@link org.mpjlite.smpdev.data.BasicType}), the flattened type maps of derived datatypes
 * ({@link org.mpjlite.smpdev.data.TypeMap}), typed copies between arrays and NIO buffers
 * ({@link org.mpjlite.smpdev.data.Copier}, {@link org.mpjlite.smpdev.data.UserMemory}), the eager
 * copy of a message ({@link org.mpjlite.smpdev.data.Stash}), gathering, scattering, packing and
 * unpacking through a type map ({@link org.mpjlite.smpdev.data.Packing}), and the elements of a
 * message as a receive takes them ({@link org.mpjlite.smpdev.data.ElementSource}).
 *
 * <p>Uses nothing else of the device but {@code error}: it knows buffers and types, not ranks,
 * messages or requests, so point-to-point, collectives and the API layer all build on it.
 *
 * <p>Threads: everything here is stateless or immutable (type maps are built once and shared), and
 * called by whichever thread moves data; a stash or an element source belongs to one message at a
 * time, handed over by the mailbox that publishes the message.
 */
package org.mpjlite.smpdev.data;
