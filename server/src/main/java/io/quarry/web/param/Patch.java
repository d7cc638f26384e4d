package io.quarry.web.param;

import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * One key of a {@code PUT} body, which can be absent (leave the value as it is), JSON null (clear it) or a value (set
 * it): Metabase's {@code :present} keys. Read with {@link #of(Body, String, BiFunction)}, which validates the value as the
 * given {@link Body} method does, so a body's messages stay Metabase's.
 */
public record Patch<T>(boolean present, T value) {
    private static final Patch<?> ABSENT = new Patch<>(false, null);

    public Patch {
        if (!present && value != null) {
            throw new IllegalArgumentException("an absent key has no value");
        }
    }

    @SuppressWarnings("unchecked")
    public static <T> Patch<T> absent() {
        return (Patch<T>) ABSENT;
    }

    /** A key that was sent: {@code value} (null clears). */
    public static <T> Patch<T> of(T value) {
        return new Patch<>(true, value);
    }

    /** The key of {@code body} read by {@code read} (for example {@code Body::optPosInt}), absent when not sent. */
    public static <T> Patch<T> of(Body body, String key, BiFunction<Body, String, T> read) {
        T value = read.apply(body, key);
        return body.has(key) ? of(value) : absent();
    }

    /** Whether this sets a value other than {@code current}. */
    public boolean changes(T current) {
        return present && !Objects.equals(value, current);
    }

    /** The new value when the key was sent, else {@code current}. */
    public T applyTo(T current) {
        return present ? value : current;
    }

    /** The same patch with its value converted; null stays null. */
    public <R> Patch<R> map(Function<? super T, ? extends R> convert) {
        return present ? of(value == null ? null : convert.apply(value)) : absent();
    }
}
