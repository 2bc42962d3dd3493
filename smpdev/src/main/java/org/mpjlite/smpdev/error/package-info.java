/**
 * MPI error classes ({@link org.mpjlite.smpdev.error.ErrorClass}) and how the device raises them
 * ({@link org.mpjlite.smpdev.error.Errors}): as the API layer's {@code MPIException} once the API
 * has installed its factory, as {@link org.mpjlite.smpdev.error.DeviceException} before. The bottom
 * of the device: uses nothing else of it, so every other package may raise errors.
 *
 * <p>Threads: any thread raises errors; the factory is installed once, through a volatile field,
 * before any rank thread reaches the device through the API.
 */
package org.mpjlite.smpdev.error;
