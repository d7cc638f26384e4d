package io.quarry.web;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;

/** JSON responses say their charset, as Metabase's {@code application/json;charset=utf-8} does. */
@Provider
public final class JsonCharsetFilter implements ContainerResponseFilter {
    /** The usual answer's type, made once rather than per response. */
    private static final MediaType JSON_UTF8 = MediaType.APPLICATION_JSON_TYPE.withCharset("utf-8");

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        MediaType type = response.getMediaType();
        if (type != null && MediaType.APPLICATION_JSON_TYPE.isCompatible(type) && !type.getParameters().containsKey("charset")) {
            response.getHeaders().putSingle(HttpHeaders.CONTENT_TYPE,
                    type.equals(MediaType.APPLICATION_JSON_TYPE) ? JSON_UTF8 : type.withCharset("utf-8"));
        }
    }
}
