package io.quarry.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import org.glassfish.jersey.server.ApplicationHandler;
import org.glassfish.jersey.server.ContainerRequest;
import org.glassfish.jersey.server.ContainerResponse;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

/**
 * Jersey matches the preview paths to their own root resources even beside a {@code @Path("pulse")} resource with
 * {@code {id}} methods (the notifications module's): the root with the most literal characters wins. A post-matching
 * filter answers with the method Jersey chose, so no resource is built.
 */
class PreviewRoutingTest {
    /** Stands for the notifications module's pulse resource. */
    @Path("pulse")
    public static final class PulseLike {
        @GET
        @Path("{id}")
        public String get(@PathParam("id") String id) {
            return "pulse";
        }

        @GET
        @Path("{id}/{more}")
        public String sub(@PathParam("id") String id, @PathParam("more") String more) {
            return "pulse-sub";
        }

        @GET
        @Path("form_input")
        public String formInput() {
            return "form_input";
        }
    }

    /** Answers with the matched resource method instead of running it. */
    public static final class Matched implements ContainerRequestFilter {
        @Context
        private ResourceInfo info;

        @Override
        public void filter(ContainerRequestContext request) {
            request.abortWith(Response.ok(info.getResourceClass().getSimpleName() + "#" + info.getResourceMethod().getName()).build());
        }
    }

    private static String matched(ApplicationHandler handler, String path) throws Exception {
        ContainerRequest request = new ContainerRequest(URI.create("http://localhost/api/"), URI.create("http://localhost/api/" + path),
                "GET", null, new org.glassfish.jersey.internal.MapPropertiesDelegate(), null);
        ContainerResponse response = handler.apply(request).get();
        return response.getStatus() == 200 ? String.valueOf(response.getEntity()) : String.valueOf(response.getStatus());
    }

    @Test
    void previewPathsWinOverAPulseResource() throws Exception {
        ResourceConfig config = new ResourceConfig(PulseLike.class, PreviewResource.class, PreviewResource.Info.class,
                PreviewResource.Png.class, Matched.class, io.quarry.web.param.ParamConverters.class);
        // the resources are built before a post-matching filter runs: they get a service that is never called
        config.register(new org.glassfish.hk2.utilities.binding.AbstractBinder() {
            @Override
            protected void configure() {
                bind(new CardPreviews(null, null, null, null)).to(CardPreviews.class);
                bind(io.quarry.core.Caller.ANONYMOUS).to(io.quarry.core.Caller.class);
            }
        });
        ApplicationHandler handler = new ApplicationHandler(config);
        assertEquals("PreviewResource#html", matched(handler, "pulse/preview_card/7"));
        assertEquals("Info#info", matched(handler, "pulse/preview_card_info/7"));
        assertEquals("Png#png", matched(handler, "pulse/preview_card_png/7"));
        assertEquals("PulseLike#get", matched(handler, "pulse/7"));
        assertEquals("PulseLike#formInput", matched(handler, "pulse/form_input"));
        // the bare path belongs to the preview root, which has no method for it: 404 (Metabase's 400 for a non-numeric
        // pulse id is not kept here)
        assertEquals("404", matched(handler, "pulse/preview_card"));
        assertEquals("PulseLike#get", matched(handler, "pulse/preview_cards"));
        assertEquals("PulseLike#sub", matched(handler, "pulse/7/subscription"));
    }
}
