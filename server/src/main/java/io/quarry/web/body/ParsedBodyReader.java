package io.quarry.web.body;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Json;
import jakarta.ws.rs.core.Form;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;

/**
 * Hands a resource method the body {@link RequestBodies} already parsed, as a {@link JsonNode} or any type Jackson
 * binds, instead of parsing the stream again. Raw types (String, streams, forms) still read the stream.
 */
@Provider
public final class ParsedBodyReader implements ReaderInterceptor {
    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        Object tree = context.getProperty(RequestBodies.TREE);
        Class<?> type = context.getType();
        if (!(tree instanceof JsonNode node) || isRaw(type)) {
            return context.proceed();
        }
        if (type.isInstance(node)) {
            return node;
        }
        return Json.MAPPER.readerFor(Json.MAPPER.constructType(context.getGenericType())).readValue(Json.MAPPER.treeAsTokens(node));
    }

    private static boolean isRaw(Class<?> type) {
        return type == String.class || type == byte[].class || InputStream.class.isAssignableFrom(type)
                || Reader.class.isAssignableFrom(type) || Form.class.isAssignableFrom(type)
                || MultivaluedMap.class.isAssignableFrom(type);
    }
}
