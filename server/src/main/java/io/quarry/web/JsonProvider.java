package io.quarry.web;

import io.quarry.core.Json;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.ext.ContextResolver;
import jakarta.ws.rs.ext.Provider;

/** Hands Jersey's Jackson provider our mapper. A lambda would be ignored: Jersey needs the reified type argument. */
@Provider
public final class JsonProvider implements ContextResolver<ObjectMapper> {
    @Override
    public ObjectMapper getContext(Class<?> type) {
        return Json.MAPPER;
    }
}
