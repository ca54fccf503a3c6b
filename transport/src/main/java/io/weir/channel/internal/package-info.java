/**
 * Transport internals shared with the native transports (exported to them only, not to applications).
 */
package io.weir.channel.internal;
