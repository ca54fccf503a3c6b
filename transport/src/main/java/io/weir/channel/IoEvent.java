package io.weir.channel;

/**
 * Readiness reported to an {@link IoHandle}. Each I/O handler defines its own implementation; a handle only
 * ever receives events of the handler it is compatible with.
 */
public interface IoEvent {
}
