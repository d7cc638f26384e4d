package io.quarry.web.param;

import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.ext.ParamConverter;
import jakarta.ws.rs.ext.ParamConverterProvider;
import jakarta.ws.rs.ext.Provider;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.function.Function;

/**
 * Converts path and query parameters to {@link PosInt}, {@link NonBlank} and {@link BoolStr}. A value that breaks the
 * rule answers 400 naming the parameter (read from its annotation), never the 404 JAX-RS would otherwise give.
 */
@Provider
public final class ParamConverters implements ParamConverterProvider {
    @Override
    @SuppressWarnings("unchecked")
    public <T> ParamConverter<T> getConverter(Class<T> rawType, Type genericType, Annotation[] annotations) {
        String name = nameOf(annotations);
        // Path parameters are always required; query parameters are optional ("nullable" in Metabase's wording).
        boolean nullable = java.util.Arrays.stream(annotations).noneMatch(a -> a instanceof PathParam);
        if (rawType == PosInt.class) {
            return (ParamConverter<T>) converter(name, nullable, ParamRule.POS_INT, raw -> {
                Long value = Validation.parsePosInt(raw);
                return value == null ? null : new PosInt(value);
            });
        }
        if (rawType == NonBlank.class) {
            return (ParamConverter<T>) converter(name, nullable, ParamRule.NON_BLANK, raw -> raw.isBlank() ? null : new NonBlank(raw));
        }
        if (rawType == BoolStr.class) {
            return (ParamConverter<T>) converter(name, nullable, ParamRule.BOOL_STR, raw -> {
                // as a body field's boolean string: padded ("TRUE ") is not a boolean, whatever its case
                Boolean value = raw.equals(raw.strip()) ? Validation.parseBoolStr(raw) : null;
                return value == null ? null : new BoolStr(value);
            });
        }
        return null;
    }

    private static <T> ParamConverter<T> converter(String name, boolean nullable, ParamRule rule, Function<String, T> parse) {
        return new ParamConverter<>() {
            @Override
            public T fromString(String raw) {
                if (raw == null) {
                    return null;
                }
                T value = parse.apply(raw);
                if (value == null) {
                    throw Validation.invalid(name, rule, nullable, raw);
                }
                return value;
            }

            @Override
            public String toString(T value) {
                return String.valueOf(value);
            }
        };
    }

    private static String nameOf(Annotation[] annotations) {
        for (Annotation a : annotations) {
            if (a instanceof QueryParam q) {
                return q.value();
            }
            if (a instanceof PathParam p) {
                return p.value();
            }
            if (a instanceof FormParam f) {
                return f.value();
            }
            if (a instanceof HeaderParam h) {
                return h.value();
            }
        }
        return "value";
    }
}
