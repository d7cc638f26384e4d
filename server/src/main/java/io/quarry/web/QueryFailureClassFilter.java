package io.quarry.web;

import io.quarry.web.security.CallerFactory;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A failed query's body names the driver's exception class ({@code "class": "class org.postgresql.util.PSQLException"})
 * as Metabase's does; only administrators need that detail about the server's internals, so other callers get the
 * body without it. (A failure written after a streamed 202 was committed never carries it.)
 */
public final class QueryFailureClassFilter implements ContainerResponseFilter {
    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (response.getEntity() instanceof Map<?, ?> body && "failed".equals(body.get("status")) && body.containsKey("class")
                && !CallerFactory.callerOf(request).superuser()) {
            Map<Object, Object> withoutClass = new LinkedHashMap<>(body);
            withoutClass.remove("class");
            response.setEntity(withoutClass, response.getEntityAnnotations(), response.getMediaType());
        }
    }
}
