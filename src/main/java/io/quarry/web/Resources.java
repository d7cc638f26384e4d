package io.quarry.web;

import io.quarry.auth.SessionResource;
import io.quarry.setup.SetupResource;
import io.quarry.util.HealthResource;
import java.util.List;

/** Every resource class of the API, registered explicitly (no classpath scanning). */
public final class Resources {
    public static final List<Class<?>> ALL = List.of(
            HealthResource.class,
            SessionResource.class,
            SetupResource.class,
            io.quarry.setting.SettingResource.class,
            io.quarry.mail.EmailResource.class,
            io.quarry.auth.ApiKeyResource.class,
            io.quarry.auth.LoginHistoryResource.class,
            io.quarry.util.UtilResource.class,
            io.quarry.util.UtilResource.PasswordCheck.class,
            io.quarry.util.UtilResource.Logger.class,
            io.quarry.util.UtilResource.BugReporting.class,
            io.quarry.util.UtilResource.Analytics.class);

    private Resources() {
    }
}
