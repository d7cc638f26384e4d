package io.quarry.web.docs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code /api/docs}: the API description as Metabase v0.63 serves it — {@code openapi.json}, and a readable page that
 * renders it in the browser (self-contained: no CDN, no script from elsewhere).
 */
@Path("docs")
@Access(Access.Level.PUBLIC)
public final class DocsResource {
    private final ApiDocs docs;

    @Inject
    public DocsResource(ApiDocs docs) {
        this.docs = docs;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    public String page() throws IOException {
        try (InputStream in = DocsResource.class.getResourceAsStream("index.html")) {
            if (in == null) {
                throw new NotFoundException();
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @GET
    @Path("openapi.json")
    @Produces(MediaType.APPLICATION_JSON)
    public ObjectNode openApi() {
        return docs.document();
    }
}
