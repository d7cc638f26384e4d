package io.quarry.notification;

import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;

/** {@code /api/pulse/unsubscribe[/undo]}: where Metabase serves the unsubscribe endpoints since 0.51. */
@Path("pulse/unsubscribe")
public final class PulseUnsubscribeResource extends UnsubscribeEndpoints {
    @Inject
    public PulseUnsubscribeResource(UnsubscribeService unsubscribes, @Context HttpServletRequest request) {
        super(unsubscribes, request);
    }
}
