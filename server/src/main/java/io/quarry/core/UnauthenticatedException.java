package io.quarry.core;

/** Thrown when code needs the caller's user and the request has none; the web layer answers 401 {@code Unauthenticated}. */
public final class UnauthenticatedException extends RuntimeException {
    public UnauthenticatedException() {
        super("Unauthenticated", null, false, false);
    }
}
