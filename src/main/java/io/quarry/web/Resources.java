package io.quarry.web;

import io.quarry.auth.SessionResource;
import io.quarry.setup.SetupResource;
import io.quarry.user.GroupResource;
import io.quarry.user.MembershipResource;
import io.quarry.user.UserResource;
import io.quarry.util.HealthResource;
import java.util.List;

/** Every resource class of the API, registered explicitly (no classpath scanning). */
public final class Resources {
    public static final List<Class<?>> ALL = List.of(
            HealthResource.class,
            SessionResource.class,
            SetupResource.class,
            UserResource.class,
            GroupResource.class,
            MembershipResource.class,
            io.quarry.auth.PasswordResetResource.class,
            io.quarry.auth.ExternalAuthResource.class,
            io.quarry.notification.SessionUnsubscribeResource.class,
            io.quarry.notification.PulseUnsubscribeResource.class);

    private Resources() {
    }
}
