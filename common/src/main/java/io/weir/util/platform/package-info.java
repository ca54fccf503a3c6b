/**
 * Narrow seams onto the platform, one per capability (memory access, direct memory, uninitialised arrays,
 * system properties, native libraries, queues). Exported only to Weir's own modules: not an API for
 * applications, and free to change between releases.
 */
package io.weir.util.platform;
