/**
 * Futures and promises, event executors and their groups, FastThreadLocal and the threads that make it fast.
 */
package io.weir.util.concurrent;
