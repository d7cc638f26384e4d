package io.quarry.core;

/**
 * Who is making the current request. {@code sessionKey} is the raw session id the request carried (needed to log
 * out); {@code viaApiKey} marks callers authenticated by an {@code X-Api-Key}.
 */
public record Caller(Long userId, boolean superuser, String sessionKey, boolean viaApiKey, String locale) {
    public static final Caller ANONYMOUS = new Caller(null, false, null, false, null);

    public boolean authenticated() {
        return userId != null;
    }

    public long id() {
        if (userId == null) {
            throw new UnauthenticatedException();
        }
        return userId;
    }

    public boolean is(long otherUserId) {
        return userId != null && userId == otherUserId;
    }
}
