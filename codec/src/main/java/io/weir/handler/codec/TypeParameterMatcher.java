package io.weir.handler.codec;

import java.lang.reflect.Array;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.HashMap;
import java.util.Map;

/**
 * Tells whether a message is an instance of a codec's message type, found once per codec class from the
 * generic type argument its class declaration gives a base class ({@code class Enc extends
 * MessageToByteEncoder<Foo>} gives {@code Foo}). A type argument left open resolves to its bound (usually
 * {@code Object}, which matches everything). Thread-safe and immutable.
 */
final class TypeParameterMatcher {
    private static final TypeParameterMatcher ANY = new TypeParameterMatcher(Object.class);

    private final Class<?> type;

    private TypeParameterMatcher(Class<?> type) {
        this.type = type;
    }

    /** The matcher for instances of {@code type}. */
    static TypeParameterMatcher of(Class<?> type) {
        java.util.Objects.requireNonNull(type, "type");
        return type == Object.class ? ANY : new TypeParameterMatcher(type);
    }

    /**
     * A per-class cache of the matcher for the type argument named {@code typeParameterName} of
     * {@code baseClass}; {@code get(c)} resolves it for concrete class {@code c} the first time.
     */
    static ClassValue<TypeParameterMatcher> cache(Class<?> baseClass, String typeParameterName) {
        return new ClassValue<>() {
            @Override
            protected TypeParameterMatcher computeValue(Class<?> concrete) {
                return of(resolve(concrete, baseClass, typeParameterName));
            }
        };
    }

    /** Whether {@code msg} is an instance of the type. */
    boolean match(Object msg) {
        return this == ANY || type.isInstance(msg);
    }

    /** The type matched. */
    Class<?> type() {
        return type;
    }

    /**
     * Resolves the type argument {@code typeParameterName} of {@code baseClass} as bound by {@code concrete}'s
     * chain of superclasses.
     *
     * @throws IllegalStateException if {@code concrete} does not extend {@code baseClass} or the base has no such
     *         type parameter
     */
    static Class<?> resolve(Class<?> concrete, Class<?> baseClass, String typeParameterName) {
        TypeVariable<?> target = null;
        for (TypeVariable<?> v : baseClass.getTypeParameters()) {
            if (v.getName().equals(typeParameterName)) {
                target = v;
            }
        }
        if (target == null) {
            throw new IllegalStateException(baseClass.getName() + " has no type parameter " + typeParameterName);
        }
        // Walk up from the concrete class, recording what each superclass's type variables are bound to, in
        // terms of types already resolved below.
        Map<TypeVariable<?>, Type> bindings = new HashMap<>();
        Class<?> c = concrete;
        while (c != baseClass) {
            Class<?> superclass = c.getSuperclass();
            if (superclass == null) {
                throw new IllegalStateException(concrete.getName() + " does not extend " + baseClass.getName());
            }
            if (c.getGenericSuperclass() instanceof ParameterizedType pt) {
                Type[] args = pt.getActualTypeArguments();
                TypeVariable<?>[] vars = superclass.getTypeParameters();
                for (int i = 0; i < vars.length && i < args.length; i++) {
                    Type arg = args[i];
                    if (arg instanceof TypeVariable<?> tv && bindings.containsKey(tv)) {
                        arg = bindings.get(tv);
                    }
                    bindings.put(vars[i], arg);
                }
            }
            c = superclass;
        }
        Type bound = bindings.get(target);
        return erase(bound == null ? target : bound);
    }

    private static Class<?> erase(Type t) {
        if (t instanceof Class<?> c) {
            return c.isPrimitive() ? Object.class : c;
        }
        if (t instanceof ParameterizedType pt) {
            return erase(pt.getRawType());
        }
        if (t instanceof GenericArrayType gat) {
            return Array.newInstance(erase(gat.getGenericComponentType()), 0).getClass();
        }
        if (t instanceof TypeVariable<?> tv) {
            Type[] bounds = tv.getBounds();
            return bounds.length == 0 ? Object.class : erase(bounds[0]);
        }
        if (t instanceof WildcardType wt) {
            Type[] upper = wt.getUpperBounds();
            return upper.length == 0 ? Object.class : erase(upper[0]);
        }
        return Object.class;
    }
}
