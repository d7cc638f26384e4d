package io.quarry.notification;

import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;

/** {@code /api/session/pulse/unsubscribe[/undo]}: the spec's (pre-0.51) place of the unsubscribe endpoints. */
@Path("session/pulse/unsubscribe")
public final class SessionUnsubscribeResource extends UnsubscribeEndpoints {
    @Inject
    public SessionUnsubscribeResource(UnsubscribeService unsubscribes, @Context HttpServletRequest request) {
        super(unsubscribes, request);
    }
}
