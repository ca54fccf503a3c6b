package io.weir.handler.codec.http;

import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Headers that are always empty and reject every mutation; a shared, thread-safe singleton. */
public final class EmptyHttpHeaders extends HttpHeaders {
    /** The single instance. */
    public static final EmptyHttpHeaders INSTANCE = new EmptyHttpHeaders();

    private EmptyHttpHeaders() {
    }

    @Override
    public String get(CharSequence name) {
        return null;
    }

    @Override
    public CharSequence getCharSequence(CharSequence name) {
        return null;
    }

    @Override
    public List<String> getAll(CharSequence name) {
        return Collections.emptyList();
    }

    @Override
    public boolean contains(CharSequence name) {
        return false;
    }

    @Override
    public Iterator<CharSequence> valueIterator(CharSequence name) {
        return Collections.emptyIterator();
    }

    @Override
    public int size() {
        return 0;
    }

    @Override
    public Set<String> names() {
        return Collections.emptySet();
    }

    @Override
    public Iterator<Map.Entry<CharSequence, CharSequence>> iterator() {
        return Collections.emptyIterator();
    }

    /** @throws UnsupportedOperationException always */
    @Override
    public HttpHeaders add(CharSequence name, Object value) {
        throw new UnsupportedOperationException("read only");
    }

    /** @throws UnsupportedOperationException always */
    @Override
    public HttpHeaders set(CharSequence name, Object value) {
        throw new UnsupportedOperationException("read only");
    }

    /** @throws UnsupportedOperationException always */
    @Override
    public HttpHeaders remove(CharSequence name) {
        throw new UnsupportedOperationException("read only");
    }

    /** @throws UnsupportedOperationException always */
    @Override
    public HttpHeaders clear() {
        throw new UnsupportedOperationException("read only");
    }
}
