package io.quarry.web.security;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an endpoint that opens a session and sets its cookie (sign-in, password reset, setup). A browser must not be
 * made to call it from another site's page, or the victim would be signed in as the attacker (login CSRF): such a
 * request is refused whoever calls, cookie or not.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface OpensSession {
}
