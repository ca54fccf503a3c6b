/**
 * Parsing and formatting shared by the SOCKS4 and SOCKS5 codecs: IP literals and the text rules for names,
 * user ids and passwords. Not exported: no other module may use it.
 */
package io.weir.handler.codec.socksx.internal;
