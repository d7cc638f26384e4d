package io.quarry.search.activity;

import io.quarry.core.Caller;
import io.quarry.web.RecordsView;
import io.quarry.web.security.CallerFactory;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Attaches the recording of views to the methods marked {@link RecordsView} (only those: other requests pass no
 * filter). A view is recorded after a 2xx answer to a signed-in caller; a failure to record is logged and never
 * fails the request (as Metabase's event handler).
 */
public final class ViewRecording implements DynamicFeature {
    private static final Logger log = LoggerFactory.getLogger(ViewRecording.class);

    private final RecentViews views;

    public ViewRecording(RecentViews views) {
        this.views = views;
    }

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        RecordsView marked = resource.getResourceMethod() == null ? null : resource.getResourceMethod().getAnnotation(RecordsView.class);
        if (marked != null) {
            if (!RecentViews.MODELS.contains(marked.value())) {
                throw new IllegalStateException("@RecordsView of an unknown kind: " + marked.value() + " on " + resource.getResourceMethod());
            }
            context.register(new Recorder(marked.value()));
        }
    }

    private final class Recorder implements ContainerResponseFilter {
        private final String model;

        Recorder(String model) {
            this.model = model;
        }

        @Override
        public void filter(ContainerRequestContext request, ContainerResponseContext response) {
            if (response.getStatus() / 100 != 2) {
                return;
            }
            Caller caller = CallerFactory.callerOf(request);
            if (!caller.authenticated()) {
                return;
            }
            if ("true".equals(request.getUriInfo().getQueryParameters().getFirst("ignore_view"))) {
                return;
            }
            String id = request.getUriInfo().getPathParameters().getFirst("id");
            try {
                views.record(caller.id(), model, Long.parseLong(id), RecentViews.VIEW);
            } catch (RuntimeException e) {
                log.warn("Could not record the view of {} {}: {}", model, id, e.toString());
            }
        }
    }
}
