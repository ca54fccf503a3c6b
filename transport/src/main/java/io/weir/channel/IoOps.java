package io.weir.channel;

/**
 * A set of readiness events a handle asks its {@link IoHandler} to watch. Each I/O handler defines its own
 * implementation; handing one kind to another handler is an {@link IllegalArgumentException}.
 */
public interface IoOps {
}
