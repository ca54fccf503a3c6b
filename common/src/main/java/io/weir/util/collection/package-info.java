/**
 * Hash maps keyed by primitive {@code int} and {@code long}, without boxing.
 */
package io.weir.util.collection;
