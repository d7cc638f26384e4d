package io.quarry.web.security;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Who may call an endpoint. Every resource method must say (on the method or its class); {@link AccessFeature}
 * refuses to start the application when one does not, so a forgotten check cannot ship. Finer rules (owner of a
 * record, group manager, collection rights) are the services' business.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Access {
    Level value();

    enum Level {
        /** Anyone, signed in or not. */
        PUBLIC,
        /** Any signed-in user or API key. */
        USER,
        /** Administrators only. */
        SUPERUSER
    }
}
