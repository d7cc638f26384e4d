package io.quarry.web.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Api;
import io.quarry.testing.TestServer;
import org.junit.jupiter.api.Test;

/** /api/docs as Metabase serves it: the OpenAPI document and a page that renders it, both without signing in. */
class DocsIT {
    @Test
    void docsAreServedWithoutSigningIn() {
        try (TestServer server = TestServer.start()) {
            Api api = server.api();
            Api.Res openApi = api.get(200, "docs/openapi.json");
            assertEquals("3.1.0", openApi.json().get("openapi").asText());
            assertTrue(openApi.json().path("paths").has("/api/docs/openapi.json"));
            Api.Res page = api.get(200, "docs");
            assertTrue(page.header("Content-Type").startsWith("text/html"), page.header("Content-Type"));
            assertTrue(page.body().contains("openapi.json") && !page.body().contains("https://"), "self-contained page");
        }
    }
}
