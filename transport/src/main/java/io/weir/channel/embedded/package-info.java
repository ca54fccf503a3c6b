/**
 * {@link io.weir.channel.embedded.EmbeddedChannel}: a channel without a network for testing handlers and
 * codecs, with an event loop that runs on the calling thread and a manual clock for scheduled tasks.
 */
package io.weir.channel.embedded;
