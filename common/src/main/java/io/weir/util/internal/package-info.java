/**
 * Implementation details of weir-common; not exported.
 */
package io.weir.util.internal;
